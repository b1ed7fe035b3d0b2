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
import type { SubmittedValues } from '../../shared/hubspot-values';
import type { DraftAnswer } from './draft';
import { clearDetails, restoreDetails, saveDetails } from './saved-details';
import type { EmailLinks, Letter } from '../../shared/email/template';

export interface EmailFlowOptions {
  formId: string;
  /** Where the dialog mounts. */
  container: HTMLElement;
  /** The links of the email when the page has to make it itself (the embed). */
  links: EmailLinks;
  /** The letter of the email when the page has to make it itself (the first of content/letters). */
  letter: Letter;
  /**
   * The dialog's words, in the page's language: its `data-dialog-words` as written at build, read by
   * the dialog's own module when it loads (their reader is not part of the page's first script).
   */
  dialogWords: string;
  /** Called with every accepted submission, e.g. for referral tracking. */
  onSubmission?: (values: SubmittedValues) => void;
  /**
   * Loads the dialog (src/components/islands/email-dialog-entry.tsx): the page's script passes it
   * in, as `() => import(…)`, so that lib never imports a component (tests/unit/import-layers.test.ts).
   */
  loadDialog: () => Promise<EmailDialogModule>;
}

/** What the dialog's module offers the flow. */
export interface EmailDialogModule {
  showEmailDialog(container: HTMLElement, draft: DraftAnswer, words: string, onEdit?: () => void): Promise<void>;
}

/**
 * The draft of an embed's submission, made in the browser; the platform cannot send it. Its
 * reader (with zod) loads only here, so the site's own forms do not carry it on the first load.
 */
export async function draftFromValues(values: SubmittedValues, links: EmailLinks, letter: Letter): Promise<DraftAnswer | undefined> {
  const { readEmailSubmission } = await import('../../shared/email/submission');
  try {
    const { data } = readEmailSubmission(values);
    return { id: '', token: '', data, links, letter, ownWords: '', note: '', wordsConsent: false, wantsPlatformSend: false };
  } catch (error) {
    // §8: form data extraction errors are only logged.
    console.warn('Could not read the submitted form', error instanceof Error ? error.message : error);
    return undefined;
  }
}

type NativeFormRegion = HTMLElement & { showSuccess?: () => void; showForm?: () => void };

/**
 * Under the form, when it was filled in with what the parent typed before (saved-details.ts):
 * says so, and clears it on request.
 */
function keptDetailsNotice(region: NativeFormRegion, form: HTMLFormElement, formId: string): HTMLElement {
  const notice = document.createElement('p');
  notice.className = 'mt-4 text-sm text-muted';
  notice.append('We filled in the details you typed before, kept on this device only. ');
  const clear = document.createElement('button');
  clear.type = 'button';
  clear.className = 'font-medium text-brand-700 underline';
  clear.textContent = 'Clear them';
  clear.addEventListener('click', () => {
    clearDetails(formId);
    form.reset();
    form.dispatchEvent(new Event('change', { bubbles: true }));
    notice.remove();
    [...form.querySelectorAll<HTMLElement>('input:not([type="hidden"]), select, textarea')].find((control) => !control.closest('[hidden]'))?.focus();
  });
  notice.append(clear);
  region.after(notice);
  return notice;
}

export function listenForEmailForm(root: HTMLElement, options: EmailFlowOptions): () => void {
  // Loaded once: when the parent first touches the form, or at the latest when it is accepted.
  let dialog: Promise<EmailDialogModule> | undefined;
  const loadDialog = () => (dialog ??= options.loadDialog());
  const region = root.querySelector<NativeFormRegion>(`native-form[data-form-id="${CSS.escape(options.formId)}"]`);
  const form = region?.querySelector('form');
  let notice = region && form && restoreDetails(form, options.formId) ? keptDetailsNotice(region, form, options.formId) : undefined;
  const show = async (draft: DraftAnswer | undefined, onEdit?: () => void) => {
    if (!draft) return;
    const { showEmailDialog } = await loadDialog();
    await showEmailDialog(options.container, draft, options.dialogWords, onEdit);
  };
  const onNative = (event: Event) => {
    const { formId, answer, region: submitted } = (event as CustomEvent<NativeSubmittedDetail>).detail;
    if (formId !== options.formId) return;
    event.preventDefault();
    const native = submitted as NativeFormRegion;
    const submittedForm = native.querySelector('form');
    // Kept for "Edit details" after a reload; the notice about earlier details no longer applies.
    if (submittedForm) saveDetails(submittedForm, formId);
    notice?.remove();
    notice = undefined;
    native.showSuccess?.();
    options.onSubmission?.(answer.values);
    void show(answer.draft as DraftAnswer | undefined, native.showForm ? () => native.showForm?.() : undefined);
  };
  const onEmbed = (event: Event) => {
    const { formId, values } = (event as CustomEvent<EmbedSubmittedDetail>).detail;
    if (formId !== options.formId) return;
    options.onSubmission?.(values);
    void draftFromValues(values, options.links, options.letter).then(show);
  };
  // The parent has started: load the dialog now, so it opens the moment the form is accepted.
  const warm = () => void loadDialog();
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
export function emailFlowOptionsFrom(element: HTMLElement): Omit<EmailFlowOptions, 'onSubmission' | 'container' | 'loadDialog'> {
  return {
    formId: element.dataset.emailFormId ?? '',
    links: { videoUrl: element.dataset.videoUrl ?? '', bookingUrl: element.dataset.bookingUrl ?? '' },
    letter: JSON.parse(element.dataset.letter ?? 'null') as Letter,
    dialogWords: element.dataset.dialogWords ?? '',
  };
}
