/**
 * Wires an embedded email-generation (or referral) form to the email dialog: when that form, and
 * only that one, reports a submission, the draft is generated and either shown for manual use or
 * sent through the platform first when the parent chose so (§4).
 */
import { openDraft, sendDraftViaPlatform, startDraft } from '../../stores/emailDraft';
import type { SubmittedDetail } from '../hubspot-embed';
import { readEmailSubmission, shouldSendAutomatically, type EmailSubmission } from './submission';
import type { EmailLinks } from './template';

export interface EmailFlowOptions {
  formId: string;
  links: EmailLinks;
  /** Called with every accepted submission, e.g. for referral tracking. */
  onSubmission?: (submission: EmailSubmission, detail: SubmittedDetail) => void;
}

export async function handleEmailSubmission(detail: SubmittedDetail, options: EmailFlowOptions): Promise<void> {
  if (detail.formId !== options.formId) return;
  let submission: EmailSubmission;
  try {
    submission = readEmailSubmission(detail.values);
  } catch (error) {
    // §8: form data extraction errors are only logged.
    console.warn('Could not read the submitted form', error instanceof Error ? error.message : error);
    return;
  }
  options.onSubmission?.(submission, detail);
  startDraft(submission.data, options.links);
  openDraft();
  if (shouldSendAutomatically(submission)) await sendDraftViaPlatform({ closeOnSuccess: false });
}

/** Listens on `root` (the form's section or the document) for `hubspot:submitted`. */
export function listenForEmailForm(root: HTMLElement | Document, options: EmailFlowOptions): () => void {
  const listener = (event: Event) => {
    void handleEmailSubmission((event as CustomEvent<SubmittedDetail>).detail, options);
  };
  root.addEventListener('hubspot:submitted', listener);
  return () => root.removeEventListener('hubspot:submitted', listener);
}

/** Reads the flow's configuration from data attributes rendered at build time. */
export function emailFlowOptionsFrom(element: HTMLElement): Omit<EmailFlowOptions, 'onSubmission'> {
  return {
    formId: element.dataset.emailFormId ?? '',
    links: { videoUrl: element.dataset.videoUrl ?? '', bookingUrl: element.dataset.bookingUrl ?? '' },
  };
}
