import { publicEnv } from '../../config/env';
import { site } from '../../config/site';
import { composeLinks, emailAsText, followUpEmail } from '../../lib/email/template';
import { boxClass, choiceClass, errorClass, escapeHtml, helpClass, inputClass, labelClass, wordsConsentHtml } from '../../lib/forms/render';
import { WORDS_CONSENT_FIELD, WORDS_CONSENT_VALUE } from '../../lib/email/personal-fields';
import { answerKinds, answerLabels, COMMENT_MAX, type AnswerKind } from '../../lib/answer-kinds';
import { buttonClass } from '../../lib/ui';
import { actions, heading, homeLink as home, lead } from './frame';
import { dataPath } from '../links';
import type { OutboxMessage } from '../letter/outbox';
import type { AnswerLinkState, SchoolAnswer } from '../schools/answers';

export const link = (href: string, text: string, variant: 'primary' | 'secondary' | 'accent' = 'primary', external = false) =>
  `<a class="${buttonClass(variant, 'md')}" href="${escapeHtml(href)}"${external ? ' target="_blank" rel="noopener noreferrer"' : ''}>${escapeHtml(text)}${external ? '<span class="sr-only"> (opens in a new tab)</span>' : ''}</a>`;
export { homeLink as home } from './frame';

export function questionForm(
  message: OutboxMessage,
  token: string,
  chosen: { kind?: AnswerKind; comment?: string; days?: string; seen?: string; wordsConsent?: boolean },
  errors: { answer?: string; comment?: string; days?: string; wordsConsent?: string } = {},
): string {
  const school = message.schoolName || 'your school';
  const options = answerKinds
    .map(
      (kind, index) =>
        `<label class="${choiceClass}" for="answer-${index}"><input type="radio" id="answer-${index}" name="answer" value="${kind}" class="${boxClass}" required${chosen.kind === kind ? ' checked' : ''}${
          errors.answer ? ' aria-describedby="answer-error"' : ''
        }><span class="font-medium">${escapeHtml(answerLabels[kind])}</span></label>`,
    )
    .join('');
  const answerError = `<p id="answer-error" class="${errorClass}"${errors.answer ? '' : ' hidden'}>${escapeHtml(errors.answer ?? '')}</p>`;
  const commentError = `<p id="comment-error" class="${errorClass}"${errors.comment ? '' : ' hidden'}>${escapeHtml(errors.comment ?? '')}</p>`;
  const daysError = `<p id="days-error" class="${errorClass}"${errors.days ? '' : ' hidden'}>${escapeHtml(errors.days ?? '')}</p>`;
  const daysField = `<div><label for="days" class="${labelClass}">If they replied: how many days did their reply take? <span class="font-normal text-muted">(optional)</span></label><p id="days-help" class="${helpClass}">Counted from the day you wrote. Leave it empty if they have not replied or you are not sure.</p><input id="days" name="days" type="text" inputmode="numeric" pattern="[0-9]*" maxlength="3" autocomplete="off" class="${inputClass} max-w-32" value="${escapeHtml(chosen.days ?? '')}" aria-describedby="days-help${errors.days ? ' days-error' : ''}"${errors.days ? ' aria-invalid="true"' : ''}>${daysError}</div>`;
  // The comment may be quoted on the school's page only if the parent ticks this, apart from the answer.
  const consent = wordsConsentHtml({
    instance: 'answer',
    values: { [WORDS_CONSENT_FIELD]: chosen.wordsConsent ? WORDS_CONSENT_VALUE : '' },
    errors: errors.wordsConsent ? { [WORDS_CONSENT_FIELD]: errors.wordsConsent } : {},
  });
  const anyError = errors.answer || errors.comment || errors.days || errors.wordsConsent;
  return `<form method="post" action="/school-answer" class="mt-8 space-y-6 rounded-card border border-line bg-white p-6 shadow-card"${anyError ? ' aria-describedby="answer-summary"' : ''}>${
    anyError
      ? `<div id="answer-summary" class="rounded-xl border border-danger-600 bg-danger-50 p-3 text-sm font-medium text-danger-600" role="alert">Please check your answer below.</div>`
      : ''
  }<input type="hidden" name="token" value="${escapeHtml(token)}"><input type="hidden" name="seen" value="${escapeHtml(chosen.seen ?? '')}"><fieldset${errors.answer ? ' aria-invalid="true"' : ''}><legend class="${labelClass}">Did ${escapeHtml(school)} answer your email?</legend><div class="mt-2 grid gap-2 sm:grid-cols-2">${options}</div></fieldset>${answerError}${daysField}<div><label for="comment" class="${labelClass}">Anything to add? <span class="font-normal text-muted">(optional)</span></label><p id="comment-help" class="${helpClass}">What they said, or what happens next. At most ${COMMENT_MAX} characters; only our team reads it, unless you tick the box below.</p><textarea id="comment" name="comment" rows="4" maxlength="${COMMENT_MAX}" class="${inputClass}" aria-describedby="comment-help${errors.comment ? ' comment-error' : ''}"${errors.comment ? ' aria-invalid="true"' : ''}>${escapeHtml(chosen.comment ?? '')}</textarea>${commentError}</div>${consent}<button type="submit" class="${buttonClass('primary', 'md')}">Save my answer</button></form>`;
}

