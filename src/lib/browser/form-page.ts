/**
 * /form?type=referSchool|toolkit|newsletter&ambassadorId={id}: shows the form of that type (or
 * "Form Not Found"), shows the ambassador id, reports referrals to the ambassador application, and
 * after a referSchool submission runs the email flow.
 */
import { formPageTypes, type FormPageType } from '../../config/forms';
import { type EmailFlowOptions, emailFlowOptionsFrom, listenForEmailForm } from './email/flow';
import { emailMessages } from '../shared/email/messages';
import type { SubmittedDetail as EmbedSubmittedDetail } from './hubspot-embed';
import type { SubmittedDetail as NativeSubmittedDetail } from './forms/enhance';
import type { SubmittedValues } from '../shared/hubspot-values';
import { showToast } from './frame/toast';

export function formTypeOf(value: string | null): FormPageType | undefined {
  return value && Object.hasOwn(formPageTypes, value) ? (value as FormPageType) : undefined;
}

/** The ambassador id when it is a usable one (trimmed, printable, at most 100 characters). */
export function ambassadorIdOf(value: string | null): string | undefined {
  const id = (value ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return id && id.length <= 100 ? id : undefined;
}

/**
 * Posts the referral to `{host}/api/referal-tracking`; a failure is only logged (§7). Its schema
 * (with zod) loads only when a referral is sent, so the page's first load does not carry it.
 */
export async function trackReferral(host: string, ambassadorId: string, referralType: FormPageType, formDetails?: Record<string, string>): Promise<void> {
  const { referralTrackingSchema } = await import('../shared/schemas');
  const payload = referralTrackingSchema.safeParse({ ambassadorId, referralType, formDetails });
  if (!payload.success) {
    console.warn('Referral not tracked: invalid payload');
    return;
  }
  try {
    const response = await fetch(`${host}/api/referal-tracking`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(payload.data),
    });
    if (!response.ok) console.warn('Referral tracking answered', response.status);
  } catch (error) {
    console.warn('Referral tracking failed', error instanceof Error ? error.message : error);
  }
}

/** The details sent with a referral: the school side of the form, not the parent's contact data. */
const referralDetailFields = ['school_name', 'city', 'state', 'role_to_student', 'child_grade'];

export function initFormPage(root: HTMLElement, { loadDialog }: Pick<EmailFlowOptions, 'loadDialog'>): void {
  const params = new URLSearchParams(location.search);
  const type = formTypeOf(params.get('type'));
  const ambassadorId = ambassadorIdOf(params.get('ambassadorId'));
  const section = type ? root.querySelector<HTMLElement>(`[data-form-type="${type}"]`) : null;
  // The page's inline script has already shown this section (or "Form Not Found").
  if (!type || !section) return;
  if (ambassadorId) {
    const footer = section.querySelector<HTMLElement>('[data-ambassador-footer]');
    const slot = section.querySelector<HTMLElement>('[data-ambassador-id]');
    if (footer && slot) {
      slot.textContent = ambassadorId;
      footer.hidden = false;
    }
  }

  const formId = section.dataset.formId ?? '';
  const trackSubmission = (values: SubmittedValues) => {
    if (!ambassadorId) return;
    const details = Object.fromEntries(referralDetailFields.filter((name) => values[name]).map((name) => [name, values[name]!]));
    void trackReferral(root.dataset.ambassadorHost ?? '', ambassadorId, type, Object.keys(details).length ? details : undefined);
  };

  if (type === 'referSchool') {
    const container = section.querySelector<HTMLElement>('[data-email-dialog-root]');
    if (container) listenForEmailForm(section, { ...emailFlowOptionsFrom(root), container, onSubmission: trackSubmission, loadDialog });
    return;
  }
  // Toolkit and newsletter: the success toast (§4) beside the form's own thank-you text.
  section.addEventListener('native-form:submitted', (event) => {
    const detail = (event as CustomEvent<NativeSubmittedDetail>).detail;
    if (detail.formId !== formId) return;
    trackSubmission(detail.answer.values);
    showToast(emailMessages.formSubmitted);
  });
  section.addEventListener('hubspot:submitted', (event) => {
    const detail = (event as CustomEvent<EmbedSubmittedDetail>).detail;
    if (detail.formId !== formId) return;
    trackSubmission(detail.values);
    showToast(emailMessages.formSubmitted);
  });
}
