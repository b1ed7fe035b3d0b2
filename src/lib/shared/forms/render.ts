/**
 * A form definition as plain HTML: the one renderer of the site's own forms. The page component
 * uses it at build, and the forms function uses it again to show a JavaScript-off visitor their
 * answers with the problems next to each field, so both always draw the same form.
 *
 * The markup works without JavaScript (a normal POST with the browser's own checks) and carries
 * what `enhance.ts` needs: field ids, error slots, dependent-field conditions.
 */
import sanitizeHtml from 'sanitize-html';
import type { Locale } from '../../../config/locales';
import { NOTE_FIELD, NOTE_MAX, OWN_WORDS_FIELD, personalWords, WORDS_CONSENT_FIELD, WORDS_CONSENT_VALUE } from '../email/personal-fields';
import { localePath } from '../i18n/paths';
import { buttonClass, cx } from '../ui';
import { renderWords } from './render-words';
import type { FieldCondition, FormDefinition, FormField, LegalConsent } from './definition';
import { conditionHolds, consentFieldName, MAX_VALUE_LENGTH, metaFields, type RawValues } from './values';

export interface RenderOptions {
  /** The form's purpose (src/config/forms.ts). */
  purpose: string;
  /** Unique on the page, e.g. "form-newsletter-footer"; prefixes every id. */
  instance: string;
  /** The page the form is on, e.g. "/faqs"; posted back so a JavaScript-off answer returns there. */
  page: string;
  /** Values to show (a JavaScript-off answer shows what the visitor typed). */
  values?: RawValues;
  /** Problems to show, by field name (also consent names). */
  errors?: Record<string, string>;
  /** The email forms: the parent's own words for the school email (a question and a note), kept by the site. */
  note?: boolean;
  /** Hidden inputs the page adds to the form's own (a school page names its school with one). */
  hiddenInputs?: Record<string, string>;
  /** The email forms suggest known schools in their school field (a school page's form, which names its school, does not). */
  schoolSearch?: boolean;
  /**
   * The page's language: the form's own words (hints, markers, messages) are that language's, and
   * it is posted with the form (`_locale`) so the server answers in it. English when not given.
   */
  locale?: Locale;
}

const wordsOf = (options: Pick<RenderOptions, 'locale'>) => renderWords[options.locale ?? 'en'];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** Texts a marketer wrote in HubSpot (thank-you message, consent, group text): a few inline tags. */
export function sanitizeFormText(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: ['p', 'br', 'strong', 'b', 'em', 'i', 'u', 'a', 'ul', 'ol', 'li', 'span'],
    allowedAttributes: { a: ['href', 'title'] },
    allowedSchemes: ['https', 'mailto', 'tel'],
    allowProtocolRelative: false,
    disallowedTagsMode: 'discard',
    transformTags: {
      a: (tagName, attribs) =>
        /^https:/i.test(attribs.href ?? '') ? { tagName, attribs: { ...attribs, target: '_blank', rel: 'noopener noreferrer' } } : { tagName, attribs },
    },
  }).trim();
}

/**
 * Autocomplete tokens for the standard HubSpot contact properties about the visitor themselves.
 * Fields about someone else (the school contact, the child) get none, so the browser does not fill
 * them with the visitor's own details.
 */
const AUTOCOMPLETE: Record<string, string> = {
  email: 'email',
  firstname: 'given-name',
  lastname: 'family-name',
  full_name: 'name',
  phone: 'tel',
  mobilephone: 'tel',
  city: 'address-level2',
  state: 'address-level1',
  zip: 'postal-code',
  country: 'country-name',
  address: 'street-address',
  company: 'organization',
  jobtitle: 'organization-title',
  website: 'url',
};
const ABOUT_SOMEONE_ELSE = /^(school_|child_)/;

/** The email forms' school name field (HubSpot's name), where known schools are suggested. */
const SCHOOL_NAME_FIELD = 'school_name';

export function autocompleteFor(field: FormField): string | undefined {
  if (ABOUT_SOMEONE_ELSE.test(field.name)) return 'off';
  return AUTOCOMPLETE[field.name];
}

export const inputClass =
  'mt-1.5 block w-full rounded-xl border border-line bg-white px-3.5 py-2.5 text-[0.95rem] text-ink placeholder:text-muted focus-visible:border-brand-500 aria-[invalid=true]:border-danger-600';
