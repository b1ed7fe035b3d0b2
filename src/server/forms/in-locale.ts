/** A form's definition in the language of the page that shows it. */
import { formWordsPlaces, type FormPurpose } from '../../config/forms';
import { defaultLocale, type Locale } from '../../config/locales';
import type { FormDefinition } from '../../lib/shared/forms/definition';
import { localizeDefinition } from '../../lib/shared/forms/localize';
import { serverWordsOf } from '../words';

/**
 * The definition as a page in `locale` shows it: with that language's words when the form has
 * them (`formWordsPlaces`), else as it is (the page showed it in English).
 */
export async function definitionIn<D extends FormDefinition>(definition: D & { purpose: string }, locale: Locale): Promise<D> {
  const place = formWordsPlaces[definition.purpose as FormPurpose];
  if (locale === defaultLocale || !place) return definition;
  return localizeDefinition(definition, await serverWordsOf(locale), place);
}
