/**
 * The newsletter sign-up in Spanish (issue 48): in every Spanish page's footer and on /es, with its
 * label, button, consent and thanks in Spanish, its problems answered in Spanish by the server, and
 * what is posted (names, subscription ids) the same as the English form's.
 */
import { describe, expect, test } from 'vitest';
import { formWordsPlaces } from '../../src/config/forms';
import { localizeDefinition } from '../../src/lib/shared/forms/localize';
import { renderForm } from '../../src/lib/shared/forms/render';
import { MissingWordsError, translator } from '../../src/lib/shared/i18n/translator';
import { readLocaleWords, serverWordsOf } from '../../src/server/words';
import { committedDefinitions, postForm, useFormsFunctionSite } from './helpers/forms';

const place = formWordsPlaces.newsletter!;

describe('the newsletter form’s words', () => {
  test('the English words are the committed form’s own, consent included', async () => {
    const { newsletter } = await committedDefinitions();
    expect(localizeDefinition(newsletter, await serverWordsOf('en'), place)).toEqual(newsletter);
  });

  test('in Spanish the label, button, thanks, consent checkbox and privacy line change; the names and subscription ids do not', async () => {
    const { newsletter } = await committedDefinitions();
    const spanish = localizeDefinition(newsletter, await serverWordsOf('es'), place);
    const html = renderForm(spanish, { purpose: 'newsletter', instance: 'form-newsletter-footer', page: '/es', locale: 'es' });
    expect(html).toContain('Correo electrónico');
    expect(html).toContain('Suscribirme');
    expect(html).toContain('Envíenme ideas y consejos para abogar por mis hijos por correo electrónico.');
    expect(html).toContain('Puede darse de baja cuando quiera. Nunca compartimos sus datos.');
    expect(html).toContain('name="_locale" value="es"');
    for (const english of ['Subscribe', 'Send me insights', 'You can unsubscribe', 'Fields marked']) expect(html).not.toContain(english);
    expect(spanish.legalConsentOptions).toMatchObject({
      type: 'implicit_consent_to_process',
      communicationsCheckboxes: [{ subscriptionTypeId: 1001, required: true }],
    });
    expect(spanish.fieldGroups.flatMap((group) => group.fields.map((field) => [field.name, field.fieldType, field.required]))).toEqual(
      newsletter.fieldGroups.flatMap((group) => group.fields.map((field) => [field.name, field.fieldType, field.required])),
    );
  });

  test('a consent checkbox the Spanish words lack stops the build, naming the key and the file', async () => {
    const { newsletter } = await committedDefinitions();
    const { es = {} } = await readLocaleWords();
    const { [`${place}.consent.checkboxes.1`]: _dropped, ...rest } = es;
    expect(() => localizeDefinition(newsletter, translator(rest, 'content/i18n/es'), place)).toThrow(MissingWordsError);
    expect(() => localizeDefinition(newsletter, translator(rest, 'content/i18n/es'), place)).toThrow(
      '"newsletterForm.consent.checkboxes.1" is missing in content/i18n/es/newsletterForm.yaml',
    );
  });
});

describe('the forms function, for the newsletter from a Spanish page', () => {
  useFormsFunctionSite();
  let ip = 0;

  async function post(values: Record<string, string>) {
    const response = await postForm('newsletter', values, { ip: `203.0.113.${++ip}` });
    return { status: response.status, body: await response.json() };
  }

  test('its problems come back in Spanish, naming the field and the consent as the page labels them', async () => {
    const answer = await post({ _page: '/es', _locale: 'es', email: 'nope' });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toBe(
      'Por favor, revise estos campos: Correo electrónico, Envíenme ideas y consejos para abogar por mis hijos por correo electrónico.',
    );
    expect(answer.body.error.fields.email).toBe('Por favor, escriba un correo electrónico válido, como nombre@ejemplo.com.');
  });

  test('from an English page the same problems stay English', async () => {
    const answer = await post({ _page: '/', email: 'nope' });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toBe('Please check these fields: Email, Send me insights and advocacy tips by email.');
  });

  test('a Spanish subscription is taken (the page shows its Spanish thanks: tests/e2e/spanish-reading.spec.ts)', async () => {
    const answer = await post({ _page: '/es', _locale: 'es', email: `suscrita-${Date.now()}@example.org`, _consent_1001: 'true' });
    expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
  });
});
