/**
 * The email form written from a Spanish page (issue 48): its labels, hints and messages in Spanish,
 * in the browser's checks and in the server's answers (JSON, and the page a visitor without
 * JavaScript gets), naming the fields as the page labels them; and the page's language carried
 * with the submission (`_locale`: "en" or "es", English when absent, anything else refused).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import forms from '../../netlify/functions/forms.mts';
import { forms as formConfig, formWordsPlaces } from '../../src/config/forms';
import { emailFormProblems } from '../../src/lib/shared/email/fields';
import { allFields } from '../../src/lib/shared/forms/fields';
import { localizeDefinition } from '../../src/lib/shared/forms/localize';
import { renderForm } from '../../src/lib/shared/forms/render';
import { formLocaleSchema } from '../../src/lib/shared/schemas';
import { checkSubmission, messages, messagesByLocale, summaryOf } from '../../src/lib/shared/forms/values';
import { MissingWordsError, translator } from '../../src/lib/shared/i18n/translator';
import { addBlock } from '../../src/server/abuse/blocks';
import { readLocaleWords, serverWordsOf } from '../../src/server/words';
import { committedDefinitions, emailFormValues, useFormsFunctionSite } from './helpers/forms';
import { regionText } from './helpers/site';

const place = formWordsPlaces.emailGenerator!;

describe('the email form’s words', () => {
  test('the English words are the committed form’s own, so each Spanish text stands for the same one', async () => {
    const { emailGenerator } = await committedDefinitions();
    const english = localizeDefinition(emailGenerator, await serverWordsOf('en'), place);
    expect(english).toEqual(emailGenerator);
  });

  test('in Spanish every shown text changes and nothing posted does: names, types, rules and option values stay', async () => {
    const { emailGenerator } = await committedDefinitions();
    const spanish = localizeDefinition(emailGenerator, await serverWordsOf('es'), place);
    const before = allFields(emailGenerator);
    const after = allFields(spanish);
    expect(after.map((field) => [field.name, field.fieldType, field.required, field.hidden])).toEqual(
      before.map((field) => [field.name, field.fieldType, field.required, field.hidden]),
    );
    for (const [index, field] of after.entries()) {
      if (field.hidden) continue;
      expect(field.label).not.toBe(before[index]!.label);
      expect(field.options?.map((option) => option.value)).toEqual(before[index]!.options?.map((option) => option.value));
    }
    expect(after.find((field) => field.name === 'full_name')!.label).toBe('Su nombre completo');
    expect(spanish.displayOptions.submitButtonText).toBe('Preparar mi correo');
  });

  test('a field the Spanish words lack stops the build, naming the key and the file', async () => {
    const { emailGenerator } = await committedDefinitions();
    const { es = {} } = await readLocaleWords();
    const { [`${place}.fields.school_name.label`]: _dropped, ...rest } = es;
    expect(() => localizeDefinition(emailGenerator, translator(rest, 'content/i18n/es'), place)).toThrow(MissingWordsError);
    expect(() => localizeDefinition(emailGenerator, translator(rest, 'content/i18n/es'), place)).toThrow(
      '"emailForm.fields.school_name.label" is missing in content/i18n/es/emailForm.yaml',
    );
  });

  test('every English form message has its Spanish, with the same figures', () => {
    for (const [key, english] of Object.entries(messages)) {
      const spanish = messagesByLocale.es[key as keyof typeof messages];
      const text = (value: unknown) => (typeof value === 'function' ? String(value(...(key === 'check' ? [['A', 'B']] : [7, 20]))) : String(value));
      expect(text(spanish), key).not.toBe(text(english));
      expect(text(spanish).match(/\d+/g), key).toEqual(text(english).match(/\d+/g));
    }
  });
});

describe('the page’s own checks in Spanish', () => {
  test('empty required fields are named as the Spanish page labels them', async () => {
    const { emailGenerator } = await committedDefinitions();
    const spanish = localizeDefinition(emailGenerator, await serverWordsOf('es'), place);
    const { errors } = checkSubmission(spanish, { full_name: '', email: 'no' }, [], 'es');
    expect(errors.full_name).toBe('Por favor, llene este campo.');
    expect(errors.email).toBe('Por favor, escriba un correo electrónico válido, como nombre@ejemplo.com.');
    expect(errors.choose_how_to_send_your_email).toBe('Por favor, elija una opción.');
    expect(summaryOf(spanish, { email: errors.email!, full_name: errors.full_name! }, {}, 'es')).toBe(
      'Por favor, revise estos campos: Su nombre completo, Su correo electrónico.',
    );
  });

  test.each([
    ['full_name', 'Ana https://example.org', 'Por favor, escriba aquí solo el nombre, sin una dirección web.'],
    ['child_grade', '13', 'Por favor, indique un grado de prekínder y kínder a 12.º grado, por ejemplo "5" o "K".'],
    ['_note', 'Vea https://example.org', 'Por favor, no ponga enlaces en su nota; el correo ya lleva el video y el enlace para agendar.'],
  ])('the email form’s own rule on %s answers in Spanish', (name, value, message) => {
    expect(emailFormProblems({ [name]: value }, 'es')[name]).toBe(message);
    expect(emailFormProblems({ [name]: value })[name]).not.toBe(message);
  });

  test('the Spanish form posts its language and draws its own words in Spanish', async () => {
    const { emailGenerator } = await committedDefinitions();
    const spanish = localizeDefinition(emailGenerator, await serverWordsOf('es'), place);
    const html = renderForm(spanish, { purpose: 'emailGenerator', instance: 'form-emailGenerator', page: '/es/lead-the-change', note: true, locale: 'es' });
    expect(html).toContain('<input type="hidden" name="_locale" value="es">');
    expect(html).toContain('son obligatorios');
    expect(html).toContain('(opcional)');
    expect(html).toContain('¿Qué cambiaría esto para su hijo?');
    expect(html).not.toMatch(/\(optional\)|are required|Your full name/);
    const english = renderForm(emailGenerator, { purpose: 'emailGenerator', instance: 'form-emailGenerator', page: '/lead-the-change', note: true });
    expect(english).not.toContain('name="_locale"');
  });
});

test.each([
  [undefined, 'en'],
  ['en', 'en'],
  ['es', 'es'],
])('a submission with _locale %s is in %s', (given, locale) => {
  expect(formLocaleSchema.parse(given)).toBe(locale);
});

test.each(['fr', 'ES', '', 'es-MX', ['es', 'en'], 1])('a submission with _locale %j is refused', (given) => {
  expect(formLocaleSchema.safeParse(given).success).toBe(false);
});

describe('the forms function, from a Spanish page', () => {
  useFormsFunctionSite();
  let ip = 0;

  beforeAll(() => {
    process.env.FORMS_MIN_FILL_MS = '2000';
  });
  afterAll(() => {
    delete process.env.FORMS_MIN_FILL_MS;
  });

  async function post(values: Record<string, string>, browser = false) {
    const headers = browser
      ? { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' }
      : { 'content-type': 'application/json', accept: 'application/json' };
    const body = browser ? new URLSearchParams(values).toString() : JSON.stringify({ _elapsed: '30000', ...values });
    const response = await forms(new Request(`http://localhost/api/forms/${formConfig.emailGenerator.formId}`, { method: 'POST', headers, body }), {
      ip: `203.0.113.${++ip}`,
    } as never);
    const text = await response.text();
    return { status: response.status, text, body: /json/.test(response.headers.get('content-type') ?? '') ? JSON.parse(text) : undefined };
  }

  test('an unknown language is a 400 that says which ones there are, and nothing is kept', async () => {
    const answer = await post(emailFormValues({ _page: '/es/lead-the-change', _locale: 'fr' }));
    expect(answer.status).toBe(400);
    expect(answer.body.error).toEqual({ code: 'invalid_locale', message: 'The form’s language (_locale) must be one of "en", "es".' });
  });

  test('its problems come back in Spanish, naming the fields as the Spanish page labels them', async () => {
    const answer = await post(emailFormValues({ _page: '/es/lead-the-change', _locale: 'es', full_name: '', email: 'nope' }));
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('invalid_submission');
    expect(answer.body.error.message).toBe('Por favor, revise estos campos: Su nombre completo, Su correo electrónico.');
    expect(answer.body.error.fields).toEqual({
      full_name: 'Por favor, llene este campo.',
      email: 'Por favor, escriba un correo electrónico válido, como nombre@ejemplo.com.',
    });
  });

  test('the same form from an English page still answers in English', async () => {
    const answer = await post(emailFormValues({ _page: '/lead-the-change', full_name: '' }));
    expect(answer.body.error.message).toBe('Please check this field: Your full name.');
  });

  test('a block staff set is said in the form’s language', async () => {
    await addBlock({ kind: 'address', value: 'ana.blocked@example.org', reason: 'a burst of test requests' }, 'staff');
    const spanish = await post(emailFormValues({ _page: '/es/lead-the-change', _locale: 'es', email: 'ana.blocked@example.org' }));
    expect(spanish.status).toBe(403);
    expect(spanish.body.error.code).toBe('blocked');
    expect(spanish.body.error.message).toMatch(/^Nuestro equipo pausó las solicitudes con esta dirección de correo/);
    const english = await post(emailFormValues({ _page: '/lead-the-change', email: 'ana.blocked@example.org' }));
    expect(english.body.error.message).toMatch(/^Our team has paused requests with this email address/);
  });

  test('without JavaScript, the form comes back on the Spanish page, in Spanish, with the answers kept', async () => {
    const answer = await post(emailFormValues({ _page: '/es/lead-the-change', _locale: 'es', child_full_name: '', _note: 'Vea https://example.org' }), true);
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('<html lang="es">');
    const text = regionText(answer.text);
    expect(text).toContain('Por favor, revise sus respuestas');
    expect(text).toContain('Por favor, revise estos campos: Nombre completo de su hijo o hija, Agregue una nota personal.');
    expect(text).toContain('Por favor, no ponga enlaces en su nota');
    expect(text).toContain('Volver a la página donde estaba');
    expect(text).not.toMatch(/Please|optional|Your full name/);
    expect(answer.text).toContain('name="_locale" value="es"');
    expect(answer.text).toContain('href="/es/lead-the-change"');
  });
});
