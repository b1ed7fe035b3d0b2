/**
 * The inline checks only the email forms need (their names are names, and the parent's own words
 * follow the note's rules): loaded by `<native-form>` only on a form that carries the parent's own
 * words, so that a page with only a newsletter form never downloads them.
 */
import type { Locale } from '../../../config/locales';
import type { RawValues } from '../../shared/forms/values';
import { emailFormProblems } from '../../shared/email/fields';
import { personalFieldNames } from '../../shared/email/note';

export interface ExtraFormChecks {
  /** Fields the form has beside its definition's (the parent's own words). */
  extraNames: readonly string[];
  /** Problems with the values, by field name, in the same words as the server's. */
  problems: (values: RawValues, locale?: Locale) => Record<string, string>;
}

export const emailFormChecks: ExtraFormChecks = {
  extraNames: personalFieldNames,
  problems: (values, locale) => emailFormProblems(values, locale),
};
