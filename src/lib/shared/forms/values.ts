/**
 * The rules a submitted form must meet, read from its definition: which fields are shown (dependent
 * fields follow their condition), what each accepts, and the message for each problem. Pure and
 * free of zod so that the browser's inline checks and the endpoint's schema (`schema.ts`) use the
 * very same rules and words.
 */
import type { Locale } from '../../../config/locales';
import type { FieldCondition, FormDefinition, FormField, LegalConsent } from './definition';
import { allFields } from './fields';

/** Values as a form posts them: one string, or several for a checkbox group. */
export type RawValues = Record<string, string | string[] | undefined>;

/** The longest value any field takes when its definition names no limit. */
export const MAX_VALUE_LENGTH = 2000;
/** Default digit limits of phone and number fields when the definition gives none. */
export const PHONE_DIGITS = { min: 7, max: 20 } as const;
export const NUMBER_DIGITS = { min: 1, max: 20 } as const;

/**
 * Names the site adds to every native form; they never go to HubSpot. HubSpot property names start
 * with a letter, so a leading underscore cannot collide with a field.
 */
export const metaFields = {
  /** Filled by nobody but bots: the input is hidden from people and assistive technology. */
  honeypot: '_website',
  /**
   * How long the visitor took (ms), measured by the enhanced form on the page's monotonic clock
   * from when it became ready to the submit, for the minimum fill time.
   */
  elapsed: '_elapsed',
  /** Posted by pages built before `_elapsed` (a device timestamp): accepted and never read. */
  started: '_started',
  /** The page the form was on, e.g. "/lead-the-change". */
  page: '_page',
  /** Which form of that page (its element id), e.g. "form-newsletter-footer". */
  instance: '_form',
  /** Explicit consent to process personal data (explicit_consent_to_process forms). */
  consentToProcess: '_consent_process',
  /** The email form on a school page: the page's key, whose school contact the server fills in. */
  school: '_school',
  /** The referral code of the parent who shared that page, and the ambassador id it carried. */
  referral: '_ref',
  ambassador: '_ambassador',
  /** The language of the page the form was on ("en" or "es"): the answer's, and the emails'. */
  locale: '_locale',
  /** The email forms on a page in another language: the language of the letter to the school ("en" unless "es" is chosen). */
  letterLocale: '_letter_locale',
} as const;

/** The checkbox of one communication subscription, e.g. `_consent_42`. */
export const consentFieldName = (subscriptionTypeId: number) => `_consent_${subscriptionTypeId}`;

/** A list of labels as the end of a sentence: a full stop, unless the last is a question ("Which resources would you like?"). */
const endSentence = (text: string) => (/[?!]$/.test(text) ? text : `${text}.`);

export const messages = {
  required: 'Please fill in this field.',
  requiredChoice: 'Please choose an option.',
  requiredCheckbox: 'Please tick this box to continue.',
  tooLong: (max: number) => `Please use at most ${max.toLocaleString('en-US')} characters.`,
  unreadable: 'Please remove the invisible control characters from this field (pasted text can carry them).',
  email: 'Please enter a valid email address, like name@example.com.',
  blockedEmail: 'Please use another email address; this domain is not accepted.',
  phone: (min: number, max: number) => `Please enter a phone number of ${min} to ${max} digits.`,
  number: 'Please enter a number.',
  numberDigits: (min: number, max: number) => `Please enter a number of ${min} to ${max} digits.`,
  date: 'Please enter a date as YYYY-MM-DD.',
  option: 'Please choose one of the options given.',
  oneValue: 'Please give one value for this field.',
  unknown: 'This form has no field with this name.',
  consentToProcess: 'Please agree to let us store and process your details, or we cannot take your submission.',
  /** Above the form, naming the fields that need attention in the order they appear. */
  check: (labels: string[]) => `Please check ${labels.length === 1 ? 'this field' : 'these fields'}: ${endSentence(labels.join(', '))}`,
  /** The explicit consent box, as a message names it. */
  consentLabel: 'Consent to process your details',
};
export type FormMessages = typeof messages;

