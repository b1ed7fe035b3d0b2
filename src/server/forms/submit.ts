/**
 * A submission to one of the site's own forms, from the body to the answer (the function
 * `netlify/functions/forms.mts` only maps failures to pages or JSON): read and checked against the
 * form's definition, refused while a block stands, stored in the database, then forwarded to
 * HubSpot (here if HubSpot answers in time, else by the scheduled `forms-deliver`). The email forms
 * also get their school email composed on the server and a one-time token to send it.
 */
import type { Context } from '@netlify/functions';
import { emailFormFields, emailFormPurposes, type FormPurpose } from '../../config/forms';
import { emailFormProblems, normaliseEmailFields, textOf } from '../../lib/shared/email/fields';
import { NOTE_FIELD, normaliseNote, OWN_WORDS_FIELD, personalFieldNames, WORDS_CONSENT_FIELD } from '../../lib/shared/email/note';
import { formLocaleSchema, formWordsConsentSchema, letterLocaleSchema } from '../../lib/shared/schemas';
import { personalFieldLabelsIn, personalWords } from '../../lib/shared/email/personal-fields';
import { defaultLocale, type Locale } from '../../config/locales';
import { isTranslated, localePath, splitLocale } from '../../lib/shared/i18n/paths';
import { definitionIn } from './in-locale';
import type { FormDefinition } from '../../lib/shared/forms/definition';
import { fieldErrors, submissionSchema } from './submission-schema';
import { metaFields, summaryOf, type RawValues } from '../../lib/shared/forms/values';
import { routeMetadata, defaultMetadata } from '../../lib/shared/seo';
import { createDraft, draftAnswer } from '../letter/drafts';
import { serverEnv } from '../env';
import { formDefinition, type StoredDefinition } from './definitions';
import { invalidPage, problemPage, safePagePath } from '../pages/frame';
import { deliverSubmission, formsHubSpot, heldSubmission, newSubmission, storeSubmission, type StoredSubmission } from './submissions';
import { judgeSubmission } from './bot-check';
import { clientAddressKey, schoolOf } from '../identity';
import { refuseBlocked } from '../abuse/blocks';
import { recordRequest } from '../abuse/watch';
import { clientIp, HttpError, readLimited } from '../http';
import { takeFormSubmission } from '../rate-limit';
import { recordFormSent } from '../analytics/record';
import { withoutContactAddress } from '../pages/school';
import { attributionFor } from '../schools/pages';
import { fillFromSchool } from '../schools/letters';

/** The largest body a form may post. */
export const MAX_FORM_BODY_BYTES = 64 * 1024;
/** More names than any form has: a body with more is not a form's. */
const MAX_NAMES = 200;

export type Answer =
  | { kind: 'json'; status: number; body: unknown; headers?: HeadersInit }
  | { kind: 'redirect'; location: string }
  | { kind: 'page'; response: Response };

/** A form posted by the browser itself (no script): it is answered with pages, not JSON. */
export function postedByBrowser(req: Request): boolean {
  const type = req.headers.get('content-type') ?? '';
  const accept = req.headers.get('accept') ?? '';
  return /^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(type) && /\btext\/html\b/i.test(accept) && !/\bapplication\/json\b/i.test(accept);
}

