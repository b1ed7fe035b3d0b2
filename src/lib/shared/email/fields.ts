/**
 * The one field model of the email forms (email generator, referral): the values the school email
 * interpolates are names, never free text. The forms function, the JavaScript-off page and the
 * enhanced form's inline checks all use `emailFieldProblems` and `normaliseLine`, so the parent
 * sees the same message wherever the check runs.
 *
 * A name is one line (no line breaks, tabs or other control or direction characters, nothing
 * invisible), trimmed, NFKC-normalised, within its limit, and carries no link, bare domain, email
 * address, markup, phone number or MIME encoded-word (`=?utf-8?b?…?=`, which a mail client would
 * decode into whatever it hides). No typed name may name the organisation: the letter goes out as
 * "{parent} via Mastery Parents", and "Mastery Parents Billing Team via Mastery Parents" would speak
 * for it; a school named "Mastery Parents Fraud Desk - call +1 202 555 0147" would put those words
 * in emails sent from the organisation's address. The grade must also be one `normaliseGrade` can
 * read or a short phrase.
 */
import { emailFormFields } from '../../../config/forms';
import type { Locale } from '../../../config/locales';
import { site } from '../../../config/site';
import { forbiddenContent, hasInvisible, type TextProblem } from './detect';
import { GRADE_MAX, gradeProblem } from './grade';
import { NOTE_FIELD, noteProblem, OWN_WORDS_FIELD, ownWordsProblem, WORDS_CONSENT_FIELD, WORDS_CONSENT_VALUE, personalWords } from './note';

/** The longest name (parent, child, school contact) the email takes. */
export const NAME_MAX = 100;
/** The longest school name. */
export const SCHOOL_MAX = 150;
/** The longest city and state (referral form; they go to the CRM, not into the email). */
export const PLACE_MAX = 100;

type EmailFieldKey = keyof typeof emailFormFields;

/** The limit of each single-line field of the email forms, by its key in the email data. */
export const emailLineLimits = {
  parentFullName: NAME_MAX,
  childFullName: NAME_MAX,
  schoolContactName: NAME_MAX,
  schoolName: SCHOOL_MAX,
  childGrade: GRADE_MAX,
  city: PLACE_MAX,
  state: PLACE_MAX,
} as const satisfies Partial<Record<EmailFieldKey, number>>;

export const fieldMessages = {
  oneLine: 'Please write this on one line, without line breaks or special characters.',
  tooLong: (max: number) => `Please keep this to ${max} characters.`,
  link: 'Please write only the name here, without a web address.',
  email: 'Please write only the name here; the email address has its own field.',
  markup: 'Please write only the name here, without < > or HTML.',
  encoded: 'Please write the name as it reads, without =? ?= codes.',
  organisation: `Please write your own name here; ${site.name} signs its own emails.`,
  organisationSchool: `Please write the school’s or person’s own name here; ${site.name} signs its own emails.`,
  phone: 'Please write only the name here, without a phone number.',
} as const satisfies Record<TextProblem | 'oneLine' | 'tooLong' | 'encoded' | 'organisation' | 'organisationSchool' | 'phone', unknown>;

type FieldMessages = { [K in keyof typeof fieldMessages]: (typeof fieldMessages)[K] extends string ? string : (typeof fieldMessages)[K] };

/** `fieldMessages` in each language of the site. */
const fieldMessagesByLocale: Record<Locale, FieldMessages> = {
  en: fieldMessages,
  es: {
    oneLine: 'Por favor, escriba esto en una sola línea, sin saltos de línea ni caracteres especiales.',
    tooLong: (max: number) => `Por favor, use como máximo ${max} caracteres.`,
    link: 'Por favor, escriba aquí solo el nombre, sin una dirección web.',
    email: 'Por favor, escriba aquí solo el nombre; el correo electrónico tiene su propio campo.',
    markup: 'Por favor, escriba aquí solo el nombre, sin < > ni HTML.',
    encoded: 'Por favor, escriba el nombre tal como se lee, sin códigos =? ?=.',
    organisation: `Por favor, escriba aquí su propio nombre; ${site.name} firma sus propios correos.`,
    organisationSchool: `Por favor, escriba aquí el nombre propio de la escuela o de la persona; ${site.name} firma sus propios correos.`,
    phone: 'Por favor, escriba aquí solo el nombre, sin un número de teléfono.',
  },
};

// C0 and C1 controls (line breaks and tabs among them), the line and paragraph separators, and the
// direction overrides and isolates that can reorder what a reader sees.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
// A MIME encoded-word, or the start of one: nothing in a real name begins with "=?".
const ENCODED_WORD = /=\?/;

/** The parent's and child's own names: the ones the letter is signed and sent with. */
const ownNameFields: ReadonlySet<EmailFieldKey> = new Set(['parentFullName', 'childFullName']);
/** Every other name the email carries: none may name the organisation either. */
const otherNameFields: ReadonlySet<EmailFieldKey> = new Set(['schoolName', 'schoolContactName', 'city', 'state']);

// A phone number: seven or more digits, with the spaces, dots, dashes and brackets people write them with.
const PHONE = /(?:\+\s*)?\d(?:[\s().\-\u2010-\u2015/]*\d){6,}/;

/** Whether a name carries a phone number ("call +1 202 555 0147"). */
export const hasPhoneNumber = (value: string) => PHONE.test(value.normalize('NFKC'));

