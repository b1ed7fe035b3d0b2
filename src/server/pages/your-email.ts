/**
 * The pages of /your-email (netlify/functions/your-email.mts): "Your Email is Ready" without
 * JavaScript, its "Edit details" form, and the page for a link that is not valid.
 */
import { emailFormFields, sendChoiceField } from '../../config/forms';
import { NOTE_FIELD, NOTE_MAX, OWN_WORDS_FIELD, WORDS_CONSENT_FIELD, WORDS_CONSENT_VALUE } from '../../lib/email/note';
import { isPlatformChoice } from '../../lib/email/submission';
import { composeLinks, emailAsText } from '../../lib/email/template';
import { allFields } from '../../lib/forms/fields';
import { errorClass, escapeHtml, helpClass, inputClass, labelClass, renderForm, wordsConsentHtml } from '../../lib/forms/render';
import type { RawValues } from '../../lib/forms/values';
import { buttonClass } from '../../lib/ui';
import { composeDraft, type LetteredDraft } from '../letter/drafts';
import { formDefinitions } from '../forms/definitions';
import { heading, lead } from './frame';

export const home = `<div class="mt-8"><a class="${buttonClass('secondary', 'md')}" href="/lead-the-change#email-form">Back to the email form</a></div>`;

export interface Notice {
  tone: 'status' | 'alert';
  text: string;
}

/**
 * "Your data": the page that asks for a link by address. Never a signed link here: this page is
 * reached by typing an address into a form, which proves nothing about whose it is.
 */
const yourData = `<p class="mt-6 text-sm text-muted"><a class="font-medium text-brand-700 underline" href="/your-data">Your data</a>: ask for a link to see, download or delete what we keep about you. We send it to your own inbox.</p>`;

export function emailPage(
  draft: LetteredDraft,
  token: string,
  options: { note?: string; noteError?: string; notice?: Notice; wordsConsent?: boolean } = {},
): string {
  const note = options.note ?? draft.note;
  const wordsConsent = options.wordsConsent ?? draft.wordsConsent ?? false;
  const consentValues = { [WORDS_CONSENT_FIELD]: wordsConsent ? WORDS_CONSENT_VALUE : '' };
  const email = composeDraft(draft, note);
  const links = composeLinks(email);
  const hidden = `<input type="hidden" name="id" value="${escapeHtml(draft.id)}"><input type="hidden" name="t" value="${escapeHtml(token)}">`;
  const requested = Boolean(draft.messageId);
  const notice = options.notice
    ? `<div class="mt-6 rounded-xl border p-4 ${options.notice.tone === 'alert' ? 'border-danger-600 bg-danger-50 text-danger-600' : 'border-brand-200 bg-brand-50 text-ink'}" role="${options.notice.tone}">${escapeHtml(options.notice.text)}</div>`
    : draft.wantsPlatformSend && !requested && !draft.selfSentMessageId
      ? // The parent chose our platform in the form; without scripts nothing was asked for yet (a
        // page this address opens changes nothing), so the page says where that choice is made.
        `<p class="mt-6 rounded-xl border border-brand-200 bg-brand-50 p-4 text-ink" data-chosen-platform>You chose to let us send it. Read it through, then press <a class="font-medium text-brand-700 underline" href="#send-platform">Send via our platform</a> below: we email you a link to confirm first, and nothing is sent until you do.</p>`
      : '';
  const platform = requested
    ? `<p class="text-sm text-muted">You asked us to send this email. Check your inbox for the link to confirm it.</p>`
    : `<form method="post" action="/your-email" class="space-y-3">${hidden}<input type="hidden" name="action" value="send"><input type="hidden" name="tz" value="" data-time-zone><div><label for="note" class="${labelClass}">Add a personal note <span class="font-normal text-muted">(optional)</span></label><p id="note-help" class="${helpClass}">A few words of your own, shown after your introduction. Plain text, no links or email addresses, at most ${NOTE_MAX} characters.</p><textarea id="note" name="note" rows="3" maxlength="${NOTE_MAX}" class="${inputClass}" aria-describedby="note-help${options.noteError ? ' note-error' : ''}"${options.noteError ? ' aria-invalid="true"' : ''}>${escapeHtml(note)}</textarea><p id="note-error" class="${errorClass}"${options.noteError ? '' : ' hidden'}>${escapeHtml(options.noteError ?? '')}</p></div>${wordsConsentHtml({ instance: 'your-email', values: consentValues })}<button type="submit" class="${buttonClass('accent', 'md')}">Send via our platform</button><p class="text-xs text-muted">We email you a link to confirm first. Nothing is sent until you do.</p></form>`;
  const selfSent = draft.selfSentMessageId
    ? `<p class="text-sm text-success-600" role="status">Thank you! In about ten days we'll ask you whether the school answered.</p>`
    : `<form method="post" action="/your-email">${hidden}<input type="hidden" name="action" value="self"><input type="hidden" name="note" value="${escapeHtml(note)}">${wordsConsent ? `<input type="hidden" name="${WORDS_CONSENT_FIELD}" value="${WORDS_CONSENT_VALUE}">` : ''}<button type="submit" class="${buttonClass('secondary', 'sm')}">I've sent it myself</button></form>`;
  // Until the letter is on its way, the parent can go back to the form with what they typed.
  const edit = draft.selfSentMessageId
    ? ''
    : `<p class="mt-2 text-sm"><a class="font-medium text-brand-700 underline" href="/your-email?id=${encodeURIComponent(draft.id)}&amp;t=${encodeURIComponent(token)}&amp;edit=1">Edit details</a>: fix a name, the grade or the school, and make the email again.</p>`;
  // The letter reads in the page's own flow; one tap selects all of it to copy.
  return `${heading('Your Email is Ready')}${lead('Read it through, then send it from your own email, or let our platform send it for you.')}${edit}${notice}<div class="mt-6 space-y-4 rounded-card border border-line bg-white p-6 shadow-card"><section aria-labelledby="email-text-title"><h2 id="email-text-title" class="${labelClass}">Your email</h2><p class="${helpClass}">Tap or click the email to select all of it, then copy it into a new email.</p><div class="mt-2 select-all whitespace-pre-wrap break-words rounded-xl border border-line bg-canvas p-4 text-sm leading-relaxed" data-email-text>${escapeHtml(
    emailAsText(email),
  )}</div></section><div class="grid gap-6 border-t border-line pt-4 sm:grid-cols-2"><section aria-labelledby="send-yourself" class="space-y-3"><h2 id="send-yourself" class="text-sm font-semibold">Send it yourself</h2><div class="flex flex-wrap gap-2"><a class="${buttonClass('primary', 'sm')}" href="${escapeHtml(links.mailto)}">Open in my email app</a><a class="${buttonClass('secondary', 'sm')}" href="${escapeHtml(links.gmail)}" target="_blank" rel="noopener noreferrer">Gmail<span class="sr-only"> (opens in a new tab)</span></a><a class="${buttonClass('secondary', 'sm')}" href="${escapeHtml(links.outlook)}" target="_blank" rel="noopener noreferrer">Outlook<span class="sr-only"> (opens in a new tab)</span></a></div>${selfSent}</section><section aria-labelledby="send-platform" class="space-y-3"><h2 id="send-platform" class="text-sm font-semibold">Or let us send it</h2>${platform}</section></div></div>${yourData}`;
}

