/**
 * The zod schema POST /api/forms/{formId} builds from a form definition: each field type accepts
 * what HubSpot takes and refuses the rest with the field named, dependent fields follow their
 * condition, consent is required where the definition says, and nothing unknown gets through.
 */
import { describe, expect, test } from 'vitest';
import { formDefinitionSchema, type FieldType, type FormDefinition } from '../../src/lib/shared/forms/definition';
import { fieldErrors, submissionSchema } from '../../src/server/forms/submission-schema';
import { messages } from '../../src/lib/shared/forms/values';
import { startHubSpotFake } from '../fakes/hubspot';
import { fetchDefinition } from '../../src/content-loaders/forms';
import { hubspotClient } from '../../src/server/hubspot';

const options = [
  { label: 'Red', value: 'red' },
  { label: 'Blue', value: 'blue' },
];

function formWith(fieldType: FieldType, extra: Record<string, unknown> = {}): FormDefinition {
  return formDefinitionSchema.parse({
    id: 'form-1',
    fieldGroups: [
      {
        fields: [
          {
            name: 'answer',
            label: 'Answer',
            fieldType,
            required: true,
            ...(['dropdown', 'radio', 'multiple_checkboxes'].includes(fieldType) ? { options } : {}),
            ...extra,
          },
        ],
      },
    ],
  });
}

function check(definition: FormDefinition, raw: unknown) {
  const result = submissionSchema(definition).safeParse(raw);
  return result.success ? { values: result.data.values, errors: {} } : { values: undefined, errors: fieldErrors(result.error) };
}

describe('each field type', () => {
  const cases: Array<[FieldType, unknown, string | undefined, string | undefined]> = [
    // [type, posted value, accepted as, refused with]
    ['single_line_text', 'Oakwood Academy', 'Oakwood Academy', undefined],
    ['single_line_text', '', undefined, messages.required],
    ['single_line_text', 'x'.repeat(2001), undefined, messages.tooLong(2000)],
    ['single_line_text', 42, '42', undefined],
    ['single_line_text', { not: 'text' }, undefined, 'Please give this field a text value.'],
    ['email', 'Head@Oakwood.EDU', 'head@oakwood.edu', undefined],
    ['email', 'head@', undefined, messages.email],
    ['phone', '+1 (555) 010-2030', '+1 (555) 010-2030', undefined],
    ['phone', '555', undefined, messages.phone(7, 20)],
    ['phone', 'call me', undefined, messages.phone(7, 20)],
    ['mobile_phone', '07700 900123', '07700 900123', undefined],
    ['number', '250', '250', undefined],
    ['number', 'many', undefined, messages.number],
    ['multi_line_text', 'Line one\nLine two', 'Line one\nLine two', undefined],
    ['dropdown', 'blue', 'blue', undefined],
    ['dropdown', 'green', undefined, messages.option],
    ['dropdown', '', undefined, messages.requiredChoice],
    ['radio', 'red', 'red', undefined],
    ['radio', ['red', 'blue'], undefined, messages.oneValue],
    ['multiple_checkboxes', ['red', 'blue'], 'red;blue', undefined],
    ['multiple_checkboxes', ['red', 'green'], undefined, messages.option],
    ['multiple_checkboxes', [], undefined, messages.requiredChoice],
    ['single_checkbox', 'on', 'true', undefined],
    ['single_checkbox', true, 'true', undefined],
    ['single_checkbox', '', undefined, messages.requiredCheckbox],
    ['datepicker', '2026-02-28', '2026-02-28', undefined],
    ['datepicker', '2026-02-30', undefined, messages.date],
  ];
  test.each(cases)('%s: %j', (type, posted, accepted, refused) => {
    const { values, errors } = check(formWith(type), { answer: posted });
    if (refused) {
      expect(errors).toEqual({ answer: refused });
    } else {
      expect(errors).toEqual({});
      expect(values?.answer).toBe(accepted);
    }
  });

  test('digit limits come from the definition', () => {
    const definition = formWith('number', { validation: { minAllowedDigits: 2, maxAllowedDigits: 3 } });
    expect(check(definition, { answer: '7' }).errors).toEqual({ answer: messages.numberDigits(2, 3) });
    expect(check(definition, { answer: '700' }).values?.answer).toBe('700');
  });

  test('blocked email domains come from the definition', () => {
    const definition = formWith('email', { validation: { blockedEmailDomains: ['mailinator.com'] } });
    expect(check(definition, { answer: 'x@mailinator.com' }).errors).toEqual({ answer: messages.blockedEmail });
  });

  test('an optional field may be left out or empty', () => {
    const definition = formWith('single_line_text', { required: false });
    expect(check(definition, {}).errors).toEqual({});
    expect(check(definition, { answer: '' }).values).toEqual({ answer: '' });
  });
});

