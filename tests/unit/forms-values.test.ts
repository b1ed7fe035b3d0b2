import { describe, expect, test } from 'vitest';
import { formDefinitionSchema, type FormDefinition, type FormField } from '../../src/lib/shared/forms/definition';
import { unsupportedParts } from '../../src/lib/shared/forms/fields';
import {
  checkSubmission,
  conditionHolds,
  consentFieldName,
  fieldProblem,
  hubspotValue,
  messages,
  metaFields,
  visibleFields,
} from '../../src/lib/shared/forms/values';

const field = (fieldType: FormField['fieldType'], extra: Partial<FormField> = {}): FormField =>
  ({ objectTypeId: '0-1', name: 'f', label: 'F', required: false, hidden: false, dependentFields: [], fieldType, ...extra }) as FormField;

const options = [
  { label: 'Red', value: 'red' },
  { label: 'Blue', value: 'blue' },
];

describe('fieldProblem: each field type', () => {
  test.each([
    ['single_line_text', {}, 'Ada', undefined],
    ['single_line_text', { required: true }, '   ', messages.required],
    ['single_line_text', {}, '', undefined],
    ['single_line_text', {}, 'x'.repeat(2001), messages.tooLong(2000)],
    ['multi_line_text', { required: true }, 'line one\nline two', undefined],
    ['email', { required: true }, 'ana@example.org', undefined],
    ['email', {}, 'ana@example', messages.email],
    ['email', {}, 'not an email', messages.email],
    ['email', { validation: { blockedEmailDomains: ['Spam.example'] } }, 'x@spam.example', messages.blockedEmail],
    ['phone', {}, '+1 (555) 010-2030', undefined],
    ['phone', {}, '555 0102 ext. 12', undefined],
    ['phone', {}, '12345', messages.phone(7, 20)],
    ['phone', {}, 'call me', messages.phone(7, 20)],
    ['mobile_phone', { validation: { minAllowedDigits: 10, maxAllowedDigits: 11 } }, '555 010 20', messages.phone(10, 11)],
    ['number', {}, '42', undefined],
    ['number', {}, '-3.5', undefined],
    ['number', {}, 'forty', messages.number],
    ['number', { validation: { minAllowedDigits: 1, maxAllowedDigits: 3 } }, '12345', messages.numberDigits(1, 3)],
    ['datepicker', {}, '2026-02-28', undefined],
    ['datepicker', {}, '2026-02-30', messages.date],
    ['datepicker', {}, '28/02/2026', messages.date],
    ['dropdown', { options, required: true }, 'red', undefined],
    ['dropdown', { options, required: true }, '', messages.requiredChoice],
    ['dropdown', { options }, 'green', messages.option],
    ['radio', { options }, 'blue', undefined],
    ['radio', { options }, ['red', 'blue'], messages.oneValue],
    ['multiple_checkboxes', { options, required: true }, ['red', 'blue'], undefined],
    ['multiple_checkboxes', { options, required: true }, [], messages.requiredChoice],
    ['multiple_checkboxes', { options }, ['red', 'green'], messages.option],
    ['single_checkbox', { required: true }, 'on', undefined],
    ['single_checkbox', { required: true }, 'false', messages.requiredCheckbox],
    ['single_checkbox', {}, undefined, undefined],
  ] as const)('%s %j with %j', (type, extra, value, expected) => {
    expect(fieldProblem(field(type, extra as Partial<FormField>), value as string | string[] | undefined)).toBe(expected);
  });
});

describe('hubspotValue', () => {
  test.each([
    ['multiple_checkboxes', ['red', ' blue '], 'red;blue'],
    ['single_checkbox', 'on', 'true'],
    ['single_checkbox', undefined, 'false'],
    ['email', ' Ana@Example.ORG ', 'ana@example.org'],
    ['single_line_text', '  Ada  ', 'Ada'],
  ] as const)('%s %j becomes %j', (type, value, expected) => {
    expect(hubspotValue(field(type), value as string | string[] | undefined)).toBe(expected);
  });
});

describe('conditionHolds', () => {
  test.each([
    [{ operator: 'eq', value: 'Parent' }, 'parent', true],
    [{ operator: 'eq', value: 'Parent' }, 'Teacher', false],
    [{ operator: 'neq', value: 'Parent' }, 'Teacher', true],
    [{ operator: 'contains', value: 'school' }, 'My School board', true],
    [{ operator: 'doesnt_contain', value: 'school' }, 'board', true],
    [{ operator: 'str_starts_with', value: 'gr' }, 'Grade 5', true],
    [{ operator: 'str_ends_with', value: '5' }, 'Grade 5', true],
    [{ operator: 'gt', value: '10' }, '11', true],
    [{ operator: 'gt', value: '10' }, '', false],
    [{ operator: 'lte', value: '10' }, '10', true],
    [{ operator: 'between', rangeStart: '1', rangeEnd: '5' }, '3', true],
    [{ operator: 'not_between', rangeStart: '1', rangeEnd: '5' }, '7', true],
    [{ operator: 'set_any', values: ['a', 'b'] }, ['b', 'c'], true],
    [{ operator: 'set_not_any', values: ['a', 'b'] }, ['c'], true],
    [{ operator: 'set_all', values: ['a', 'b'] }, ['a', 'b', 'c'], true],
    [{ operator: 'set_all', values: ['a', 'b'] }, ['a'], false],
    [{ operator: 'set_not_all', values: ['a', 'b'] }, ['a'], true],
    [{ operator: 'set_eq', values: ['a', 'b'] }, ['b', 'a'], true],
    [{ operator: 'set_neq', values: ['a', 'b'] }, ['a'], true],
    [{ operator: 'is_not_empty' }, '  ', false],
    [{ operator: 'is_not_empty' }, 'x', true],
    [{ operator: 'within_time', value: '3' }, '2026-01-01', false],
  ] as const)('%j on %j is %s', (condition, value, expected) => {
    expect(conditionHolds(condition as never, value as string | string[])).toBe(expected);
  });
});