/** The same messages in each language of the site (usted, plain words). */
export const messagesByLocale: Record<Locale, FormMessages> = {
  en: messages,
  es: {
    required: 'Por favor, llene este campo.',
    requiredChoice: 'Por favor, elija una opción.',
    requiredCheckbox: 'Por favor, marque esta casilla para continuar.',
    tooLong: (max: number) => `Por favor, use como máximo ${max.toLocaleString('es-US')} caracteres.`,
    unreadable: 'Por favor, quite los caracteres de control invisibles de este campo (el texto pegado puede traerlos).',
    email: 'Por favor, escriba un correo electrónico válido, como nombre@ejemplo.com.',
    blockedEmail: 'Por favor, use otro correo electrónico; no aceptamos este dominio.',
    phone: (min: number, max: number) => `Por favor, escriba un número de teléfono de ${min} a ${max} dígitos.`,
    number: 'Por favor, escriba un número.',
    numberDigits: (min: number, max: number) => `Por favor, escriba un número de ${min} a ${max} dígitos.`,
    date: 'Por favor, escriba una fecha como AAAA-MM-DD.',
    option: 'Por favor, elija una de las opciones.',
    oneValue: 'Por favor, dé un solo valor para este campo.',
    unknown: 'Este formulario no tiene ningún campo con este nombre.',
    consentToProcess: 'Por favor, acepte que guardemos y tratemos sus datos; si no, no podemos recibir su formulario.',
    check: (labels: string[]) => `Por favor, revise ${labels.length === 1 ? 'este campo' : 'estos campos'}: ${endSentence(labels.join(', '))}`,
    consentLabel: 'Consentimiento para tratar sus datos',
  },
};

/** The label of a field (or consent box) by name, for messages that name it. */
export function labelOf(definition: FormDefinition, name: string, locale: Locale = 'en'): string {
  if (name === metaFields.consentToProcess) return messagesByLocale[locale].consentLabel;
  const consent = definition.legalConsentOptions;
  if (consent.type === 'implicit_consent_to_process' || consent.type === 'explicit_consent_to_process') {
    const box = consent.communicationsCheckboxes.find((item) => consentFieldName(item.subscriptionTypeId) === name);
    if (box) return box.label.replace(/<[^>]*>/g, '').trim();
  }
  const field = allFields(definition).find((item) => item.name === name);
  return field?.label || name;
}

/** The message above a form for these problems, fields in the order the form shows them. */
export function summaryOf(definition: FormDefinition, errors: Record<string, string>, extraLabels: Record<string, string> = {}, locale: Locale = 'en'): string {
  const order = [...allFields(definition).map((field) => field.name), ...Object.keys(extraLabels), ...allowedExtraNames(definition)];
  const names = Object.keys(errors).sort((a, b) => (order.indexOf(a) + 1 || Infinity) - (order.indexOf(b) + 1 || Infinity));
  // A label that is a sentence ("Send me tips by email.") is named without its full stop in the list.
  return messagesByLocale[locale].check(names.map((name) => (extraLabels[name] ?? labelOf(definition, name, locale)).replace(/\.\s*$/, '')));
}

// Local part and domain of an address, as browsers' type=email accepts it, plus a dot in the domain.
const EMAIL = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
const PHONE_CHARS = /^\+?[\d\s().\-/]+(?:\s*(?:x|ext\.?)\s*\d{1,6})?$/i;
const NUMBER = /^-?\d+(?:\.\d+)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function isEmail(value: string): boolean {
  return value.length <= 254 && EMAIL.test(value);
}

const asList = (value: string | string[] | undefined): string[] =>
  value === undefined ? [] : (Array.isArray(value) ? value : [value]).map((item) => item.trim()).filter((item) => item !== '');

const digitsOf = (value: string) => value.replace(/\D/g, '').length;