export const labelClass = 'block text-sm font-semibold text-ink';
export const helpClass = 'mt-1 text-sm text-muted';
export const errorClass = 'mt-1.5 text-sm font-medium text-danger-600';
export const choiceClass =
  'flex items-start gap-3 rounded-xl border border-line bg-white px-3.5 py-3 text-[0.95rem] has-[:checked]:border-brand-500 has-[:checked]:bg-brand-50';
export const boxClass = 'mt-0.5 h-5 w-5 shrink-0 accent-brand-600';

type Attributes = Record<string, string | number | boolean | undefined>;

function attrs(values: Attributes): string {
  return Object.entries(values)
    .filter(([, value]) => value !== undefined && value !== false)
    .map(([name, value]) => (value === true ? ` ${name}` : ` ${name}="${escapeHtml(String(value))}"`))
    .join('');
}

const listOf = (value: string | string[] | undefined) => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

interface FieldContext {
  options: RenderOptions;
  /** Set for a dependent field: its parent and condition. */
  dependsOn?: { parent: FormField; condition: FieldCondition };
  shown: boolean;
}

function describe(condition: FieldCondition, parent: FormField, words: (typeof renderWords)[Locale]): string {
  const label = parent.label || parent.name;
  const optionLabel = (value: string | undefined) => parent.options?.find((option) => option.value === value)?.label ?? value ?? '';
  if (condition.operator === 'eq' || condition.operator === 'set_any' || condition.operator === 'set_eq') {
    const wanted = condition.values ?? [condition.value ?? ''];
    return words.ifChose(wanted.map(optionLabel), label);
  }
  if (condition.operator === 'is_not_empty') return words.ifFilled(label);
  return words.ifApplies(label);
}