export async function handleSubmission(req: Request, context: Context | undefined, browser: boolean, page: { current?: string }): Promise<Answer> {
  if (req.method !== 'POST') throw new HttpError(405, 'method_not_allowed', 'Send a form with POST.');
  const formId = formIdOf(req.url);
  const definition = /^[\w-]{1,100}$/.test(formId) ? await formDefinition(formId) : undefined;
  if (!definition) throw new HttpError(404, 'unknown_form', 'This site has no form with this id.');
  if (definition.render !== 'native') throw new HttpError(409, 'form_embedded', 'This form is shown with HubSpot’s embed and is sent to HubSpot directly.');

  const raw = await readValues(req);
  page.current = safePagePath(first(raw[metaFields.page]));
  // The page's language: the answer's, and (stored with the request) its emails' and pages'.
  const language = formLocaleSchema.safeParse(raw[metaFields.locale]);
  if (!language.success) throw new HttpError(400, 'invalid_locale', language.error.issues[0]?.message ?? 'The form’s language is not one of the site’s.');
  const locale = language.data;
  // The letter's language (the email forms on a page in another language ask): English by default.
  const letterLanguage = letterLocaleSchema.safeParse(raw[metaFields.letterLocale]);
  if (!letterLanguage.success)
    throw new HttpError(400, 'invalid_letter_locale', letterLanguage.error.issues[0]?.message ?? 'The letter’s language is not one of the site’s.');
  const email = (emailFormPurposes as readonly string[]).includes(definition.purpose);

  // Bots: the field people never see was filled, or the form came back faster than a person fills
  // it, on the page's own clock (never the device's date, which may be wrong by minutes).
  const judgement = judgeSubmission({
    honeypot: raw[metaFields.honeypot],
    elapsed: raw[metaFields.elapsed],
    postedWithoutScript: browser,
    minFillMs: serverEnv.formsMinFillMs,
  });
  const limit = await takeFormSubmission(clientAddressKey(clientIp(req, context)), serverEnv.formsRateLimit);
  if (!limit.allowed) {
    if (browser) return { kind: 'page', response: await problemPage(429, 'Please wait a moment', tooManyMessage(limit.retryAfterSeconds), page.current) };
    return {
      kind: 'json',
      status: 429,
      body: { error: { code: 'rate_limited', message: tooManyMessage(limit.retryAfterSeconds) } },
      headers: { 'Retry-After': String(limit.retryAfterSeconds) },
    };
  }

  // The email form names a known school by its page key (a suggestion the parent picked, or the
  // school page the form is on): its name and, left out, its address come from the record. A
  // school page's form never carries the address. Its share link's referral rides along.
  const shown = { ...raw };
  const known = email ? await fillFromSchool(raw, emailFormFields, metaFields.school) : undefined;
  const onSchoolPage = known !== undefined && !textOf(shown[emailFormFields.schoolContactEmail]);
  const pageInputs = known ? schoolPageInputs(known.pageKey, raw) : undefined;
  const parsed = submissionSchema(definition, email ? personalFieldNames : [], locale).safeParse(raw);
  const errors = parsed.success ? {} : fieldErrors(parsed.error);
  // The email forms: every value the email interpolates is a name and the note is plain text
  // (src/lib/shared/email/fields.ts). The form's own problem with a field comes first.
  if (email) for (const [name, problem] of Object.entries(emailFormProblems(raw, locale))) errors[name] ??= problem;
  // The box that lets the parent's words be quoted: ticked ("yes") or not sent at all.
  const wordsConsent = email ? formWordsConsentSchema.safeParse(raw[WORDS_CONSENT_FIELD]) : undefined;
  if (wordsConsent && !wordsConsent.success) errors[WORDS_CONSENT_FIELD] ??= personalWords[locale].wordsConsentMessage;
  if (!parsed.success || Object.keys(errors).length) {
    // The fields named as the page labels them: in its language when the form has words in it.
    const shownDefinition = await definitionIn(definition, locale);
    const message = summaryOf(shownDefinition, errors, email ? personalFieldLabelsIn(locale) : {}, locale);
    if (browser) {
      const form = onSchoolPage
        ? { definition: withoutContactAddress(shownDefinition), values: shown, hiddenInputs: pageInputs, schoolSearch: false }
        : { definition: shownDefinition, values: raw, ...(pageInputs ? { hiddenInputs: pageInputs } : {}) };
      return {
        kind: 'page',
        response: await invalidPage({
          ...form,
          purpose: definition.purpose,
          page: page.current,
          errors,
          note: email,
          locale: shownDefinition === definition ? defaultLocale : locale,
        }),
      };
    }
    return { kind: 'json', status: 400, body: { error: { code: 'invalid_submission', message, fields: errors } } };
  }

  // A block staff set on this network, address or domain refuses the request before anything is kept.
  const ip = clientIp(req, context);
  await refuseBlocked({ ip, email: textOf(parsed.data.values[emailFormFields.parentEmail]) }, new Date(), locale);

  const note = email ? normaliseNote(textOf(raw[NOTE_FIELD]) ?? '') : '';
  const ownWords = email ? normaliseNote(textOf(raw[OWN_WORDS_FIELD]) ?? '') : '';
  const record = newSubmission({
    purpose: definition.purpose,
    definition,
    values: email ? normaliseEmailFields(parsed.data.values) : parsed.data.values,
    consent: parsed.data.consent,
    context: contextOf(page.current),
  });
  // The email first: a draft without its submission is harmless (it is purged), a submission whose
  // email could not be made would leave the parent without it.
  const attribution = email
    ? await attributionFor({
        referral: textOf(raw[metaFields.referral]),
        ambassadorId: textOf(raw[metaFields.ambassador]),
        parentEmail: record.values[emailFormFields.parentEmail] ?? '',
      })
    : undefined;
  // A submission that looks automated gets its email too (a misjudged parent still copies it), but
  // its draft asks for nothing until a person releases the submission.
  const held = judgement.verdict === 'suspect';
  const draft = email
    ? await createDraft({
        id: record.id,
        purpose: definition.purpose,
        values: record.values,
        note,
        ownWords,
        wordsConsent: wordsConsent?.data === true,
        letterLocale: letterLanguage.data,
        locale,
        attribution,
        held,
        ...(known ? { schoolKey: known.pageKey } : {}),
      })
    : undefined;
  const schoolAddress = textOf(record.values[emailFormFields.schoolContactEmail]);
  await recordRequest({
    kind: email ? 'draft' : 'form',
    ip,
    email: textOf(record.values[emailFormFields.parentEmail]),
    school: schoolAddress ? schoolOf(schoolAddress) : known?.pageKey,
    form: definition.purpose,
  });
  // A submission that looks automated (the honeypot, far too fast) is answered like any other and
  // kept as "held": not sent to HubSpot until a person releases it on the admin page, so nothing a
  // misjudged parent typed is lost.
  if (held) {
    await storeSubmission(heldSubmission(record, judgement.reason));
    return accepted(definition, page.current, browser, { record, draft }, locale);
  }
  const stored = await storeSubmission(record);
  await recordFormSent(req, context, { purpose: definition.purpose, page: page.current, draft: draft?.draft });
  const delivered = await deliverSubmission(await formsHubSpot(), stored).catch((error: unknown) => {
    // Stored: the scheduled run delivers it. The visitor's answer does not wait on this failure.
    console.error('[forms] delivery attempt of', record.id, 'failed:', error instanceof Error ? error.message : 'unknown error');
    return record;
  });
  return accepted(definition, page.current, browser, { record: delivered, draft }, locale);
}

