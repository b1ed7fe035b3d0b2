/**
 * The partnership application in Spanish (issue 48, /es/partnership-form): its labels, choices,
 * button and thanks in Spanish, its problems answered in Spanish by the server naming the fields as
 * the Spanish page labels them, with and without JavaScript, and a Spanish form's success leading to
 * the Spanish page (a redirect to /thank-you becomes /es/thank-you). What is posted does not change.
 */
import { describe, expect, test } from 'vitest';
import formSubmitted from '../../netlify/functions/form-submitted.mts';
import { formWordsPlaces } from '../../src/config/forms';
import { localizeDefinition } from '../../src/lib/shared/forms/localize';
import { renderForm } from '../../src/lib/shared/forms/render';
import { redirectIn } from '../../src/server/forms/submit';
import { serverWordsOf } from '../../src/server/words';
import { committedDefinitions, postForm, useFormDefinitions, useFormsFunctionSite } from './helpers/forms';

const place = formWordsPlaces.partnership!;

describe('the partnership form’s words', () => {
  test('the English words are the committed form’s own', async () => {
    const { partnership } = await committedDefinitions();
    expect(localizeDefinition(partnership, await serverWordsOf('en'), place)).toEqual(partnership);
  });

  test('in Spanish the labels, hints, choices, button and thanks change; names and values do not', async () => {
    const { partnership } = await committedDefinitions();
    const spanish = localizeDefinition(partnership, await serverWordsOf('es'), place);
    const html = renderForm(spanish, { purpose: 'partnership', instance: 'form-partnership', page: '/es/partnership-form', locale: 'es' });
    for (const words of ['Nombre de la escuela', 'Su relación con la escuela', 'Madre, padre o tutor', 'p. ej., director de la escuela', 'Enviar la solicitud'])
      expect(html).toContain(words);
    expect(html).toContain('name="_locale" value="es"');
    expect(html).toContain('value="School leader"');
    for (const english of ['School name', 'Your relationship', 'Submit application', '>Board member<']) expect(html).not.toContain(english);
    const shape = (definition: typeof partnership) =>
      definition.fieldGroups.flatMap((group) =>
        group.fields.map((field) => [field.name, field.fieldType, field.required, field.options?.map((option) => option.value)]),
      );
    expect(shape(spanish)).toEqual(shape(partnership));
  });
});

describe('where a Spanish form leads', () => {
  test('a page that has Spanish is given in Spanish, its query and fragment kept; others stay as they are', () => {
    expect(redirectIn('/thank-you', 'es')).toBe('/es/thank-you');
    expect(redirectIn('/thank-you?from=form#top', 'es')).toBe('/es/thank-you?from=form#top');
    expect(redirectIn('/thank-you', 'en')).toBe('/thank-you');
    expect(redirectIn('/webinar-thank-you', 'es')).toBe('/es/webinar-thank-you');
    expect(redirectIn('/form', 'es')).toBe('/form');
    expect(redirectIn('/blogs-insights', 'es')).toBe('/es/blogs-insights');
    expect(redirectIn('https://example.org/thank-you', 'es')).toBe('https://example.org/thank-you');
    expect(redirectIn(undefined, 'es')).toBeUndefined();
  });
});

describe('the forms function, for the partnership form from a Spanish page', () => {
  useFormsFunctionSite();
  let ip = 0;
  const filled = () => ({
    firstname: 'Ana',
    lastname: 'López',
    email: `ana-${Date.now()}-${++ip}@example.org`,
    phone: '+1 555 010 2030',
    school_name: 'Oakwood Academy',
    city: 'Austin',
    state: 'TX',
    relationship_to_school: 'School leader',
    jobtitle: 'Directora',
  });

  const post = (values: Record<string, string>, browser = false) => postForm('partnership', values, { browser, ip: `198.51.100.${++ip}` });

  test('its problems come back in Spanish, naming the fields as the Spanish page labels them', async () => {
    const response = await post({ _page: '/es/partnership-form', _locale: 'es', relationship_to_school: 'School leader', phone: '12' });
    expect(response.status).toBe(400);
    const { error } = await response.json();
    expect(error.message).toBe(
      'Por favor, revise estos campos: Nombre, Apellido, Correo electrónico, Número de teléfono, Nombre de la escuela, Ciudad, Estado, Su cargo.',
    );
    expect(error.fields.firstname).toBe('Por favor, llene este campo.');
    expect(error.fields.phone).toBe('Por favor, escriba un número de teléfono de 7 a 20 dígitos.');
  });

  test('from the English page the same problems stay English', async () => {
    const response = await post({ _page: '/partnership-form', firstname: 'Ana' });
    expect((await response.json()).error.message).toBe(
      'Please check these fields: Last name, Email, Phone number, School name, City, State, Your relationship to the school.',
    );
  });

  test('without JavaScript, the problems come back on /es/form-response with the Spanish form', async () => {
    const response = await post({ _page: '/es/partnership-form', _locale: 'es' }, true);
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('lang="es"');
    expect(html).toContain('Por favor, revise estos campos: Nombre, Apellido');
    expect(html).toContain('Su relación con la escuela');
    expect(html).toContain('name="_locale" value="es"');
    expect(html).not.toContain('School name');
  });

  test('without JavaScript, a Spanish application is thanked in Spanish on /es/form-response', async () => {
    const response = await post({ _page: '/es/partnership-form', _locale: 'es', ...filled() }, true);
    expect(response.status).toBe(303);
    const location = response.headers.get('location')!;
    expect(location).toBe('/forms/submitted?form=partnership&page=%2Fes%2Fpartnership-form');
    const page = await formSubmitted(new Request(`http://localhost${location}`));
    const html = await page.text();
    expect(html).toContain('lang="es"');
    expect(html).toContain('¡Gracias por su solicitud!');
    expect(html).toContain('href="/es/partnership-form"');
    expect(html).not.toContain('Thank you for applying');
  });

  test('a form that leads to /thank-you leads a Spanish visitor to /es/thank-you, with and without JavaScript; an English one stays', async () => {
    const before = process.env.FORM_DEFINITIONS_FILE;
    const changed = await useFormDefinitions((definitions) => {
      definitions.partnership.configuration.postSubmitAction = { type: 'redirect_url', value: '/thank-you' };
    });
    try {
      const json = await post({ _page: '/es/partnership-form', _locale: 'es', ...filled() });
      expect(json.status).toBe(201);
      expect((await json.json()).redirect).toBe('/es/thank-you');
      const browser = await post({ _page: '/es/partnership-form', _locale: 'es', ...filled() }, true);
      expect(browser.status).toBe(303);
      expect(browser.headers.get('location')).toBe('/es/thank-you');
      const english = await post({ _page: '/partnership-form', ...filled() });
      expect((await english.json()).redirect).toBe('/thank-you');
    } finally {
      changed.remove();
      process.env.FORM_DEFINITIONS_FILE = before;
    }
  });
});