/** Whether a dependent field's condition holds for its parent's current value(s). */
export function conditionHolds(condition: FieldCondition, parent: string | string[] | undefined): boolean {
  const values = asList(parent).map((item) => item.toLowerCase());
  const value = values.join(';');
  const wanted = (condition.value ?? '').toLowerCase();
  const set = (condition.values ?? (condition.value !== undefined ? [condition.value] : [])).map((item) => item.toLowerCase());
  const number = Number(value);
  const numeric = value !== '' && Number.isFinite(number);
  switch (condition.operator) {
    case 'eq':
      return value === wanted;
    case 'neq':
      return value !== wanted;
    case 'contains':
      return value.includes(wanted);
    case 'doesnt_contain':
      return !value.includes(wanted);
    case 'str_starts_with':
      return value.startsWith(wanted);
    case 'str_ends_with':
      return value.endsWith(wanted);
    case 'lt':
      return numeric && number < Number(condition.value);
    case 'lte':
      return numeric && number <= Number(condition.value);
    case 'gt':
      return numeric && number > Number(condition.value);
    case 'gte':
      return numeric && number >= Number(condition.value);
    case 'between':
      return numeric && number >= Number(condition.rangeStart) && number <= Number(condition.rangeEnd);
    case 'not_between':
      return numeric && (number < Number(condition.rangeStart) || number > Number(condition.rangeEnd));
    case 'set_any':
      return values.some((item) => set.includes(item));
    case 'set_not_any':
      return !values.some((item) => set.includes(item));
    case 'set_all':
      return set.every((item) => values.includes(item));
    case 'set_not_all':
      return !set.every((item) => values.includes(item));
    case 'set_eq':
      return set.length === values.length && set.every((item) => values.includes(item));
    case 'set_neq':
      return !(set.length === values.length && set.every((item) => values.includes(item)));
    case 'is_not_empty':
      return values.length > 0;
    // Forms with relative-time conditions use the embed (see unsupportedParts).
    case 'within_time':
    case 'within_time_reverse':
      return false;
  }
}

/**
 * The fields shown for these values, in order: top-level fields always, a dependent field while
 * its parent is shown and its condition holds.
 */
export function visibleFields(definition: Pick<FormDefinition, 'fieldGroups'>, values: RawValues): FormField[] {
  const out: FormField[] = [];
  const visit = (field: FormField) => {
    out.push(field);
    for (const { dependentCondition, dependentField } of field.dependentFields) {
      if (conditionHolds(dependentCondition, values[field.name])) visit(dependentField);
    }
  };
  for (const group of definition.fieldGroups) for (const field of group.fields) visit(field);
  return out;
}

/** The problem with one field's value, or undefined when it is acceptable. */
export function fieldProblem(field: FormField, raw: string | string[] | undefined, locale: Locale = 'en'): string | undefined {
  const messages = messagesByLocale[locale];
  const list = asList(raw);
  const multiple = field.fieldType === 'multiple_checkboxes';
  if (!multiple && list.length > 1) return messages.oneValue;
  const value = list[0] ?? '';
  if (value === '' || (field.fieldType === 'single_checkbox' && !isChecked(value))) {
    if (!field.required) return undefined;
    if (field.fieldType === 'single_checkbox') return messages.requiredCheckbox;
    return ['dropdown', 'radio', 'multiple_checkboxes'].includes(field.fieldType) ? messages.requiredChoice : messages.required;
  }
  const options = new Set((field.options ?? []).map((option) => option.value));
  for (const item of list) if (item.length > MAX_VALUE_LENGTH) return messages.tooLong(MAX_VALUE_LENGTH);
  for (const item of list) if (unreadable(item)) return messages.unreadable;
  switch (field.fieldType) {
    case 'email': {
      if (!isEmail(value)) return messages.email;
      const domain = value.slice(value.lastIndexOf('@') + 1).toLowerCase();
      const blocked = (field.validation?.blockedEmailDomains ?? []).map((item) => item.toLowerCase());
      return blocked.includes(domain) ? messages.blockedEmail : undefined;
    }
    case 'phone':
    case 'mobile_phone': {
      const min = field.validation?.minAllowedDigits ?? PHONE_DIGITS.min;
      const max = field.validation?.maxAllowedDigits ?? PHONE_DIGITS.max;
      const digits = digitsOf(value.replace(/(?:x|ext\.?)\s*\d+$/i, ''));
      return PHONE_CHARS.test(value) && digits >= min && digits <= max ? undefined : messages.phone(min, max);
    }
    case 'number': {
      if (!NUMBER.test(value)) return messages.number;
      const min = field.validation?.minAllowedDigits ?? NUMBER_DIGITS.min;
      const max = field.validation?.maxAllowedDigits ?? NUMBER_DIGITS.max;
      const digits = digitsOf(value);
      return digits >= min && digits <= max ? undefined : messages.numberDigits(min, max);
    }
    case 'datepicker': {
      if (!DATE.test(value)) return messages.date;
      const date = new Date(`${value}T00:00:00Z`);
      return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value) ? undefined : messages.date;
    }
    case 'dropdown':
    case 'radio':
      return options.has(value) ? undefined : messages.option;
    case 'multiple_checkboxes':
      return list.every((item) => options.has(item)) ? undefined : messages.option;
    default:
      return undefined;
  }
}

