/**
 * The webinar sign-up (/es/events-webinars) and the advocacy resources form (/es/lead-the-change's
 * Step 2, where /es/resources' toolkit card leads) in Spanish (issue 48): their words, their
 * problems answered in Spanish by the server naming the fields as the Spanish page labels them, a
 * Spanish sign-up led to /es/webinar-thank-you (with and without JavaScript), the resources' thanks
 * in Spanish without JavaScript; and the dates and counts of the events pages through Intl.
 */
import { describe, expect, test } from 'vitest';
import formSubmitted from '../../netlify/functions/form-submitted.mts';
import { formWordsPlaces, type FormPurpose } from '../../src/config/forms';
import { liveWebinar } from '../../src/config/webinar';
import { localizeDefinition } from '../../src/lib/shared/forms/localize';
import { renderForm } from '../../src/lib/shared/forms/render';
import { formatEventDay, formatEventTime, formatShortCount, formatShortDate } from '../../src/lib/shared/i18n/format';
import { MissingWordsError, translator } from '../../src/lib/shared/i18n/translator';
import { redirectIn } from '../../src/server/forms/submit';
import { readLocaleWords, serverWordsOf } from '../../src/server/words';
import { committedDefinitions, postForm, useFormsFunctionSite } from './helpers/forms';

describe('the webinar sign-up’s and resources form’s words', () => {
  test.each(['webinarSignup', 'resources'] as const)('%s: the English words are the committed form’s own', async (purpose) => {
    const definitions = await committedDefinitions();
    expect(localizeDefinition(definitions[purpose], await serverWordsOf('en'), formWordsPlaces[purpose]!)).toEqual(definitions[purpose]);
  });

  test('the Spanish sign-up: labels, hint, checkbox and button in Spanish; names, types and rules as the English', async () => {
    const { webinarSignup } = await committedDefinitions();
    const spanish = localizeDefinition(webinarSignup, await serverWordsOf('es'), formWordsPlaces.webinarSignup!);
    const html = renderForm(spanish, { purpose: 'webinarSignup', instance: 'form-webinarSignup', page: '/es/events-webinars', locale: 'es' });
    for (const words of [
      'Nombre',
      'Correo electrónico',
      'Número de teléfono',
      'Me gustaría llevar este modelo',
      'Reservar mi lugar',
      'name="_locale" value="es"',
    ])
      expect(html).toContain(words);
    for (const english of ['Save my seat', 'Phone number', 'Optional, for a text reminder', 'Fields marked']) expect(html).not.toContain(english);
    const shape = (definition: typeof webinarSignup) =>
      definition.fieldGroups.flatMap((group) => group.fields.map((field) => [field.name, field.fieldType, field.required]));
    expect(shape(spanish)).toEqual(shape(webinarSignup));
    expect(spanish.configuration.postSubmitAction).toEqual({ type: 'redirect_url', value: '/webinar-thank-you' });
  });

  test('the Spanish resources form: its choices in Spanish, their values as the English', async () => {
    const { resources } = await committedDefinitions();
    const spanish = localizeDefinition(resources, await serverWordsOf('es'), formWordsPlaces.resources!);
    const field = spanish.fieldGroups[1]?.fields[0];
    expect(field?.label).toBe('¿Qué recursos le gustaría recibir?');
    expect(field?.options?.map((option) => [option.value, option.label])).toEqual([
      ['social_media_templates', 'Plantillas para redes sociales'],
      ['visual_graphics', 'Gráficos'],
      ['fact_sheets', 'Hojas informativas'],
    ]);
    expect(spanish.configuration.postSubmitAction).toEqual({ type: 'thank_you', value: '¡Gracias! Los recursos van en camino a su correo electrónico.' });
  });

  test('a choice the Spanish words lack stops the build, naming the key and the file', async () => {
    const { resources } = await committedDefinitions();
    const { es = {} } = await readLocaleWords();
    const { 'resourcesForm.fields.resources_wanted.options.3.label': _dropped, ...rest } = es;
    expect(() => localizeDefinition(resources, translator(rest, 'content/i18n/es'), 'resourcesForm')).toThrow(MissingWordsError);
    expect(() => localizeDefinition(resources, translator(rest, 'content/i18n/es'), 'resourcesForm')).toThrow(
      '"resourcesForm.fields.resources_wanted.options.3.label" is missing in content/i18n/es/resourcesForm.yaml',
    );
  });
});

describe('where a sign-up leads in its language (redirectIn)', () => {
  test.each([
    ['/webinar-thank-you', 'es', '/es/webinar-thank-you'],
    ['/webinar-thank-you?from=form#top', 'es', '/es/webinar-thank-you?from=form#top'],
    ['/webinar-thank-you', 'en', '/webinar-thank-you'],
    // A page Spanish does not have yet, an address elsewhere, a page already Spanish: as given.
    ['/form', 'es', '/form'],
    // The blog has Spanish now (its list).
    ['/blogs-insights', 'es', '/es/blogs-insights'],
    ['https://example.org/thanks', 'es', 'https://example.org/thanks'],
    ['//example.org/webinar-thank-you', 'es', '//example.org/webinar-thank-you'],
    ['/es/webinar-thank-you', 'es', '/es/webinar-thank-you'],
  ] as const)('%s from a %s page → %s', (redirect, locale, expected) => {
    expect(redirectIn(redirect, locale)).toBe(expected);
  });
});