const definition: FormDefinition = formDefinitionSchema.parse({
  id: 'form-1',
  fieldGroups: [
    {
      fields: [
        { name: 'email', label: 'Email', fieldType: 'email', required: true },
        {
          name: 'role',
          label: 'Role',
          fieldType: 'radio',
          required: true,
          options: [
            { label: 'Parent', value: 'Parent' },
            { label: 'Teacher', value: 'Teacher' },
          ],
          dependentFields: [
            {
              dependentCondition: { operator: 'eq', value: 'Parent' },
              dependentField: { name: 'child_grade', label: 'Grade', fieldType: 'single_line_text', required: true },
            },
          ],
        },
        { name: 'source', fieldType: 'single_line_text', hidden: true, defaultValue: 'site' },
      ],
    },
  ],
  legalConsentOptions: {
    type: 'explicit_consent_to_process',
    communicationsCheckboxes: [{ subscriptionTypeId: 7, label: 'Send me news', required: false }],
    privacyText: 'We keep your data safe.',
    consentToProcessText: 'I agree to let you store my details.',
  },
});

describe('checkSubmission', () => {
  const consent = { [metaFields.consentToProcess]: 'on' };

  test('a dependent field is required only while shown, and its value is dropped while hidden', () => {
    expect(visibleFields(definition, { role: 'Parent' }).map((f) => f.name)).toEqual(['email', 'role', 'child_grade', 'source']);
    expect(visibleFields(definition, { role: 'Teacher' }).map((f) => f.name)).toEqual(['email', 'role', 'source']);

    const missing = checkSubmission(definition, { email: 'a@b.org', role: 'Parent', ...consent });
    expect(missing.errors).toEqual({ child_grade: messages.required });

    const teacher = checkSubmission(definition, { email: 'a@b.org', role: 'Teacher', child_grade: '5', ...consent });
    expect(teacher.errors).toEqual({});
    expect(teacher.values).toEqual({ email: 'a@b.org', role: 'Teacher', source: 'site' });
  });

  test('hidden fields take the page value, else their default', () => {
    const given = checkSubmission(definition, { email: 'a@b.org', role: 'Teacher', source: '/form|ambassador:7', ...consent });
    expect(given.values.source).toBe('/form|ambassador:7');
  });

  test('a name the form does not have is refused, named', () => {
    const result = checkSubmission(definition, { email: 'a@b.org', role: 'Teacher', is_admin: 'true', ...consent });
    expect(result.errors).toEqual({ is_admin: messages.unknown });
  });

  test('explicit consent to process is required; communication boxes are reported as given', () => {
    const refused = checkSubmission(definition, { email: 'a@b.org', role: 'Teacher' });
    expect(refused.errors).toEqual({ [metaFields.consentToProcess]: messages.consentToProcess });

    const given = checkSubmission(definition, { email: 'a@b.org', role: 'Teacher', ...consent, [consentFieldName(7)]: 'on' });
    expect(given.consent).toEqual({ toProcess: true, communications: [{ subscriptionTypeId: 7, value: true, text: 'Send me news' }] });
  });
});

describe('unsupportedParts', () => {
  test.each([
    [{ name: 'cv', fieldType: 'file' }, ['cv (file)']],
    [{ name: 'pay', fieldType: 'payment_link_radio' }, ['pay (payment_link_radio)']],
    [{ name: 'email', fieldType: 'email' }, []],
  ])('%j', (extra, expected) => {
    const parsed = formDefinitionSchema.parse({ id: 'x', fieldGroups: [{ fields: [extra] }] });
    expect(unsupportedParts(parsed)).toEqual(expected);
  });

  test('reCAPTCHA and relative-time conditions', () => {
    const parsed = formDefinitionSchema.parse({
      id: 'x',
      configuration: { recaptchaEnabled: true },
      fieldGroups: [
        {
          fields: [
            {
              name: 'when',
              fieldType: 'datepicker',
              dependentFields: [
                { dependentCondition: { operator: 'within_time', value: '3' }, dependentField: { name: 'soon', fieldType: 'single_line_text' } },
              ],
            },
          ],
        },
      ],
    });
    expect(unsupportedParts(parsed)).toEqual(['soon (condition "within_time")', 'reCAPTCHA (configuration.recaptchaEnabled)']);
  });
});