export function askPage(state: Extract<AnswerLinkState, { kind: 'open' }>, token: string, wordsConsent = false): string {
  const { message, answer } = state;
  const sent = new Date(message.sentAt ?? message.createdAt).toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric' });
  return `${heading(`Did ${message.schoolName || 'your school'} answer?`)}${lead(
    `You wrote to ${message.toName || message.to} on ${sent}. Tell us how it went with one tap: it helps us support you, and shows other parents what their emails achieve.`,
  )}${answer ? `<p class="mt-4 text-sm text-muted" role="status">Your answer so far: <strong>${escapeHtml(answerLabels[answer.kind])}</strong>. You can change it here.</p>` : ''}${questionForm(message, token, { kind: answer?.kind, comment: answer?.comment, days: answer?.daysTaken?.toString(), seen: state.etag, wordsConsent })}`;
}

export function thanksPage(message: OutboxMessage, answer: SchoolAnswer, token: string): string {
  const kind = answer.kind;
  const change = `<p class="mt-6 text-sm text-muted">Not right? <a class="font-medium text-brand-700 underline" href="/school-answer?token=${encodeURIComponent(token)}">Change your answer</a>.</p>`;
  if (kind === 'replied' || kind === 'meeting') {
    return `${heading(kind === 'meeting' ? 'Wonderful: you have a meeting!' : 'Great news: they replied!')}${lead(
      kind === 'meeting'
        ? 'A short call with our team before the meeting helps: we will share what other schools asked and what worked. It takes 20 minutes.'
        : 'This is the moment to keep the conversation going. Book a short call with our team and we will help you plan your next step with the school.',
    )}${actions(link(publicEnv.bookingUrl, 'Book a call with our team', 'accent', true), link('/faqs', 'Read the questions schools ask', 'secondary'))}${change}`;
  }
  if (kind === 'no_answer' || kind === 'replied_not_answered' || kind === 'acknowledged') {
    const followUp = followUpEmail({
      subject: message.subject,
      toName: message.toName,
      to: message.to,
      schoolName: message.schoolName,
      parentName: message.parentName,
      sentAt: message.sentAt ?? message.createdAt,
      videoUrl: publicEnv.emailVideoUrl,
    });
    const links = composeLinks(followUp);
    return `${heading('Thank you: a gentle nudge often helps')}${lead(
      kind === 'no_answer'
        ? 'School leaders get many emails. Here is a short, friendly follow-up, ready to send from your own email. Copy it, or open it in your email app.'
        : 'A reply that does not answer yet is a start. Here is a short, friendly follow-up that asks again, ready to send from your own email.',
    )}<div class="mt-6"><label for="follow-up-text" class="${labelClass}">Your follow-up email</label><textarea id="follow-up-text" readonly rows="14" class="${inputClass} font-mono text-sm">${escapeHtml(
      emailAsText(followUp),
    )}</textarea></div>${actions(
      `<a class="${buttonClass('primary', 'md')}" href="${escapeHtml(links.mailto)}">Open in my email app</a>`,
      link(links.gmail, 'Gmail', 'secondary', true),
      link(links.outlook, 'Outlook', 'secondary', true),
    )}${change}`;
  }
  return `${heading('Thank you for telling us')}${lead(
    'Other parents at your school can add their voice, and our team can approach the school with you.',
  )}${actions(link('/nominate-school', 'Nominate your school', 'primary'), link(site.ambassador.registerUrl, 'Join the Parent Ambassador Program', 'secondary', true))}${change}`;
}

export const invalidPage = () => ({
  status: 404,
  title: 'This link is not valid',
  content: `${heading('This link is not valid')}${lead('It may have been cut short when it was copied. Open the link from your email again.')}${actions(home)}`,
});

export function expiredPage(state: Extract<AnswerLinkState, { kind: 'expired' }>) {
  return {
    status: 410,
    title: 'This link has expired',
    content: `${heading('This link has expired')}${lead(
      state.answer
        ? `Thank you: we have your answer, "${answerLabels[state.answer.kind]}". Answers can be changed for ${30} days after we ask.`
        : 'Answers can be given for 30 days after we ask. If you would still like to tell us how it went, reply to our email or book a call.',
    )}${actions(link(publicEnv.bookingUrl, 'Book a call with our team', 'primary', true), home)}`,
  };
}

/** "Your data": the parent's own signed link, under every page their link (from their inbox) opens. */
export function yourData(message: OutboxMessage): string {
  let path: string | undefined;
  try {
    path = dataPath(message.parentEmail);
  } catch {
    path = undefined;
  }
  return path
    ? `<p class="mt-6 text-sm text-muted"><a class="font-medium text-brand-700 underline" href="${escapeHtml(path)}">Your data</a>: see, download or delete what we keep about you.</p>`
    : '';
}
