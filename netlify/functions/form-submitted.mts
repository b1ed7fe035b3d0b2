import type { Config } from '@netlify/functions';
import { formPurposes, type FormPurpose } from '../../src/config/forms';
import { formDefinitions } from '../../src/server/forms/definitions';
import { splitLocale } from '../../src/lib/shared/i18n/paths';
import { definitionIn } from '../../src/server/forms/in-locale';
import { problemPage, safePagePath, submittedPage } from '../../src/server/pages/frame';

/**
 * GET /forms/submitted?form={purpose}&page={path}: where a visitor without JavaScript lands after
 * one of the site's forms accepted their submission (POST, then 303 here): the form's thank-you
 * message and the way back to the page they were on. Nothing personal is in the address. A form
 * that has words in the page's language (a page under /es) thanks in it, in that language's frame.
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
  const { locale } = splitLocale(page ?? '/');
  const shown = await definitionIn(definition, locale);
  return submittedPage(shown, page, shown === definition ? undefined : locale);
};

export const config: Config = {
  path: '/forms/submitted',
};