describe('the whole form', () => {
  const definition = formDefinitionSchema.parse({
    id: 'form-2',
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
          { name: 'referral_source', fieldType: 'single_line_text', hidden: true, defaultValue: 'website' },
        ],
      },
    ],
    legalConsentOptions: {
      type: 'explicit_consent_to_process',
      communicationsCheckboxes: [{ subscriptionTypeId: 7, label: 'Emails', required: false }],
      privacyText: 'We keep it safe.',
    },
  });

  test('a dependent field is required while its condition holds and dropped while it does not', () => {
    expect(check(definition, { email: 'a@b.org', role: 'Parent', _consent_process: 'true' }).errors).toEqual({ child_grade: messages.required });
    const teacher = check(definition, { email: 'a@b.org', role: 'Teacher', child_grade: '5', _consent_process: 'true' });
    expect(teacher.errors).toEqual({});
    expect(teacher.values).not.toHaveProperty('child_grade');
  });

  test('hidden fields take their default; consent to process is required; communications are optional', () => {
    const result = submissionSchema(definition).parse({ email: 'a@b.org', role: 'Parent', child_grade: 'K', _consent_process: 'on' });
    expect(result.values).toEqual({ email: 'a@b.org', role: 'Parent', child_grade: 'K', referral_source: 'website' });
    expect(result.consent).toEqual({ toProcess: true, communications: [{ subscriptionTypeId: 7, value: false, text: 'Emails' }] });
    expect(check(definition, { email: 'a@b.org', role: 'Teacher' }).errors).toEqual({ _consent_process: messages.consentToProcess });
  });

  test('every problem is named on its field, unknown names too', () => {
    const { errors } = check(definition, { email: 'nope', role: 'Pilot', colour: 'red', _consent_process: 'true' });
    expect(errors).toEqual({ email: messages.email, role: messages.option, colour: messages.unknown });
  });

  test('extra names the caller allows pass through and stay out of the values', () => {
    const result = submissionSchema(definition, ['_note']).parse({ email: 'a@b.org', role: 'Teacher', _consent_process: 'true', _note: 'hi' });
    expect(result.values).not.toHaveProperty('_note');
  });
});

test('a definition from the HubSpot fake builds the same schema as the committed one', async () => {
  const fake = await startHubSpotFake();
  try {
    const form = fake.addForm({
      id: 'hs-form',
      fieldGroups: [
        {
          fields: [
            { name: 'email', label: 'Email', fieldType: 'email', required: true },
            { name: 'topic', label: 'Topic', fieldType: 'dropdown', options },
          ],
        },
      ],
    });
    process.env.HUBSPOT_BASE_PATH = fake.url;
    const raw = await fetchDefinition(hubspotClient(fake.token), form.id);
    const definition = formDefinitionSchema.parse(raw);
    expect(check(definition, { email: 'a@b.org', topic: 'blue' }).values).toEqual({ email: 'a@b.org', topic: 'blue' });
    expect(check(definition, { email: 'a@b.org', topic: 'pink' }).errors).toEqual({ topic: messages.option });
  } finally {
    delete process.env.HUBSPOT_BASE_PATH;
    await fake.close();
  }
});
