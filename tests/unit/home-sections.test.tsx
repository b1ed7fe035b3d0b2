/**
 * The two home sections the specification keeps switched off (PUBLIC_SHOW_NOMINATION_SECTION,
 * PUBLIC_SHOW_PARENT_VIDEOS_SECTION): rendered as they are when switched on, and their calls.
 */
import { renderToString } from 'react-dom/server';
import { describe, expect, test, vi } from 'vitest';
import NominationSection from '../../src/components/islands/NominationSection';
import { translator } from '../../src/lib/shared/i18n/translator';
import { nominationWords, submitNomination } from '../../src/lib/shared/nomination';
import { SUBSCRIBE_MESSAGES, subscribe } from '../../src/lib/browser/subscribe';
import { readLocaleWords } from '../../src/server/words';

const wordsIn = async (locale: 'en' | 'es') => nominationWords(translator((await readLocaleWords())[locale]!, `content/i18n/${locale}`));
const english = await wordsIn('en');

const valid = {
  schoolName: 'Oak Hill Academy',
  city: 'Austin',
  yourName: 'Priya Shah',
  email: 'priya@example.com',
  childGrade: '5th',
  sendTo: 'Head of School',
};

function fakeFetch(status: number, body: unknown) {
  return vi.fn(async () => new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }));
}

describe('nomination section (switched on)', () => {
  test('shows the Book Strategy Call button, the three steps and every field with a label', () => {
    const html = renderToString(<NominationSection bookingUrl="https://calendly.com/x/intro" words={english} />);
    expect(html).toContain('Book Strategy Call');
    expect(html).toContain('href="https://calendly.com/x/intro"');
    expect(html).toContain('rel="noopener noreferrer"');
    for (const step of ['Schedule Your Call', 'Explore Solutions', 'Begin Transformation']) expect(html).toContain(step);
    for (const name of Object.keys(valid)) expect(html).toMatch(new RegExp(`name="${name}"`));
    expect((html.match(/<label/g) ?? []).length).toBe(6);
  });

  test('the thank-you view offers Submit Another Nomination', () => {
    const html = renderToString(<NominationSection bookingUrl="https://calendly.com/x/intro" words={english} initialView="thanks" />);
    expect(html).toContain('Submit Another Nomination');
    expect(html).toContain(english.success.replace("'", '&#x27;'));
    expect(html).not.toContain('name="schoolName"');
  });

  test('posts the six fields as JSON to /api/nominations', async () => {
    const fetch = fakeFetch(201, { id: 'n_1' });
    await expect(submitNomination({ ...valid, extra: 'dropped' }, english, fetch)).resolves.toEqual({ ok: true, id: 'n_1' });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/nominations');
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toEqual(valid);
  });

  test.each([
    ['an empty school name', { ...valid, schoolName: ' ' }, 'schoolName'],
    ['an invalid email', { ...valid, email: 'not-an-email' }, 'email'],
    ['a missing grade', { ...valid, childGrade: undefined }, 'childGrade'],
  ])('rejects %s without calling the server', async (_name, input, field) => {
    const fetch = fakeFetch(201, {});
    const result = await submitNomination(input, english, fetch);
    expect(result.ok).toBe(false);
    expect(result).toMatchObject({ kind: 'invalid', fieldErrors: { [field]: expect.any(String) } });
    expect(fetch).not.toHaveBeenCalled();
  });

  test.each([
    [400, { error: { code: 'invalid_body', message: 'email: Invalid email' } }, 'email: Invalid email'],
    [503, { error: { code: 'store_unavailable', message: 'Try again later' } }, 'Try again later'],
    [500, 'oops', '500: '],
  ])('a %i answer is a failure', async (status, body, message) => {
    const result = await submitNomination(valid, english, fakeFetch(status, body));
    expect(result).toMatchObject({ ok: false, kind: 'failed' });
    if (!result.ok && result.kind === 'failed') expect(result.message).toContain(message);
  });

  test('the failure toast is the specification text', () => {
    expect([english.failureTitle, english.failure]).toEqual(['Error', 'Failed to submit nomination. Please try again.']);
    expect([english.successTitle, english.success]).toEqual(['Success!', "Your school nomination has been submitted. We'll be in touch soon!"]);
  });

  test('in Spanish: every word of the band, the fields’ labels and each problem, none of the English', async () => {
    const spanish = await wordsIn('es');
    const html = renderToString(<NominationSection bookingUrl="https://calendly.com/x/intro" words={spanish} />);
    for (const words of [
      'Nomine a su escuela',
      'Agende su llamada',
      'Agendar una llamada',
      '(se abre en una pestaña nueva)',
      'Nombre de la escuela',
      '¿A quién debemos contactar en la escuela?',
      'Enviar nominación',
    ])
      expect(html).toContain(words);
    for (const words of ['Book Strategy Call', 'Schedule Your Call', 'School name', 'Submit Nomination', 'opens in a new tab'])
      expect(html).not.toContain(words);
    const thanks = renderToString(<NominationSection bookingUrl="https://calendly.com/x/intro" words={spanish} initialView="thanks" />);
    expect(thanks).toContain('¡Gracias por su nominación!');
    expect(thanks).toContain('Enviar otra nominación');
    const result = await submitNomination({ ...valid, schoolName: '', email: 'nope' }, spanish, fakeFetch(201, {}));
    expect(result).toEqual({
      ok: false,
      kind: 'invalid',
      fieldErrors: { schoolName: 'Este campo es obligatorio.', email: 'Escriba un correo electrónico válido, como nombre@ejemplo.com.' },
    });
  });
});

describe('subscribe box', () => {
  test.each([
    ['accepted', 200, { ok: true }, 'success'],
    ['HubSpot not configured', 503, { error: { code: 'hubspot_not_configured', message: 'x' } }, 'notConfigured'],
    ['endpoint not deployed yet', 404, 'Not Found', 'notConfigured'],
    ['refused address', 400, { error: { code: 'invalid_body', message: 'x' } }, 'invalid'],
    ['server error', 500, { error: { code: 'internal', message: 'x' } }, 'failed'],
  ])('%s', async (_name, status, body, outcome) => {
    await expect(subscribe('parent@example.com', fakeFetch(status, body))).resolves.toBe(outcome);
  });

  test('an invalid address never reaches the server', async () => {
    const fetch = fakeFetch(200, { ok: true });
    await expect(subscribe('parent@', fetch)).resolves.toBe('invalid');
    expect(fetch).not.toHaveBeenCalled();
  });

  test('a network failure is a failure, not an exception', async () => {
    const fetch = vi.fn(async () => {
      throw new TypeError('offline');
    });
    await expect(subscribe('parent@example.com', fetch)).resolves.toBe('failed');
    expect(SUBSCRIBE_MESSAGES.failed).toMatch(/try again/);
  });
});
