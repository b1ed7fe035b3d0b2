import type { Config } from '@netlify/functions';
import { formPurposes, type FormPurpose } from '../../src/config/forms';
import { formDefinitions } from '../../src/server/forms/definitions';
import { defaultLocale } from '../../src/config/locales';
import { splitLocale } from '../../src/lib/i18n/paths';
import { definitionIn } from '../../src/server/forms/submit';
import { problemPage, safePagePath, submittedPage } from '../../src/server/pages/frame';

/**
 * GET /forms/submitted?form={purpose}&page={path}: where a visitor without JavaScript lands after
 * one of the site's forms accepted their submission (POST, then 303 here): the form's thank-you
 * message and the way back to the page they were on, in the page's language when the form has words
 * in it (/es/partnership-form thanks in Spanish). Nothing personal is in the address.
 */
export default async (req: Request): Promise<Response> => {
  const url = new URL(req.url);
  const page = safePagePath(url.searchParams.get('page'));
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return problemPage(405, 'Not available', 'This address only shows the answer to a form.', page);
  }
  const purpose = url.searchParams.get('form');
  const definition = formPurposes.includes(purpose as FormPurpose)
    ? [...(await formDefinitions()).values()].find((entry) => entry.purpose === purpose)
    : undefined;
  if (!definition) return problemPage(404, 'Form not found', 'We could not tell which form this answer belongs to.', page);
  // The page it was sent from says the language: a form with words in it thanks in that language.
  const { locale } = splitLocale(page ?? '/');
  const shown = await definitionIn(definition, locale);
  return submittedPage(shown, page, shown === definition ? defaultLocale : locale);
};

export const config: Config = {
  path: '/forms/submitted',
};