describe('the forms function, for the sign-up and the resources from Spanish pages', () => {
  useFormsFunctionSite();
  let ip = 0;

  const post = (purpose: FormPurpose, values: Record<string, string | string[]>, browser = false) =>
    postForm(purpose, values, { browser, ip: `198.51.100.${++ip}` });

  test('the empty sign-up’s problems come back in Spanish, naming the fields as the page labels them', async () => {
    const response = await post('webinarSignup', { _page: '/es/events-webinars', _locale: 'es' });
    expect(response.status).toBe(400);
    const { error } = await response.json();
    expect(error.message).toBe('Por favor, revise estos campos: Nombre, Correo electrónico.');
    expect(error.fields).toEqual({ firstname: 'Por favor, llene este campo.', email: 'Por favor, llene este campo.' });
  });

  test('from the English page the same problems stay English', async () => {
    const response = await post('webinarSignup', { _page: '/events-webinars' });
    expect((await response.json()).error.message).toBe('Please check these fields: Name, Email.');
  });

  test('a Spanish sign-up leads to /es/webinar-thank-you, an English one to /webinar-thank-you', async () => {
    const spanish = await post('webinarSignup', { _page: '/es/events-webinars', _locale: 'es', firstname: 'Ana', email: `ana-${Date.now()}@example.org` });
    expect(spanish.status).toBe(201);
    expect((await spanish.json()).redirect).toBe('/es/webinar-thank-you');
    const english = await post('webinarSignup', { _page: '/events-webinars', firstname: 'Ann', email: `ann-${Date.now()}@example.org` });
    expect((await english.json()).redirect).toBe('/webinar-thank-you');
  });

  test('without JavaScript: the problems on /es/form-response in Spanish, the sign-up then to /es/webinar-thank-you', async () => {
    const invalid = await post('webinarSignup', { _page: '/es/events-webinars', _locale: 'es', firstname: 'Ana', email: 'nope' }, true);
    expect(invalid.status).toBe(400);
    const html = await invalid.text();
    expect(html).toContain('<html lang="es"');
    expect(html).toContain('Por favor, revise este campo: Correo electrónico.');
    expect(html).toContain('Reservar mi lugar');
    const sent = await post(
      'webinarSignup',
      { _page: '/es/events-webinars', _locale: 'es', firstname: 'Ana', email: `ana-nojs-${Date.now()}@example.org` },
      true,
    );
    expect(sent.status).toBe(303);
    expect(sent.headers.get('location')).toBe('/es/webinar-thank-you');
  });

  test('the resources form’s problems in Spanish, the question named with its question mark', async () => {
    const response = await post('resources', { _page: '/es/lead-the-change', _locale: 'es', email: 'nope' });
    expect(response.status).toBe(400);
    const { error } = await response.json();
    expect(error.message).toBe('Por favor, revise estos campos: Nombre, Correo electrónico, ¿Qué recursos le gustaría recibir?');
    expect(error.fields.resources_wanted).toBe('Por favor, elija una opción.');
  });

  test('without JavaScript the resources’ thanks come in Spanish, in the Spanish frame', async () => {
    const sent = await post(
      'resources',
      { _page: '/es/lead-the-change', _locale: 'es', firstname: 'Ana', email: `ana-res-${Date.now()}@example.org`, resources_wanted: ['fact_sheets'] },
      true,
    );
    expect(sent.status).toBe(303);
    const location = sent.headers.get('location') ?? '';
    expect(location).toBe('/forms/submitted?form=resources&page=%2Fes%2Flead-the-change');
    const page = await formSubmitted(new Request(`http://localhost${location}`));
    const html = await page.text();
    expect(html).toContain('<html lang="es"');
    expect(html).toContain('¡Gracias! Los recursos van en camino a su correo electrónico.');
    expect(html).toContain('Volver a la página donde estaba');
    // From an English page, the English thanks.
    const english = await (await formSubmitted(new Request('http://localhost/forms/submitted?form=resources&page=%2Flead-the-change'))).text();
    expect(english).toContain('Thank you! The resources are on their way to your inbox.');
  });
});

describe('dates and counts of the events pages, through Intl in the page’s language', () => {
  test('the live webinar’s day and hour, in its own time zone', () => {
    expect(formatEventDay(liveWebinar.startsAt, 'en', liveWebinar.timeZone)).toBe('Sept 25');
    expect(formatEventTime(liveWebinar.startsAt, 'en', liveWebinar.timeZone)).toBe('12:00 PM');
    expect(formatEventDay(liveWebinar.startsAt, 'es', liveWebinar.timeZone)).toBe('25 de septiembre');
    expect(formatEventTime(liveWebinar.startsAt, 'es', liveWebinar.timeZone)).toBe('12:00');
  });

  test('a recording’s published day and views: the English as before, the Spanish in Spanish with the same figures', () => {
    expect(formatShortDate('2025-06-26T00:00:00.000Z', 'en')).toBe('Jun 26, 2025');
    expect(formatShortDate('2025-09-25T00:00:00.000Z', 'es')).toBe('25 sept 2025');
    expect(formatShortCount('2.3k', 'en')).toBe('2.3k');
    expect(formatShortCount('2.3k', 'es')).toBe('2,3\u00a0mil');
    expect(formatShortCount('1.8k', 'es')).toBe('1,8\u00a0mil');
    expect(formatShortCount('950', 'es')).toBe('950');
    expect(formatShortCount('many', 'es')).toBe('many');
  });
});