// Latin look-alikes from Cyrillic and Greek, so that "Mastеry Parents" with a Cyrillic е is read as
// what it shows.
const LOOKALIKES: Record<string, string> = {
  а: 'a',
  е: 'e',
  о: 'o',
  р: 'p',
  с: 'c',
  у: 'y',
  х: 'x',
  і: 'i',
  ѕ: 's',
  ј: 'j',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  к: 'k',
  м: 'm',
  т: 't',
  в: 'b',
  н: 'h',
  ο: 'o',
  α: 'a',
  ρ: 'p',
  τ: 't',
  ε: 'e',
  ν: 'v',
  ι: 'i',
  κ: 'k',
  υ: 'u',
  μ: 'm',
  ɡ: 'g',
  ı: 'i',
};

/** Letters and digits only, look-alikes as the Latin letter they show, lower case. */
const folded = (text: string) =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '')
    .replace(/./gu, (letter) => LOOKALIKES[letter] ?? letter);

const organisationNames = [site.name, site.legalName].map(folded);

/** Whether a name names the organisation ("Mastery Parents Billing Team", "MASTERY-PARENTS"). */
export function namesOrganisation(value: string): boolean {
  const name = folded(value);
  return organisationNames.some((organisation) => name.includes(organisation));
}

/** A single-line value as the site keeps and sends it: NFKC, spaces collapsed, trimmed. */
export function normaliseLine(value: string): string {
  return value.normalize('NFKC').replace(/ {2,}/g, ' ').trim();
}

/** What is wrong with one single-line value (checked as `normaliseLine` makes it), or undefined. */
export function lineProblem(value: string, max: number, locale: Locale = 'en'): string | undefined {
  const fieldMessages = fieldMessagesByLocale[locale];
  const line = normaliseLine(value);
  if (CONTROL.test(line) || hasInvisible(line)) return fieldMessages.oneLine;
  // Measured before the content checks, which then only ever read a short text.
  if (line.length > max) return fieldMessages.tooLong(max);
  if (ENCODED_WORD.test(line)) return fieldMessages.encoded;
  const forbidden = forbiddenContent(line);
  if (forbidden) return fieldMessages[forbidden];
  if (hasPhoneNumber(line)) return fieldMessages.phone;
  // A "<" or ">" on its own has no place in a name either.
  return /[<>]/.test(line) ? fieldMessages.markup : undefined;
}

/** The HubSpot field names of the single-line fields, with their limits. */
const lineFields = Object.entries(emailLineLimits).map(([key, max]) => ({
  key: key as keyof typeof emailLineLimits,
  name: emailFormFields[key as EmailFieldKey],
  max,
}));

/** The limit of an email-form field by its HubSpot name, if it is one of the single-line fields. */
export function emailFieldMax(name: string): number | undefined {
  return lineFields.find((field) => field.name === name)?.max;
}

/** A posted value as text (JSON may send a number, or a list where one value belongs). */
export const textOf = (value: unknown): string | undefined =>
  typeof value === 'string' || typeof value === 'number' ? String(value) : Array.isArray(value) ? textOf(value[0]) : undefined;

/**
 * The problem of each single-line field of an email form (by HubSpot field name). Values that are
 * missing or not text are left to the form's own checks (required, type).
 */
export function emailFieldProblems(values: Record<string, unknown>, locale: Locale = 'en'): Record<string, string> {
  const fieldMessages = fieldMessagesByLocale[locale];
  const errors: Record<string, string> = {};
  for (const { key, name, max } of lineFields) {
    const value = textOf(values[name]);
    if (value === undefined || value.trim() === '') continue;
    const problem =
      lineProblem(value, max, locale) ??
      (key === 'childGrade' ? gradeProblem(normaliseLine(value), locale) : undefined) ??
      (ownNameFields.has(key) && namesOrganisation(value) ? fieldMessages.organisation : undefined) ??
      (otherNameFields.has(key) && namesOrganisation(value) ? fieldMessages.organisationSchool : undefined);
    if (problem) errors[name] = problem;
  }
  return errors;
}

/**
 * Every problem of the email forms' own rules, by field name: the names (`emailFieldProblems`), the
 * answer in the parent's words (`ownWordsProblem`), the personal note (`noteProblem`) and the box
 * that lets their words be quoted (ticked, or not sent). The forms function and the enhanced form
 * both ask this.
 */
export function emailFormProblems(values: Record<string, unknown>, locale: Locale = 'en'): Record<string, string> {
  const errors = emailFieldProblems(values, locale);
  const ownWords = ownWordsProblem(textOf(values[OWN_WORDS_FIELD]) ?? '', locale);
  if (ownWords) errors[OWN_WORDS_FIELD] = ownWords;
  const note = noteProblem(textOf(values[NOTE_FIELD]) ?? '', locale);
  if (note) errors[NOTE_FIELD] = note;
  const consent = values[WORDS_CONSENT_FIELD];
  if (consent !== undefined && consent !== WORDS_CONSENT_VALUE) errors[WORDS_CONSENT_FIELD] = personalWords[locale].wordsConsentMessage;
  return errors;
}

/** The accepted values with every single-line field as `normaliseLine` makes it. */
export function normaliseEmailFields(values: Record<string, string>): Record<string, string> {
  const out = { ...values };
  for (const { name } of lineFields) if (typeof out[name] === 'string') out[name] = normaliseLine(out[name]);
  return out;
}