function fieldHtml(field: FormField, context: FieldContext): string {
  const { options } = context;
  const words = wordsOf(options);
  const id = `${options.instance}-${field.name}`;
  const value = options.values?.[field.name];
  const error = options.errors?.[field.name];
  if (field.hidden) {
    const hiddenValue = listOf(value)[0] ?? field.defaultValue ?? '';
    return `<input${attrs({ type: 'hidden', name: field.name, value: hiddenValue, 'data-hidden-field': true })}>`;
  }

  const dependent = context.dependsOn;
  // A dependent field's `required` is set by the script while it is shown; without JavaScript
  // every dependent field shows (with a hint saying when it applies) and the server decides.
  const required = field.required && !dependent;
  const helpId = field.description || dependent ? `${id}-help` : undefined;
  const errorId = `${id}-error`;
  const describedBy = [helpId, error ? errorId : undefined].filter(Boolean).join(' ') || undefined;
  const common: Attributes = {
    id,
    name: field.name,
    required,
    'aria-invalid': error ? 'true' : undefined,
    'aria-describedby': describedBy,
  };
  const marker = field.required
    ? ' <span class="text-danger-600" aria-hidden="true">*</span>'
    : ` <span class="font-normal text-muted">${words.optional}</span>`;
  const label = escapeHtml(field.label || field.name);
  const help =
    helpId &&
    `<p id="${helpId}" class="${helpClass}">${field.description ? escapeHtml(field.description) : ''}${
      dependent ? `<span class="dependent-hint"> ${escapeHtml(describe(dependent.condition, dependent.parent, words))}</span>` : ''
    }</p>`;
  const errorHtml = `<p id="${errorId}" class="${errorClass}" data-field-error${error ? '' : ' hidden'}>${error ? escapeHtml(error) : ''}</p>`;
  const wide = ['multi_line_text', 'radio', 'multiple_checkboxes', 'single_checkbox'].includes(field.fieldType);
  const wrapper = (inner: string) =>
    `<div${attrs({
      class: cx('native-field', wide && 'sm:col-span-2'),
      'data-field': field.name,
      'data-field-type': field.fieldType,
      'data-required': field.required ? 'true' : undefined,
      'data-depends-on': dependent?.parent.name,
      'data-condition': dependent ? JSON.stringify(dependent.condition) : undefined,
      'data-dependent-hidden': dependent && !context.shown ? true : undefined,
    })}>${inner}</div>`;

  const selected = new Set(listOf(value ?? (field.defaultValues?.length ? field.defaultValues : field.defaultValue)));
  const text = listOf(value)[0] ?? field.defaultValue ?? '';

  switch (field.fieldType) {
    case 'radio':
    case 'multiple_checkboxes': {
      const type = field.fieldType === 'radio' ? 'radio' : 'checkbox';
      const choices = [...(field.options ?? [])]
        .sort((a, b) => (a.displayOrder ?? 0) - (b.displayOrder ?? 0))
        .map((option, index) => {
          const optionId = `${id}-${index}`;
          const descriptionId = option.description ? `${optionId}-desc` : undefined;
          return `<label class="${choiceClass}" for="${optionId}"><input${attrs({
            type,
            id: optionId,
            name: field.name,
            value: option.value,
            checked: selected.has(option.value),
            required: type === 'radio' && required,
            class: boxClass,
            'aria-describedby': descriptionId,
          })}><span><span class="font-medium">${escapeHtml(option.label)}</span>${
            descriptionId ? `<span id="${descriptionId}" class="block text-sm text-muted">${escapeHtml(option.description!)}</span>` : ''
          }</span></label>`;
        })
        .join('');
      return wrapper(
        `<fieldset${attrs({ 'aria-describedby': describedBy, 'aria-invalid': error ? 'true' : undefined, 'data-group': field.name, id })}><legend class="${labelClass}">${label}${marker}</legend>${help ?? ''}<div class="mt-2 grid gap-2">${choices}</div></fieldset>${errorHtml}`,
      );
    }
    case 'single_checkbox':
      return wrapper(
        `<div class="flex items-start gap-3"><input${attrs({ ...common, type: 'checkbox', value: 'true', checked: [...selected].some((item) => ['true', 'on', 'yes', '1'].includes(item.toLowerCase())), class: boxClass })}><label for="${id}" class="text-[0.95rem] font-medium text-ink">${label}${marker}</label></div>${help ?? ''}${errorHtml}`,
      );
    case 'dropdown': {
      const choices = [...(field.options ?? [])]
        .sort((a, b) => (a.displayOrder ?? 0) - (b.displayOrder ?? 0))
        .map((option) => `<option${attrs({ value: option.value, selected: selected.has(option.value) })}>${escapeHtml(option.label)}</option>`)
        .join('');
      return wrapper(
        `<label for="${id}" class="${labelClass}">${label}${marker}</label>${help ?? ''}<select${attrs({ ...common, class: inputClass, autocomplete: autocompleteFor(field) })}><option value="">${escapeHtml(field.placeholder || words.choose)}</option>${choices}</select>${errorHtml}`,
      );
    }
    case 'multi_line_text':
      return wrapper(
        `<label for="${id}" class="${labelClass}">${label}${marker}</label>${help ?? ''}<textarea${attrs({ ...common, rows: 4, maxlength: MAX_VALUE_LENGTH, placeholder: field.placeholder, class: inputClass })}>${escapeHtml(text)}</textarea>${errorHtml}`,
      );
    default: {
      const input: Attributes = {
        ...common,
        value: text || undefined,
        placeholder: field.placeholder,
        class: inputClass,
        autocomplete: autocompleteFor(field),
      };
      if (field.fieldType === 'email') Object.assign(input, { type: 'email', maxlength: 254, spellcheck: 'false', autocapitalize: 'off' });
      else if (field.fieldType === 'phone' || field.fieldType === 'mobile_phone') Object.assign(input, { type: 'tel', maxlength: 40 });
      else if (field.fieldType === 'number') Object.assign(input, { type: 'text', inputmode: 'decimal', pattern: '-?[0-9]+([.][0-9]+)?', maxlength: 40 });
      else if (field.fieldType === 'datepicker') Object.assign(input, { type: 'date' });
      else Object.assign(input, { type: 'text', maxlength: MAX_VALUE_LENGTH });
      // The email forms' school name: the schools the site knows are suggested as the parent types
      // (school-combobox.ts, with the enhancement); without JavaScript, a link to the list.
      const schoolSearch = options.note && field.name === SCHOOL_NAME_FIELD && options.schoolSearch !== false;
      if (schoolSearch) Object.assign(input, { autocomplete: 'off', 'data-school-search': true });
      const find = schoolSearch
        ? `<p class="${helpClass}"><a class="font-medium text-brand-700 underline" href="${localePath('/find-school', options.locale ?? 'en')}" data-school-find>${words.findSchool}</a></p>`
        : '';
      return wrapper(`<label for="${id}" class="${labelClass}">${label}${marker}</label>${help ?? ''}<input${attrs(input)}>${find}${errorHtml}`);
    }
  }
}

