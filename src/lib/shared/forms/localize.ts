/**
 * A form definition in another language: its labels, hints, placeholders, choices, button and
 * thank-you message from that language's words (content/i18n/{locale}/{place}.yaml), by field name,
 * while names, types, rules and option values stay the definition's (what is posted and stored does
 * not change with the language). Every text the definition shows needs its words: a missing one
 * stops the build naming the key and the file (`translator`).
 */
import type { Translate } from '../i18n/translator';
import type { FormDefinition, FormField, LegalConsent } from './definition';

/**
 * The keys, under `place` (e.g. "emailForm"): `fields.{name}.label`, `.description` and
 * `.placeholder` when the definition has them, `fields.{name}.options.{n}.label` and `.description`
 * (n from 1, in display order), `submit`, and `thankYou` for a thank-you message; for the consent
 * the definition shows, `consent.checkboxes.{n}` (n from 1, in order), `consent.communication`,
 * `consent.toProcess`, `consent.toProcessLabel`, `consent.toProcessFooter` and `consent.privacy`.
 */
export function localizeDefinition<D extends FormDefinition>(definition: D, t: Translate, place: string): D {
  const field = (item: FormField): FormField => {
    if (item.hidden) return { ...item, dependentFields: item.dependentFields.map((each) => ({ ...each, dependentField: field(each.dependentField) })) };
    const key = `${place}.fields.${item.name}`;
    const options = item.options
      ? [...item.options]
          .sort((a, b) => (a.displayOrder ?? 0) - (b.displayOrder ?? 0))
          .map((option, index) => ({
            ...option,
            label: t(`${key}.options.${index + 1}.label`),
            ...(option.description ? { description: t(`${key}.options.${index + 1}.description`) } : {}),
          }))
      : undefined;
    return {
      ...item,
      label: t(`${key}.label`),
      ...(item.description ? { description: t(`${key}.description`) } : {}),
      ...(item.placeholder ? { placeholder: t(`${key}.placeholder`) } : {}),
      ...(options ? { options } : {}),
      dependentFields: item.dependentFields.map((each) => ({ ...each, dependentField: field(each.dependentField) })),
    };
  };
  const consent = (options: LegalConsent): LegalConsent => {
    if (options.type === 'none') return options;
    if (options.type === 'legitimate_interest') return { ...options, ...(options.privacyText ? { privacyText: t(`${place}.consent.privacy`) } : {}) };
    const optional = (value: string | undefined, key: string) => (value ? { [key]: t(`${place}.consent.${keyOf[key]}`) } : {});
    return {
      ...options,
      communicationsCheckboxes: options.communicationsCheckboxes.map((box, index) => ({ ...box, label: t(`${place}.consent.checkboxes.${index + 1}`) })),
      ...optional(options.communicationConsentText, 'communicationConsentText'),
      ...optional(options.consentToProcessText, 'consentToProcessText'),
      ...optional(options.privacyText, 'privacyText'),
      ...(options.type === 'explicit_consent_to_process'
        ? {
            ...optional(options.consentToProcessCheckboxLabel, 'consentToProcessCheckboxLabel'),
            ...optional(options.consentToProcessFooterText, 'consentToProcessFooterText'),
          }
        : {}),
    } as LegalConsent;
  };
  const action = definition.configuration.postSubmitAction;
  return {
    ...definition,
    fieldGroups: definition.fieldGroups.map((group) => ({ ...group, fields: group.fields.map(field) })),
    configuration: {
      ...definition.configuration,
      postSubmitAction: action.type === 'thank_you' ? { ...action, value: t(`${place}.thankYou`) } : action,
    },
    displayOptions: { ...definition.displayOptions, submitButtonText: t(`${place}.submit`) },
    legalConsentOptions: consent(definition.legalConsentOptions),
  };
}

/** The words' key of each consent text a definition may show. */
const keyOf: Record<string, string> = {
  communicationConsentText: 'communication',
  consentToProcessText: 'toProcess',
  consentToProcessCheckboxLabel: 'toProcessLabel',
  consentToProcessFooterText: 'toProcessFooter',
  privacyText: 'privacy',
};
