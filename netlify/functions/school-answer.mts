import type { Config } from '@netlify/functions';
import { z } from 'zod';
import { normaliseNote } from '../../src/lib/email/note';
import { answerKinds, answerLabels, COMMENT_MAX, DAYS_TAKEN_MAX } from '../../src/lib/answer-kinds';
import { actions, heading, lead, responsePage } from '../../src/server/pages/frame';
import { HttpError, readLimited, StoreUnavailableError } from '../../src/server/http';
import { optionalHubSpot } from '../../src/server/letter/request';
import { openAnswerLink, saveAnswer } from '../../src/server/schools/answers';
import { hasWordsConsent, setWordsConsent } from '../../src/server/schools/starred-words';
import { WORDS_CONSENT_FIELD } from '../../src/lib/email/personal-fields';
import { formWordsConsentSchema } from '../../src/lib/schemas';
import { recordAnswerStep } from '../../src/server/analytics/record';
import { askPage, expiredPage, home, invalidPage, questionForm, thanksPage, yourData } from '../../src/server/pages/school-answer';

/**
 * /school-answer?token=…: "Did your school answer?" The link the site emails a parent some days
 * after their school letter. GET shows the four answers (the current one chosen) and a
 * comment box; POST stores the answer (changeable while the link works) and thanks the parent with
 * the next step that fits. Plain HTML forms: works without JavaScript.
 */
const CHOOSE = 'Please choose the answer that fits best.';
const DAYS = `If you know it, give the number of days from 0 to ${DAYS_TAKEN_MAX}; or leave it empty.`;

const answerSchema = z.object({
  token: z.string().max(600),
  answer: z.enum(answerKinds, { error: CHOOSE }),
  days: z
    .string()
    .trim()
    .max(6)
    .refine((text) => text === '' || (/^\d{1,3}$/.test(text) && Number(text) <= DAYS_TAKEN_MAX), DAYS)
    .transform((text) => (text === '' ? undefined : Number(text))),
  comment: z
    .string()
    .max(COMMENT_MAX * 2)
    .transform((text) => normaliseNote(text))
    .refine((text) => text.length <= COMMENT_MAX, `Please keep your comment to ${COMMENT_MAX} characters.`),
  /** "You may quote my words on our school's page": the comment may be quoted only if ticked. */
  wordsConsent: formWordsConsentSchema,
});

async function answer(req: Request): Promise<{ status: number; title: string; content: string }> {
  if (req.method === 'GET' || req.method === 'HEAD') {
    const token = new URL(req.url).searchParams.get('token') ?? '';
    const state = await openAnswerLink(token);
    if (state.kind === 'invalid') return invalidPage();
    if (state.kind === 'expired') return expiredPage(state);
    return {
      status: 200,
      title: 'Did your school answer?',
      content: askPage(state, token, await hasWordsConsent(state.message.id, 'answer')) + yourData(state.message),
    };
  }
  if (req.method !== 'POST')
    return { status: 405, title: 'Not available', content: `${heading('Not available')}${lead('Open the link from your email to answer.')}${actions(home)}` };
  if (!/^application\/x-www-form-urlencoded\b/i.test(req.headers.get('content-type') ?? '')) return invalidPage();
  const form = new URLSearchParams(await readLimited(req, 16 * 1024));
  const token = form.get('token') ?? '';
  const state = await openAnswerLink(token);
  if (state.kind === 'invalid') return invalidPage();
  if (state.kind === 'expired') return expiredPage(state);
  const parsed = answerSchema.safeParse({
    token,
    answer: form.get('answer') ?? undefined,
    comment: form.get('comment') ?? '',
    days: form.get('days') ?? '',
    wordsConsent: form.get(WORDS_CONSENT_FIELD) ?? undefined,
  });
  if (!parsed.success) {
    const errors: { answer?: string; comment?: string; days?: string; wordsConsent?: string } = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if (field === 'answer' || field === 'comment' || field === 'days' || field === 'wordsConsent')
        errors[field] ??= field === 'answer' ? CHOOSE : issue.message;
    }
    const kind = answerKinds.find((item) => item === form.get('answer'));
    return {
      status: 400,
      title: 'Please check your answer',
      content: `${heading('Please check your answer')}${questionForm(state.message, token, { kind, comment: form.get('comment') ?? '', days: (form.get('days') ?? '').slice(0, 6), seen: form.get('seen') ?? state.etag, wordsConsent: form.get(WORDS_CONSENT_FIELD) !== null }, errors)}`,
    };
  }
  // The answer the page showed (its version, or none): a change made meanwhile elsewhere wins and is shown.
  const seen = form.get('seen');
  const saved = await saveAnswer(
    state,
    parsed.data.answer,
    parsed.data.comment,
    optionalHubSpot(),
    new Date(),
    seen === null ? undefined : seen.slice(0, 12),
    parsed.data.days,
  );
  if (saved.kind === 'changed_meanwhile') {
    return {
      status: 409,
      title: 'Your answer changed meanwhile',
      content: `${heading('Your answer changed meanwhile')}${lead(
        `Another answer was saved a moment ago (in another window, perhaps): "${answerLabels[saved.answer.kind]}". It stands; to change it, choose again below.`,
      )}${questionForm(state.message, token, { kind: saved.answer.kind, comment: saved.answer.comment, days: saved.answer.daysTaken?.toString(), seen: saved.version, wordsConsent: await hasWordsConsent(state.message.id, 'answer') })}`,
    };
  }
  // The parent's choice about quoting their comment stands with the answer they saw it beside.
  await setWordsConsent(saved.message, 'answer', parsed.data.wordsConsent);
  await recordAnswerStep(saved.message, saved.answer.kind);
  return { status: 200, title: 'Thank you', content: thanksPage(saved.message, saved.answer, token) + yourData(saved.message) };
}

export default async (req: Request): Promise<Response> => {
  try {
    const page = await answer(req);
    return responsePage(page.content, { status: page.status, title: page.title });
  } catch (error) {
    if (error instanceof HttpError && error.status < 500) {
      return responsePage(`${heading('This request could not be read')}${lead(error.message)}${actions(home)}`, {
        status: error.status,
        title: 'This request could not be read',
      });
    }
    if (!(error instanceof StoreUnavailableError)) console.error('[school-answer]', error instanceof Error ? error.message : 'unknown error');
    return responsePage(
      `${heading('Please try again in a moment')}${lead('We could not save your answer just now. Please open the link again in a few minutes.')}${actions(home)}`,
      {
        status: 503,
        title: 'Please try again in a moment',
      },
    );
  }
};

export const config: Config = {
  path: '/school-answer',
};
