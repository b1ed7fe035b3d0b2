import type { Config } from '@netlify/functions';
import { WORDS_CONSENT_FIELD } from '../../src/lib/shared/email/note';
import { formWordsConsentSchema } from '../../src/lib/shared/schemas';
import { readDraft } from '../../src/server/letter/drafts';
import { responsePage } from '../../src/server/pages/frame';
import { clientIp, HttpError, readLimited, StoreUnavailableError } from '../../src/server/http';
import { networkKey } from '../../src/server/identity';
import { recordSelfSent, requestPlatformSend, timeZoneOf } from '../../src/server/letter/request';
import { sameSecret } from '../../src/server/tokens';
import { hintedLocale } from '../../src/server/words';

import type { Locale } from '../../src/config/locales';
import { personalWords } from '../../src/lib/shared/email/personal-fields';
import { fillWords } from '../../src/lib/shared/i18n/translator';
import { editPage, emailPage, notFound, pageWordsOf, problemView } from '../../src/server/pages/your-email';

/**
 * /your-email?id=…&t=…: "Your Email is Ready" for a visitor without JavaScript, where the email
 * form's post leads (303). The email as a copy-ready text area, the mail-app, Gmail and Outlook
 * links, the personal note, and "Send via our platform" and "I've sent it myself" as plain forms
 * (POST here). The address carries the one-time token only the submitting browser got. The page is
 * in the language of the parent's draft (its record), whatever the address says; a page that finds
 * no draft answers in the language the address's `lang` hints (the Spanish flow's links carry it).
 */
async function page(req: Request, context: unknown, hint: Locale): Promise<{ status: number; title: string; content: string; locale?: Locale }> {
  let id = '';
  let token = '';
  let form: URLSearchParams | undefined;
  if (req.method === 'GET' || req.method === 'HEAD') {
    const params = new URL(req.url).searchParams;
    id = params.get('id') ?? '';
    token = params.get('t') ?? '';
  } else if (req.method === 'POST' && /^application\/x-www-form-urlencoded\b/i.test(req.headers.get('content-type') ?? '')) {
    form = new URLSearchParams(await readLimited(req, 16 * 1024));
    id = form.get('id') ?? '';
    token = form.get('t') ?? '';
  } else {
    return notFound(hint);
  }
  if (!/^[\w-]{8,120}$/.test(id) || !/^[A-Za-z0-9_-]{43}$/.test(token)) return notFound(hint);
  const found = await readDraft(id);
  if (!found || !sameSecret(token, found.draft.tokenHash)) return notFound(hint);
  let draft = found.draft;
  const words = await pageWordsOf(draft);
  const { t, locale } = words;
  const answer = (view: { status: number; title: string; content: string }) => ({ ...view, locale });
  if (!form && new URL(req.url).searchParams.has('edit') && !draft.selfSentMessageId) return answer(await editPage(draft, token, words));
  if (!form) return answer({ status: 200, title: t('yourEmail.title'), content: emailPage(draft, token, words) });

  const note = form.get('note') ?? draft.note;
  // The box under the note: ticked, or not sent (the self-report's form carries the choice the form made).
  const consent = formWordsConsentSchema.safeParse(form.get(WORDS_CONSENT_FIELD) ?? undefined);
  if (!consent.success)
    return answer({
      status: 400,
      title: t('yourEmail.title'),
      content: emailPage(draft, token, words, {
        note,
        notice: { tone: 'alert', text: locale === 'en' ? (consent.error.issues[0]?.message ?? '') : personalWords[locale].wordsConsentMessage },
      }),
    });
  const wordsConsent = consent.data;
  try {
    if (form.get('action') === 'self') {
      const reported = await recordSelfSent(
        { submissionId: id, token, note, wordsConsent },
        { network: networkKey(clientIp(req, context)), ip: clientIp(req, context) },
      );
      draft = (await readDraft(id))?.draft ?? draft;
      const text =
        reported.body.status === 'sent'
          ? t('yourEmail.notice.selfConfirmed')
          : fillWords(t('yourEmail.notice.selfCheck'), { email: reported.body.confirmation?.email ?? t('yourEmail.notice.yourAddress') });
      return answer({ status: 200, title: t('yourEmail.notice.title'), content: emailPage(draft, token, words, { note, notice: { tone: 'status', text } }) });
    }
    const requested = await requestPlatformSend(
      { submissionId: id, token, note, wordsConsent },
      { network: networkKey(clientIp(req, context)), ip: clientIp(req, context), timeZone: timeZoneOf(form.get('tz')) },
    );
    draft = (await readDraft(id))?.draft ?? draft;
    const text = requested.body.confirmation
      ? fillWords(t('yourEmail.notice.platformCheck'), { email: requested.body.confirmation.email })
      : t('yourEmail.notice.platformSent');
    return answer({ status: 200, title: t('yourEmail.notice.title'), content: emailPage(draft, token, words, { note, notice: { tone: 'status', text } }) });
  } catch (error) {
    if (!(error instanceof HttpError) || error.status >= 500) throw error;
    if (error.code === 'invalid_note')
      return answer({
        status: 400,
        title: t('yourEmail.notice.noteTitle'),
        content: emailPage(draft, token, words, { note, noteError: error.message, wordsConsent }),
      });
    return answer({
      status: error.status,
      title: t('yourEmail.title'),
      content: emailPage(draft, token, words, { note, wordsConsent, notice: { tone: 'alert', text: error.message } }),
    });
  }
}

export default async (req: Request, context?: unknown): Promise<Response> => {
  // Only a hint, for what names no draft: a draft's own language always wins.
  const hint = hintedLocale(new URL(req.url).searchParams.get('lang'));
  try {
    const view = await page(req, context, hint);
    return responsePage(view.content, { status: view.status, title: view.title, locale: view.locale });
  } catch (error) {
    if (error instanceof HttpError && error.status < 500) {
      const view = await problemView(hint, 'unreadable', error.message);
      return responsePage(view.content, { status: error.status, title: view.title, locale: hint });
    }
    if (!(error instanceof StoreUnavailableError)) console.error('[your-email]', error instanceof Error ? error.message : 'unknown error');
    const view = await problemView(hint, 'unavailable');
    return responsePage(view.content, { status: 503, title: view.title, locale: hint });
  }
};

export const config: Config = {
  path: '/your-email',
};