/** A field and, right after it, its dependent fields. */
function fieldTree(field: FormField, context: FieldContext): string {
  let html = fieldHtml(field, context);
  for (const { dependentCondition, dependentField } of field.dependentFields) {
    const shown = context.shown && conditionHolds(dependentCondition, context.options.values?.[field.name] ?? field.defaultValue);
    html += fieldTree(dependentField, { options: context.options, dependsOn: { parent: field, condition: dependentCondition }, shown });
  }
  return html;
}

function consentHtml(consent: LegalConsent, options: RenderOptions): string {
  if (consent.type === 'none') return '';
  const box = (name: string, label: string, required: boolean) => {
    const id = `${options.instance}-${name}`;
    const error = options.errors?.[name];
    const checked = listOf(options.values?.[name]).some((item) => ['true', 'on', 'yes', '1'].includes(item.toLowerCase()));
    return `<div class="native-field" data-field="${escapeHtml(name)}" data-field-type="single_checkbox"${required ? ' data-required="true"' : ''}><div class="flex items-start gap-3"><input${attrs(
      {
        type: 'checkbox',
        id,
        name,
        value: 'true',
        checked,
        required,
        class: boxClass,
        'aria-invalid': error ? 'true' : undefined,
        'aria-describedby': error ? `${id}-error` : undefined,
      },
    )}><label for="${id}" class="text-sm text-ink">${sanitizeFormText(label)}${required ? ' <span class="text-danger-600" aria-hidden="true">*</span>' : ''}</label></div><p id="${id}-error" class="${errorClass}" data-field-error${error ? '' : ' hidden'}>${error ? escapeHtml(error) : ''}</p></div>`;
  };
  const parts: string[] = [];
  if (consent.type === 'legitimate_interest') {
    parts.push(`<div class="text-sm text-muted">${sanitizeFormText(consent.privacyText)}</div>`);
  } else {
    if (consent.communicationConsentText) parts.push(`<div class="text-sm text-ink-soft">${sanitizeFormText(consent.communicationConsentText)}</div>`);
    for (const checkbox of consent.communicationsCheckboxes) parts.push(box(consentFieldName(checkbox.subscriptionTypeId), checkbox.label, checkbox.required));
    if (consent.type === 'explicit_consent_to_process') {
      if (consent.consentToProcessText) parts.push(`<div class="text-sm text-ink-soft">${sanitizeFormText(consent.consentToProcessText)}</div>`);
      parts.push(box(metaFields.consentToProcess, consent.consentToProcessCheckboxLabel || wordsOf(options).consentToProcess, true));
      if (consent.consentToProcessFooterText) parts.push(`<div class="text-sm text-muted">${sanitizeFormText(consent.consentToProcessFooterText)}</div>`);
    } else if (consent.consentToProcessText) {
      parts.push(`<div class="text-sm text-muted">${sanitizeFormText(consent.consentToProcessText)}</div>`);
    }
    if (consent.privacyText) parts.push(`<div class="text-sm text-muted">${sanitizeFormText(consent.privacyText)}</div>`);
  }
  return `<div class="space-y-3 border-t border-line pt-4" data-consent>${parts.join('')}</div>`;
}

/**
 * On a page in another language than English, the email forms ask which language the letter to the
 * school is written in: English by default (the school's leadership reads it), or the page's.
 */
function letterLanguageHtml(options: RenderOptions): string {
  const locale = options.locale;
  if (!locale || locale === 'en') return '';
  const words = renderWords[locale];
  const id = `${options.instance}-letter-locale`;
  const chosen = listOf(options.values?.[metaFields.letterLocale])[0] === locale ? locale : 'en';
  const choices = (['en', locale] as const)
    .map(
      (value) =>
        `<label class="${choiceClass}" for="${id}-${value}"><input${attrs({ type: 'radio', id: `${id}-${value}`, name: metaFields.letterLocale, value, checked: value === chosen, class: boxClass })}><span class="font-medium">${escapeHtml(words.letterLanguages[value])}</span></label>`,
    )
    .join('');
  return `<div class="native-field" data-field="${metaFields.letterLocale}" data-field-type="radio"><fieldset id="${id}" aria-describedby="${id}-help"><legend class="${labelClass}">${escapeHtml(words.letterLanguage)}</legend><p id="${id}-help" class="${helpClass}">${escapeHtml(words.letterLanguageHelp)}</p><div class="mt-2 grid gap-2">${choices}</div></fieldset></div>`;
}

