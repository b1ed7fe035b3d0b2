/**
 * Pure helpers over a form definition, without zod, so that the browser's form script stays small.
 */
import type { ConditionOperator, FieldType, FormDefinition, FormField } from './definition';

/** The field types the native renderer draws; a form with any other falls back to the embed. */
export const nativeFieldTypes = [
  'single_line_text',
  'email',
  'phone',
  'mobile_phone',
  'number',
  'multi_line_text',
  'dropdown',
  'radio',
  'multiple_checkboxes',
  'single_checkbox',
  'datepicker',
] as const satisfies readonly FieldType[];

/** Relative-time conditions need HubSpot's clock semantics; a form using them falls back to the embed. */
export const unsupportedOperators: ReadonlySet<ConditionOperator> = new Set(['within_time', 'within_time_reverse']);

/** Every field of a definition, dependent ones included, in the order they appear. */
export function allFields(definition: Pick<FormDefinition, 'fieldGroups'>): FormField[] {
  const out: FormField[] = [];
  const visit = (field: FormField) => {
    out.push(field);
    for (const dependent of field.dependentFields) visit(dependent.dependentField);
  };
  for (const group of definition.fieldGroups) for (const field of group.fields) visit(field);
  return out;
}

/** What the native renderer cannot draw, as "field (type)" strings; empty when it can draw it all. */
export function unsupportedParts(definition: FormDefinition): string[] {
  const parts: string[] = [];
  for (const field of allFields(definition)) {
    if (!(nativeFieldTypes as readonly string[]).includes(field.fieldType)) parts.push(`${field.name} (${field.fieldType})`);
    for (const { dependentCondition, dependentField } of field.dependentFields) {
      if (unsupportedOperators.has(dependentCondition.operator)) {
        parts.push(`${dependentField.name} (condition "${dependentCondition.operator}")`);
      }
    }
  }
  if (definition.configuration.recaptchaEnabled) parts.push('reCAPTCHA (configuration.recaptchaEnabled)');
  return parts;
}
