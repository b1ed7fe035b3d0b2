/**
 * A form as HubSpot's Marketing Forms v3 API describes it (`GET /marketing/v3/forms/{formId}`),
 * reduced to what the site renders, validates and submits. The committed definitions in
 * `content/forms/*.yaml` are written in the same shape, so a definition pulled from HubSpot and
 * a committed one go through this one schema: one definition drives the HTML, the endpoint's
 * validation and the admin's view of a submission. Pure helpers over a definition, which the
 * browser uses too, are in `fields.ts` (this module pulls in zod).
 */
import { z } from 'zod';

/** Every field type HubSpot's v3 API knows. */
export const fieldTypes = [
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
  'file',
  'payment_link_radio',
] as const;
export type FieldType = (typeof fieldTypes)[number];

/** HubSpot's dependent-field operators (`DependentFieldFilter.operator`). */
export const conditionOperators = [
  'eq',
  'neq',
  'contains',
  'doesnt_contain',
  'str_starts_with',
  'str_ends_with',
  'lt',
  'lte',
  'gt',
  'gte',
  'between',
  'not_between',
  'within_time_reverse',
  'within_time',
  'set_any',
  'set_not_any',
  'set_all',
  'set_not_all',
  'set_eq',
  'set_neq',
  'is_not_empty',
] as const;
export type ConditionOperator = (typeof conditionOperators)[number];

/** A HubSpot property's internal name, e.g. `school_contact_email`. */
const fieldName = z.string().regex(/^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$/, 'use the HubSpot property name: letters, digits and _, e.g. "school_name"');

export const optionSchema = z.object({
  /** Shown to the visitor, e.g. "Send via our platform". */
  label: z.string().min(1).max(500),
  /** Sent to HubSpot; the property's internal option value. */
  value: z.string().max(500),
  displayOrder: z.number().int().optional(),
  description: z.string().max(1000).optional(),
});
export type FieldOption = z.infer<typeof optionSchema>;

export const conditionSchema = z.object({
  operator: z.enum(conditionOperators),
  value: z.string().max(500).optional(),
  values: z.array(z.string().max(500)).max(100).optional(),
  rangeStart: z.string().max(100).optional(),
  rangeEnd: z.string().max(100).optional(),
});
export type FieldCondition = z.infer<typeof conditionSchema>;

export const validationSchema = z.object({
  /** Number and phone fields: digits allowed. */
  minAllowedDigits: z.number().int().nonnegative().optional(),
  maxAllowedDigits: z.number().int().positive().optional(),
  /** Email fields: domains refused, e.g. ["example.com"]. */
  blockedEmailDomains: z.array(z.string().max(253)).max(500).optional(),
  useDefaultBlockList: z.boolean().optional(),
});

const fieldShape = {
  /** HubSpot's object type: 0-1 is a contact, 0-2 a company. */
  objectTypeId: z
    .string()
    .regex(/^\d+-\d+$/)
    .default('0-1'),
  name: fieldName,
  fieldType: z.enum(fieldTypes),
  /** The field's label, e.g. "School contact email". May be empty for a hidden field. */
  label: z.string().max(500).default(''),
  /** Help text shown under the label. Plain text. */
  description: z.string().max(2000).optional(),
  placeholder: z.string().max(500).optional(),
  required: z.boolean().default(false),
  /** A hidden field: not shown, submitted with its default (or a value the page fills in). */
  hidden: z.boolean().default(false),
  defaultValue: z.string().max(2000).optional(),
  defaultValues: z.array(z.string().max(500)).max(100).optional(),
  options: z.array(optionSchema).max(500).optional(),
  validation: validationSchema.optional(),
};

export interface FormField extends z.infer<z.ZodObject<typeof fieldShape>> {
  /** Fields shown only while this field's value meets their condition. */
  dependentFields: Array<{ dependentCondition: FieldCondition; dependentField: FormField }>;
}

export const fieldSchema: z.ZodType<FormField, unknown> = z.lazy(() =>
  z.object({
    ...fieldShape,
    dependentFields: z
      .array(z.object({ dependentCondition: conditionSchema, dependentField: fieldSchema }))
      .max(50)
      .default([]),
  }),
) as unknown as z.ZodType<FormField, unknown>;

export const fieldGroupSchema = z.object({
  groupType: z.enum(['default_group', 'progressive', 'queued']).default('default_group'),
  richTextType: z.enum(['text', 'image']).default('text'),
  /** Rich text shown before the group's fields (HTML, sanitised when rendered). */
  richText: z.string().max(10_000).optional(),
  fields: z.array(fieldSchema).max(100).default([]),
});
export type FieldGroup = z.infer<typeof fieldGroupSchema>;

const communicationCheckbox = z.object({
  subscriptionTypeId: z.number().int(),
  label: z.string().max(2000),
  required: z.boolean().default(false),
});

/** HubSpot's four kinds of legal consent (`legalConsentOptions.type`). */
export const legalConsentSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('none') }),
  z.object({
    type: z.literal('implicit_consent_to_process'),
    communicationsCheckboxes: z.array(communicationCheckbox).max(20).default([]),
    communicationConsentText: z.string().max(5000).optional(),
    privacyText: z.string().max(5000).default(''),
    consentToProcessText: z.string().max(5000).optional(),
  }),
  z.object({
    type: z.literal('explicit_consent_to_process'),
    communicationsCheckboxes: z.array(communicationCheckbox).max(20).default([]),
    communicationConsentText: z.string().max(5000).optional(),
    consentToProcessCheckboxLabel: z.string().max(2000).optional(),
    consentToProcessFooterText: z.string().max(5000).optional(),
    privacyText: z.string().max(5000).default(''),
    consentToProcessText: z.string().max(5000).optional(),
  }),
  z.object({
    type: z.literal('legitimate_interest'),
    subscriptionTypeIds: z.array(z.number().int()).max(20).default([]),
    lawfulBasis: z.enum(['lead', 'client', 'other']).default('lead'),
    privacyText: z.string().max(5000).default(''),
  }),
]);
export type LegalConsent = z.infer<typeof legalConsentSchema>;

export const formDefinitionSchema = z.object({
  /** HubSpot's form id (a GUID). */
  id: z.string().min(1).max(100),
  /** The form's name in HubSpot, e.g. "Email generator". */
  name: z.string().max(300).default(''),
  fieldGroups: z.array(fieldGroupSchema).min(1).max(100),
  configuration: z
    .object({
      language: z.string().max(10).default('en'),
      /** What the visitor sees after a submission: a thank-you message (HTML) or another page. */
      postSubmitAction: z
        .object({ type: z.enum(['thank_you', 'redirect_url']), value: z.string().max(10_000) })
        .default({ type: 'thank_you', value: 'Thanks for submitting the form.' }),
      /** A form that requires reCAPTCHA cannot be submitted through the API. */
      recaptchaEnabled: z.boolean().default(false),
    })
    .default({ language: 'en', postSubmitAction: { type: 'thank_you', value: 'Thanks for submitting the form.' }, recaptchaEnabled: false }),
  displayOptions: z.object({ submitButtonText: z.string().max(200).default('Submit') }).default({ submitButtonText: 'Submit' }),
  legalConsentOptions: legalConsentSchema.default({ type: 'none' }),
});
export type FormDefinition = z.infer<typeof formDefinitionSchema>;
