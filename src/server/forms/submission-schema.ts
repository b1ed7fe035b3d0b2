/**
 * The zod schema of a submission to one form, built from its definition: what POST
 * /api/forms/{formId} accepts. The field rules and their words are the ones the browser's inline
 * checks use (`values.ts`), so a visitor sees the same message with or without the server.
 *
 * Input: the form's fields by name, each a string (numbers and booleans from JSON are taken as
 * text) or a list of them for a checkbox group. Output: the accepted values as HubSpot takes them
 * and the consent given. A problem is reported on the field's name, one message per field.
 */
import { z } from 'zod';
import type { Locale } from '../../config/locales';
import type { FormDefinition } from '../../lib/shared/forms/definition';
import { allFields } from '../../lib/shared/forms/fields';
import { allowedExtraNames, checkSubmission, messages, type CheckedSubmission, type RawValues } from '../../lib/shared/forms/values';

/** Most values a checkbox group may post for one field. */
export const MAX_VALUES_PER_FIELD = 100;

const scalar = z.union([z.string(), z.number(), z.boolean()], { error: 'Please give this field a text value.' }).transform(String);

/** One posted value: text (a number or boolean from JSON reads as text) or a list for a checkbox group. */
export const rawValueSchema = z.union([scalar, z.array(scalar).max(MAX_VALUES_PER_FIELD, messages.oneValue)], {
  error: 'Please give this field a text value.',
});

export type SubmissionSchema = z.ZodType<Omit<CheckedSubmission, 'errors'>, unknown>;

/**
 * The schema of one form. `extraNames` are accepted besides the fields, consent boxes and the
 * site's own meta fields (and left out of the values).
 */
export function submissionSchema(definition: FormDefinition, extraNames: Iterable<string> = [], locale: Locale = 'en'): SubmissionSchema {
  const known = [...new Set([...allFields(definition).map((field) => field.name), ...allowedExtraNames(definition), ...extraNames])];
  const shape = Object.fromEntries(known.map((name) => [name, rawValueSchema.optional()]));
  return z
    .object(shape)
    .catchall(z.unknown())
    .superRefine((raw, context) => {
      // Unknown names, missing and wrong values: every problem named on its field.
      const { errors } = checkSubmission(definition, raw as RawValues, extraNames, locale);
      for (const [name, message] of Object.entries(errors)) context.addIssue({ code: 'custom', path: [name], message });
    })
    .transform((raw) => {
      const { values, consent } = checkSubmission(definition, raw as RawValues, extraNames, locale);
      return { values, consent };
    }) as unknown as SubmissionSchema;
}

/** The first message per field name of a refused submission; problems without a field under "". */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const name = issue.path.length ? String(issue.path[0]) : '';
    if (!(name in out)) out[name] = issue.message;
  }
  return out;
}