/**
 * The parent's own words in the email forms (see src/lib/shared/email/note.ts): the question "What would
 * this change for your child?", then the personal note.
 */
function personalHtml(options: RenderOptions): string {
  const personal = personalWords[options.locale ?? 'en'];
  return `${letterLanguageHtml(options)}${[
    { name: OWN_WORDS_FIELD, suffix: 'own-words', label: personal.ownWordsLabel, help: personal.ownWordsHelp, rows: 3 },
    { name: NOTE_FIELD, suffix: 'note', label: personal.noteLabel, help: personal.noteHelp, rows: 3 },
  ]
    .map(({ name, suffix, label, help, rows }) => {
      const id = `${options.instance}-${suffix}`;
      const error = options.errors?.[name];
      const value = listOf(options.values?.[name])[0] ?? '';
      return `<div class="native-field" data-field="${name}" data-field-type="multi_line_text"><label for="${id}" class="${labelClass}">${escapeHtml(label)} <span class="font-normal text-muted">${wordsOf(options).optional}</span></label><p id="${id}-help" class="${helpClass}">${escapeHtml(help)}</p><textarea${attrs(
        {
          id,
          name,
          rows,
          maxlength: NOTE_MAX,
          class: inputClass,
          'aria-invalid': error ? 'true' : undefined,
          'aria-describedby': error ? `${id}-help ${id}-error` : `${id}-help`,
        },
      )}>${escapeHtml(value)}</textarea><p id="${id}-error" class="${errorClass}" data-field-error${error ? '' : ' hidden'}>${error ? escapeHtml(error) : ''}</p></div>`;
    })
    .join('')}${wordsConsentHtml(options)}`;
}

/**
 * "You may quote my words on our school's page (first name only)": the parent's agreement, asked
 * apart from the letter, unticked until they tick it (a form that comes back keeps their choice).
 */
export function wordsConsentHtml(options: Pick<RenderOptions, 'instance' | 'values' | 'errors' | 'locale'>): string {
  const personal = personalWords[options.locale ?? 'en'];
  const id = `${options.instance}-quote-words`;
  const error = options.errors?.[WORDS_CONSENT_FIELD];
  const checked = listOf(options.values?.[WORDS_CONSENT_FIELD]).includes(WORDS_CONSENT_VALUE);
  return `<div class="native-field" data-field="${WORDS_CONSENT_FIELD}" data-field-type="single_checkbox"><div class="flex items-start gap-3"><input${attrs({
    type: 'checkbox',
    id,
    name: WORDS_CONSENT_FIELD,
    value: WORDS_CONSENT_VALUE,
    checked,
    class: boxClass,
    'aria-invalid': error ? 'true' : undefined,
    'aria-describedby': error ? `${id}-help ${id}-error` : `${id}-help`,
  })}><label for="${id}" class="text-sm text-ink">${escapeHtml(personal.wordsConsentLabel)}</label></div><p id="${id}-help" class="${helpClass}">${escapeHtml(personal.wordsConsentHelp)}</p><p id="${id}-error" class="${errorClass}" data-field-error${error ? '' : ' hidden'}>${error ? escapeHtml(error) : ''}</p></div>`;
}

/** The summary shown above the form when something needs attention. */
export function summaryHtml(instance: string, message: string | undefined, visible: boolean): string {
  return `<div id="${instance}-summary" class="rounded-xl border border-danger-600 bg-danger-50 p-3 text-sm font-medium text-danger-600" role="alert" tabindex="-1" data-form-summary${
    visible ? '' : ' hidden'
  }>${message ? escapeHtml(message) : ''}</div>`;
}

/** Where a native form's markup starts and ends in a built page, so the function can replace it. */
export const regionMarkers = (instance: string) => ({ start: `<!--native-form:${instance}-->`, end: `<!--/native-form:${instance}-->` });