/** The hidden inputs a school page's form posts again when it comes back with problems. */
function schoolPageInputs(key: string, raw: RawValues): Record<string, string> {
  const inputs: Record<string, string> = { [metaFields.school]: key };
  for (const name of [metaFields.referral, metaFields.ambassador]) {
    const value = textOf(raw[name]);
    if (value) inputs[name] = value.slice(0, 200);
  }
  return inputs;
}

const tooManyMessage = (seconds: number) =>
  `You have sent a lot of forms from this connection. Please wait about ${Math.ceil(seconds / 60)} minute${seconds > 60 ? 's' : ''} and send it again; your answers are still in the form.`;

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** The form id in the path, or '' when the path does not name one (or is not valid percent-encoding). */
function formIdOf(url: string): string {
  const encoded = new URL(url).pathname.match(/^\/api\/forms\/([^/]+)\/?$/)?.[1] ?? '';
  try {
    return decodeURIComponent(encoded);
  } catch {
    return '';
  }
}

/**
 * Where the form was sent from. Not the visitor's HubSpot cookie: the address a form names is
 * typed, not proven, and the cookie would tie this browser to that person's contact.
 */
function contextOf(page: string | undefined): StoredSubmission['context'] {
  const path = page ?? '/';
  return { pageUri: `${serverEnv.siteOrigin}${path}`, pageName: (routeMetadata[path] ?? defaultMetadata).title };
}

function accepted(
  definition: StoredDefinition,
  page: string | undefined,
  browser: boolean,
  outcome: { record: StoredSubmission; draft?: Awaited<ReturnType<typeof createDraft>> } | undefined,
  locale: Locale,
): Answer {
  const purpose = definition.purpose as FormPurpose;
  const redirect = redirectIn(redirectOf(definition), locale);
  if (browser) {
    // The page answers in the draft's language; `lang` is its hint should the draft be gone.
    if (outcome?.draft)
      return {
        kind: 'redirect',
        location: `/your-email?id=${encodeURIComponent(outcome.record.id)}&t=${outcome.draft.token}${locale === defaultLocale ? '' : `&lang=${locale}`}`,
      };
    if (redirect) return { kind: 'redirect', location: redirect };
    return { kind: 'redirect', location: `/forms/submitted?form=${encodeURIComponent(purpose)}${page ? `&page=${encodeURIComponent(page)}` : ''}` };
  }
  const state = outcome?.record.delivery;
  const delivery = !state || state.lastError === 'hubspot_not_configured' ? 'stored' : state.state === 'delivered' ? 'delivered' : 'queued';
  return {
    kind: 'json',
    status: 201,
    body: {
      // A bot's "submission" gets an id of the same shape, and nothing behind it.
      id: outcome?.record.id ?? `${Date.now()}-${crypto.randomUUID()}`,
      form: purpose,
      status: 'accepted',
      delivery,
      ...(redirect ? { redirect } : {}),
      values: outcome?.record.values ?? {},
      ...(outcome?.draft ? { draft: draftAnswer(outcome.draft.draft, outcome.draft.token, outcome.draft.email) } : {}),
    },
  };
}