/** A checked single checkbox: HTML posts "on" (or its value), JSON may say true. */
export function isChecked(value: string): boolean {
  return ['true', 'on', 'yes', '1', 'checked'].includes(value.trim().toLowerCase());
}

/** The value HubSpot takes for a field: multiple choices joined with ";", checkboxes as true/false. */
export function hubspotValue(field: FormField, raw: string | string[] | undefined): string {
  const list = asList(raw);
  if (field.fieldType === 'single_checkbox') return String(list.length > 0 && isChecked(list[0]!));
  if (field.fieldType === 'multiple_checkboxes') return list.join(';');
  if (field.fieldType === 'email') return (list[0] ?? '').toLowerCase();
  return list[0] ?? '';
}

export interface ConsentGiven {
  /** Consent to process (implicit forms: given by submitting; explicit: the checkbox). */
  toProcess: boolean;
  communications: Array<{ subscriptionTypeId: number; value: boolean; text: string }>;
}

export interface CheckedSubmission {
  /** Accepted values by field name, as HubSpot takes them; hidden and empty optional fields included. */
  values: Record<string, string>;
  consent: ConsentGiven | undefined;
  /** A message per field name that needs attention; empty when the submission is acceptable. */
  errors: Record<string, string>;
}

function consentProblems(consent: LegalConsent, raw: RawValues, errors: Record<string, string>, messages: FormMessages): ConsentGiven | undefined {
  if (consent.type === 'none' || consent.type === 'legitimate_interest') return undefined;
  const communications = consent.communicationsCheckboxes.map((box) => {
    const name = consentFieldName(box.subscriptionTypeId);
    const value = asList(raw[name]).some(isChecked);
    if (box.required && !value) errors[name] = messages.requiredCheckbox;
    return { subscriptionTypeId: box.subscriptionTypeId, value, text: box.label };
  });
  let toProcess = true;
  if (consent.type === 'explicit_consent_to_process') {
    toProcess = asList(raw[metaFields.consentToProcess]).some(isChecked);
    if (!toProcess) errors[metaFields.consentToProcess] = messages.consentToProcess;
  }
  return { toProcess, communications };
}

/** The names a native form of this definition may post besides its fields. */
export function allowedExtraNames(definition: FormDefinition): Set<string> {
  const names = new Set<string>(Object.values(metaFields));
  const consent = definition.legalConsentOptions;
  if (consent.type === 'implicit_consent_to_process' || consent.type === 'explicit_consent_to_process') {
    for (const box of consent.communicationsCheckboxes) names.add(consentFieldName(box.subscriptionTypeId));
  }
  return names;
}

/**
 * Checks a whole submission against its definition. Values of fields that are not shown (a
 * dependent field whose condition does not hold) are dropped; a name the form does not have is an
 * error, so nothing unexpected is stored or sent. `extraNames` are accepted and left out of values.
 */
/**
 * Text no form may carry: control characters other than tab and line breaks (a NUL cannot even be
 * stored), and halves of a surrogate pair (not text at all).
 */
// eslint-disable-next-line no-control-regex
const unreadable = (value: string) => /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(value) || !value.isWellFormed();

export function checkSubmission(definition: FormDefinition, raw: RawValues, extraNames: Iterable<string> = [], locale: Locale = 'en'): CheckedSubmission {
  const messages = messagesByLocale[locale];
  const errors: Record<string, string> = {};
  const known = new Set(allFields(definition).map((field) => field.name));
  const extras = new Set([...allowedExtraNames(definition), ...extraNames]);
  for (const name of Object.keys(raw)) {
    if (!known.has(name) && !extras.has(name)) errors[name] = messages.unknown;
  }
  const values: Record<string, string> = {};
  for (const field of visibleFields(definition, raw)) {
    // A hidden field takes what the page filled in, or its default.
    const given = field.hidden && asList(raw[field.name]).length === 0 ? field.defaultValue : raw[field.name];
    const problem = field.hidden
      ? asList(given).some((item) => item.length > MAX_VALUE_LENGTH)
        ? messages.tooLong(MAX_VALUE_LENGTH)
        : asList(given).some(unreadable)
          ? messages.unreadable
          : undefined
      : fieldProblem(field, given, locale);
    if (problem) errors[field.name] = problem;
    else values[field.name] = hubspotValue(field, given);
  }
  const consent = consentProblems(definition.legalConsentOptions, raw, errors, messages);
  return { values, consent, errors };
}