/** The region of /form-response that the forms function fills. */
export const RESPONSE_INSTANCE = 'response';
export const responseRegion = regionMarkers(RESPONSE_INSTANCE);

/** The thank-you message of a definition (its post-submit action), as safe HTML. */
export function successHtml(definition: FormDefinition, locale: Locale = 'en'): string {
  const action = definition.configuration.postSubmitAction;
  const text = action.type === 'thank_you' && action.value.trim() ? sanitizeFormText(action.value) : renderWords[locale].success;
  return /<p[\s>]/.test(text) ? text : `<p>${text}</p>`;
}

/** The definition for the page's script, as a JSON data block (never executed, so outside the CSP). */
function definitionJson(definition: FormDefinition): string {
  return `<script type="application/json" data-form-definition>${JSON.stringify(definition).replace(/</g, '\\u003c')}</script>`;
}

/**
 * The whole form. `summary` is the message above the fields (shown when `errors` has entries).
 */
export function renderForm(definition: FormDefinition, options: RenderOptions, summary?: string): string {
  const { instance } = options;
  const words = wordsOf(options);
  const hasErrors = Object.keys(options.errors ?? {}).length > 0;
  const anyRequired = definition.fieldGroups.some((group) => group.fields.some((field) => field.required && !field.hidden));
  const groups = definition.fieldGroups
    .map((group) => {
      const visible = group.fields.filter((field) => !field.hidden).length;
      const fields = group.fields.map((field) => fieldTree(field, { options, shown: true })).join('');
      const rich = group.richText ? `<div class="text-sm text-ink-soft sm:col-span-2">${sanitizeFormText(group.richText)}</div>` : '';
      return `<div class="${cx('grid gap-4', visible > 1 && 'sm:grid-cols-2')}">${rich}${fields}</div>`;
    })
    .join('');
  const { start, end } = regionMarkers(instance);
  return `${start}<native-form${attrs({ id: instance, class: 'block', 'data-purpose': options.purpose, 'data-form-id': definition.id, 'data-note': options.note })}><form${attrs(
    {
      method: 'post',
      action: `/api/forms/${encodeURIComponent(definition.id)}`,
      'accept-charset': 'utf-8',
      class: 'space-y-5',
      'data-native-form': true,
      'aria-describedby': hasErrors ? `${instance}-summary` : undefined,
    },
  )}>${summaryHtml(instance, summary, hasErrors)}${
    anyRequired ? `<p class="text-sm text-muted">${words.required}</p>` : ''
  }<input${attrs({ type: 'hidden', name: metaFields.page, value: options.page })}>${
    options.locale && options.locale !== 'en' ? `<input${attrs({ type: 'hidden', name: metaFields.locale, value: options.locale })}>` : ''
  }<input${attrs({ type: 'hidden', name: metaFields.instance, value: instance })}><input${attrs({
    type: 'hidden',
    name: metaFields.elapsed,
    value: '',
  })}>${Object.entries({ ...(options.note && options.schoolSearch !== false ? { [metaFields.school]: '' } : {}), ...(options.hiddenInputs ?? {}) })
    .map(([name, value]) => `<input${attrs({ type: 'hidden', name, value, 'data-school-key': name === metaFields.school ? true : undefined })}>`)
    .join(
      '',
    )}<div hidden><label for="${instance}-website">${words.honeypot}</label><input${attrs({ type: 'text', id: `${instance}-website`, name: metaFields.honeypot, tabindex: -1, autocomplete: 'off' })}></div>${groups}${options.note ? personalHtml(options) : ''}${consentHtml(
    definition.legalConsentOptions,
    options,
  )}<div class="flex flex-wrap items-center gap-3"><button type="submit" class="${buttonClass('primary', 'md')}" data-submit>${escapeHtml(
    definition.displayOptions.submitButtonText || words.submit,
  )}</button><p class="text-sm text-muted" role="status" data-form-status></p></div></form><div${attrs({
    class: 'rounded-xl border border-success-600 bg-white p-4 text-[0.95rem] text-ink [&_a]:font-medium [&_a]:text-brand-700 [&_a]:underline',
    role: 'status',
    tabindex: -1,
    'data-form-success': true,
    hidden: true,
  })}>${successHtml(definition, options.locale)}</div>${definitionJson(definition)}</native-form>${end}`;
}