/** The values of the form a draft was made from, as the email form names them. */
function formValuesOf(draft: LetteredDraft, sendOptions: string[]): RawValues {
  const values: RawValues = Object.fromEntries(
    Object.entries(emailFormFields).map(([key, field]) => [field, draft.data[key as keyof typeof draft.data] ?? '']),
  );
  const choice = sendOptions.find((option) => isPlatformChoice(option) === draft.wantsPlatformSend);
  if (choice) values[sendChoiceField.name] = choice;
  values[OWN_WORDS_FIELD] = draft.ownWords ?? '';
  values[NOTE_FIELD] = draft.note;
  if (draft.wordsConsent) values[WORDS_CONSENT_FIELD] = WORDS_CONSENT_VALUE;
  return values;
}

/**
 * "Edit details" without JavaScript: the email form again, filled in with what the parent typed;
 * sending it makes a new email, checked like the first.
 */
export async function editPage(draft: LetteredDraft, token: string): Promise<{ status: number; title: string; content: string }> {
  const definition = [...(await formDefinitions()).values()].find((item) => item.purpose === draft.purpose && item.render === 'native');
  if (!definition) return { status: 200, title: 'Your Email is Ready', content: emailPage(draft, token) };
  const sendOptions =
    allFields(definition)
      .find((field) => field.name === sendChoiceField.name)
      ?.options?.map((option) => option.value) ?? [];
  const page = draft.purpose === 'referSchool' ? '/form' : '/lead-the-change';
  const form = renderForm(definition, { purpose: draft.purpose, instance: 'form-response-form', page, values: formValuesOf(draft, sendOptions), note: true });
  const back = `<div class="mt-8"><a class="${buttonClass('secondary', 'md')}" href="/your-email?id=${encodeURIComponent(draft.id)}&amp;t=${encodeURIComponent(token)}">Back to your email</a></div>`;
  return {
    status: 200,
    title: 'Edit your details',
    content: `${heading('Edit your details')}${lead('Change what needs fixing and send the form again: you get a new email to read before anything is sent.')}<div class="mt-8 rounded-card border border-line bg-white p-6 shadow-card">${form}</div>${back}`,
  };
}

export const notFound = () => ({
  status: 404,
  title: 'This email link is not valid',
  content: `${heading('This email link is not valid')}${lead('It may have been cut short, or the email was made too long ago. Fill in the form again to make a new one.')}${home}`,
});