/** Where HubSpot's post-submit action sends the visitor: an https address or a page of this site. */
function redirectOf(definition: FormDefinition): string | undefined {
  const action = definition.configuration.postSubmitAction;
  if (action.type !== 'redirect_url') return undefined;
  const target = action.value.trim();
  if (safePagePath(target.split(/[?#]/)[0])) return target;
  try {
    return new URL(target).protocol === 'https:' ? target : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where a form of a `locale` page leads after it is sent: the same page of this site in that
 * language when the site has it (a Spanish webinar sign-up goes to /es/webinar-thank-you), else
 * the address as the post-submit action gives it.
 */
export function redirectIn(redirect: string | undefined, locale: Locale): string | undefined {
  if (!redirect || locale === defaultLocale || !redirect.startsWith('/') || redirect.startsWith('//')) return redirect;
  const [, path = '/', rest = ''] = /^([^?#]*)(.*)$/s.exec(redirect) ?? [];
  return isTranslated(path) && splitLocale(path).locale === defaultLocale ? localePath(path, locale) + rest : redirect;
}

/** The posted names and values: JSON (an object of text or lists of text) or a form encoding. */
async function readValues(req: Request): Promise<RawValues> {
  const type = req.headers.get('content-type') ?? '';
  const declared = Number(req.headers.get('content-length') ?? 0);
  const tooLarge = () => new HttpError(413, 'payload_too_large', `A form may send at most ${MAX_FORM_BODY_BYTES / 1024} KB.`);
  if (declared > MAX_FORM_BODY_BYTES) throw tooLarge();
  const isJson = /^application\/(?:[\w.+-]+\+)?json\b/i.test(type);
  const isUrlEncoded = /^application\/x-www-form-urlencoded\b/i.test(type);
  const isMultipart = /^multipart\/form-data\b/i.test(type);
  if (!isJson && !isUrlEncoded && !isMultipart) {
    throw new HttpError(415, 'unsupported_media_type', 'Send the form as JSON or form-encoded (application/x-www-form-urlencoded).');
  }
  let text: string;
  try {
    text = await readLimited(req, MAX_FORM_BODY_BYTES);
  } catch (error) {
    if (error instanceof HttpError && error.status === 413) throw tooLarge();
    throw new HttpError(400, 'unreadable_body', 'The form could not be read.');
  }
  const values: RawValues = Object.create(null);
  const add = (name: string, value: string) => {
    const existing = values[name];
    values[name] = existing === undefined ? value : [...(Array.isArray(existing) ? existing : [existing]), value];
  };
  if (isJson) {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      throw new HttpError(400, 'invalid_json', 'The body is not valid JSON.');
    }
    if (!data || typeof data !== 'object' || Array.isArray(data))
      throw new HttpError(400, 'invalid_body', 'Send the form’s fields as one JSON object of names and values.');
    if (Object.keys(data).length > MAX_NAMES) throw new HttpError(400, 'invalid_body', 'This is not one of the site’s forms: it has too many fields.');
    // Wrong value types are reported per field by the schema.
    return Object.assign(Object.create(null), data) as RawValues;
  }
  if (isUrlEncoded) {
    for (const [name, value] of new URLSearchParams(text)) add(name, value);
  } else {
    let data: FormData;
    try {
      data = await new Response(text, { headers: { 'content-type': type } }).formData();
    } catch {
      throw new HttpError(400, 'unreadable_body', 'The form could not be read.');
    }
    for (const [name, value] of data) {
      if (typeof value !== 'string') throw new HttpError(400, 'files_not_accepted', `This form takes no files ("${name.slice(0, 60)}").`);
      add(name, value);
    }
  }
  if (Object.keys(values).length > MAX_NAMES) throw new HttpError(400, 'invalid_body', 'This is not one of the site’s forms: it has too many fields.');
  return values;
}
