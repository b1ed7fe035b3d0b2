import type { Config } from '@netlify/functions';
import { z } from 'zod';
import { normaliseNote } from '../../src/lib/shared/email/note';
import { answerKinds, COMMENT_MAX, DAYS_TAKEN_MAX } from '../../src/lib/shared/answer-kinds';
import { heading, lead, responsePage } from '../../src/server/pages/frame';
import { HttpError, readLimited, StoreUnavailableError } from '../../src/server/http';
import { optionalHubSpot } from '../../src/server/letter/request';
import { openAnswerLink, saveAnswer } from '../../src/server/schools/answers';
import { hasWordsConsent, setWordsConsent } from '../../src/server/schools/starred-words';
import { personalWords, WORDS_CONSENT_FIELD } from '../../src/lib/shared/email/personal-fields';
import { formWordsConsentSchema } from '../../src/lib/shared/schemas';
import { recordAnswerStep } from '../../src/server/analytics/record';
import {
  answerWords,
  askPage,
  expiredPage,
  invalidPage,
  notePage,
  pageLocaleOf,
  questionForm,
  thanksPage,
  yourData,
  type AnswerWords,
} from '../../src/server/pages/school-answer';
import { defaultLocale, type Locale } from '../../src/config/locales';
import { hintedLocale } from '../../src/server/words';

/**
 * /school-answer?token=…: "Did your school answer?" The link the site emails a parent some days
 * after their school letter. GET shows the four answers (the current one chosen) and a
 * comment box; POST stores the answer (changeable while the link works) and thanks the parent with
 * the next step that fits. Plain HTML forms: works without JavaScript.
 *
 * The pages are in the language the parent wrote in, kept with their letter: the link's `lang`
 * (and the Spanish form's) is a hint, used only where the token proves no letter (an invalid link,
 * a request that could not be read, the store down), so no one can turn another parent's page.
 */
type Page = { status: number; title: string; content: string; locale: Locale };

/** The answer as the form sends it, with each problem in the page's words. */
const answerSchema = (w: AnswerWords) =>
  z.object({
    token: z.string().max(600),
    answer: z.enum(answerKinds, { error: w.say('errors.choose') }),
    days: z
      .string()
      .trim()
      .max(6)
      .refine((text) => text === '' || (/^\d{1,3}$/.test(text) && Number(text) <= DAYS_TAKEN_MAX), w.say('errors.days', { max: DAYS_TAKEN_MAX }))
      .transform((text) => (text === '' ? undefined : Number(text))),
    comment: z
      .string()
      .max(COMMENT_MAX * 2, w.say('errors.comment', { max: COMMENT_MAX }))
      .transform((text) => normaliseNote(text))
      .refine((text) => text.length <= COMMENT_MAX, w.say('errors.comment', { max: COMMENT_MAX })),
    /** "You may quote my words on our school's page": the comment may be quoted only if ticked. */
    wordsConsent: formWordsConsentSchema,
  });

/** The language a request hints at (`lang`): only for pages no letter is shown on. */

async function answer(req: Request, hint: Locale): Promise<Page> {
  const page = (w: AnswerWords, view: { status: number; title: string; content: string }): Page => ({ ...view, locale: w.locale });
  /** No letter behind the token: the hinted language's page. */
  const invalid = async () => {
    const w = await answerWords(hint);
    return page(w, invalidPage(w));
  };
  if (req.method === 'GET' || req.method === 'HEAD') {
    const token = new URL(req.url).searchParams.get('token') ?? '';
    const state = await openAnswerLink(token);
    if (state.kind === 'invalid') return invalid();
    const w = await answerWords(state.message ? pageLocaleOf(state.message) : hint);
    if (state.kind === 'expired') return page(w, expiredPage(w, state));
    return page(w, {
      status: 200,
      title: w.say('title'),
      content: askPage(w, state, token, await hasWordsConsent(state.message.id, 'answer')) + yourData(w, state.message),
    });
  }
  if (req.method !== 'POST') {
    const w = await answerWords(hint);
    return page(w, { status: 405, title: w.say('notAvailable.title'), content: notePage(w, 'notAvailable') });
  }
  if (!/^application\/x-www-form-urlencoded\b/i.test(req.headers.get('content-type') ?? '')) return invalid();
  const form = new URLSearchParams(await readLimited(req, 16 * 1024));
  const token = form.get('token') ?? '';
  const state = await openAnswerLink(token);
  if (state.kind === 'invalid') return invalid();
  const w = await answerWords(state.message ? pageLocaleOf(state.message) : hint);
  if (state.kind === 'expired') return page(w, expiredPage(w, state));
  const parsed = answerSchema(w).safeParse({
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
        errors[field] ??= field === 'answer' ? w.say('errors.choose') : field === 'wordsConsent' ? personalWords[w.locale].wordsConsentMessage : issue.message;
    }
    const kind = answerKinds.find((item) => item === form.get('answer'));
    return page(w, {
      status: 400,
      title: w.say('check.title'),
      content: `${heading(w.say('check.title'))}${questionForm(w, state.message, token, { kind, comment: form.get('comment') ?? '', days: (form.get('days') ?? '').slice(0, 6), seen: form.get('seen') ?? state.etag, wordsConsent: form.get(WORDS_CONSENT_FIELD) !== null }, errors)}`,
    });
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
    return page(w, {
      status: 409,
      title: w.say('changed.title'),
      content: `${heading(w.say('changed.title'))}${lead(w.say('changed.lead', { answer: w.kind(saved.answer.kind) }))}${questionForm(w, state.message, token, { kind: saved.answer.kind, comment: saved.answer.comment, days: saved.answer.daysTaken?.toString(), seen: saved.version, wordsConsent: await hasWordsConsent(state.message.id, 'answer') })}`,
    });
  }
  // The parent's choice about quoting their comment stands with the answer they saw it beside.
  await setWordsConsent(saved.message, 'answer', parsed.data.wordsConsent);
  await recordAnswerStep(saved.message, saved.answer.kind);
  return page(w, { status: 200, title: w.say('thanks.title'), content: thanksPage(w, saved.message, saved.answer, token) + yourData(w, saved.message) });
}

export default async (req: Request): Promise<Response> => {
  const hint = hintedLocale(new URL(req.url).searchParams.get('lang'));
  try {
    const page = await answer(req, hint);
    return responsePage(page.content, { status: page.status, title: page.title, locale: page.locale });
  } catch (error) {
    const w = await answerWords(hint);
    if (error instanceof HttpError && error.status < 500) {
      // English names what could not be read; another language says it in its own words.
      return responsePage(notePage(w, 'unreadable', hint === defaultLocale ? error.message : undefined), {
        status: error.status,
        title: w.say('unreadable.title'),
        locale: hint,
      });
    }
    if (!(error instanceof StoreUnavailableError)) console.error('[school-answer]', error instanceof Error ? error.message : 'unknown error');
    return responsePage(notePage(w, 'unavailable'), { status: 503, title: w.say('unavailable.title'), locale: hint });
  }
};

export const config: Config = {
  path: '/school-answer',
};
