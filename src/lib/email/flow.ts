/**
 * Wires an email-generation (or referral) form to the email dialog: when that form, and only that
 * one, is accepted, "Your Email is Ready" opens with the email the server composed from it, and
 * when the parent chose "Send via our platform" the send is asked for at once (§4). The dialog's
 * code (React among it) loads when the parent first touches the form, or at the latest then.
 *
 * With HubSpot's embed instead of the site's form, the email is made here from the values the
 * embed reports; the platform cannot send it (there is no accepted submission to name).
 */
import type { SubmittedDetail as EmbedSubmittedDetail } from '../hubspot-embed';
import type { SubmittedDetail as NativeSubmittedDetail } from '../forms/enhance';
import type { SubmittedValues } from '../hubspot-values';
import type { DraftAnswer } from '../../stores/emailDraft';
import type { EmailLinks, Letter } from './template';

export interface EmailFlowOptions {
  formId: string;
  /** Where the dialog mounts. */
  container: HTMLElement;
  /** The links of the email when the page has to make it itself (the embed). */
  links: EmailLinks;
  /** The letter of the email when the page has to make it itself (the first of content/letters). */
  letter: Letter;
  /** Called with every accepted submission, e.g. for referral tracking. */
  onSubmission?: (values: SubmittedValues) => void;
}

let dialog: Promise<typeof import('./dialog-entry')> | undefined;
/** Starts loading the dialog (once). */
export const loadEmailDialog = () => (dialog ??= import('./dialog-entry'));

/**
 * The draft of an embed's submission, made in the browser; the platform cannot send it. Its
 * reader (with zod) loads only here, so the site's own forms do not carry it on the first load.
 */
export async function draftFromValues(values: SubmittedValues, links: EmailLinks, letter: Letter): Promise<DraftAnswer | undefined> {
  const { readEmailSubmission } = await import('./submission');
  try {
    const { data } = readEmailSubmission(values);
    return { id: '', token: '', data, links, letter, ownWords: '', note: '', wantsPlatformSend: false };
  } catch (error) {
    // §8: form data extraction errors are only logged.
    console.warn('Could not read the submitted form', error instanceof Error ? error.message : error);
    return undefined;
  }
}

export function listenForEmailForm(root: HTMLElement, options: EmailFlowOptions): () => void {
  const show = async (draft: DraftAnswer | undefined) => {
    if (!draft) return;
    const { showEmailDialog } = await loadEmailDialog();
    await showEmailDialog(options.container, draft);
  };
  const onNative = (event: Event) => {
    const { formId, answer, region } = (event as CustomEvent<NativeSubmittedDetail>).detail;
    if (formId !== options.formId) return;
    event.preventDefault();
    (region as HTMLElement & { showSuccess?: () => void }).showSuccess?.();
    options.onSubmission?.(answer.values);
    void show(answer.draft as DraftAnswer | undefined);
  };
  const onEmbed = (event: Event) => {
    const { formId, values } = (event as CustomEvent<EmbedSubmittedDetail>).detail;
    if (formId !== options.formId) return;
    options.onSubmission?.(values);
    void draftFromValues(values, options.links, options.letter).then(show);
  };
  // The parent has started: load the dialog now, so it opens the moment the form is accepted.
  const warm = () => void loadEmailDialog();
  root.addEventListener('focusin', warm, { once: true });
  root.addEventListener('pointerdown', warm, { once: true });
  root.addEventListener('native-form:submitted', onNative);
  root.addEventListener('hubspot:submitted', onEmbed);
  return () => {
    root.removeEventListener('focusin', warm);
    root.removeEventListener('pointerdown', warm);
    root.removeEventListener('native-form:submitted', onNative);
    root.removeEventListener('hubspot:submitted', onEmbed);
  };
}

/** Reads the flow's configuration from data attributes rendered at build time. */
export function emailFlowOptionsFrom(element: HTMLElement): Omit<EmailFlowOptions, 'onSubmission' | 'container'> {
  return {
    formId: element.dataset.emailFormId ?? '',
    links: { videoUrl: element.dataset.videoUrl ?? '', bookingUrl: element.dataset.bookingUrl ?? '' },
    letter: JSON.parse(element.dataset.letter ?? 'null') as Letter,
  };
}
