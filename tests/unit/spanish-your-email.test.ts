/**
 * /your-email when it finds no draft, in Spanish (issue 48): the Spanish flow's links carry
 * `lang=es` (the forms function's 303 to the page, the page's own forms and links), and a link cut
 * short, forged or whose draft is gone answers in the language it hints (`hintedLocale`), as does a
 * post the page cannot read and the store away. A draft's own language still decides whenever the
 * link names one; an unknown `lang` is English.
 */
import { describe, expect, test } from 'vitest';
import yourEmail from '../../netlify/functions/your-email.mts';
import type { Locale } from '../../src/config/locales';
import { query, sql } from '../../src/server/db';
import { createDraft } from '../../src/server/letter/drafts';
import { readLocaleWords } from '../../src/server/words';
import { emailFormValues, postForm, useFormsFunctionSite } from './helpers/forms';
import { regionText } from './helpers/site';

useFormsFunctionSite();
let seq = 0;

const ORIGIN = 'http://localhost';

async function open(path: string, init: RequestInit = {}) {
  const response = await yourEmail(new Request(`${ORIGIN}${path}`, init), { ip: `198.51.100.${++seq % 250}` });
  const html = await response.text();
  return { status: response.status, html, text: regionText(html) };
}

/** Every English sentence of yourEmail.yaml, to be found on no Spanish page. */
async function englishSentences(): Promise<string[]> {
  const { en = {} } = await readLocaleWords();
  return Object.entries(en)
    .filter(([key]) => key.startsWith('yourEmail.'))
    .flatMap(([, text]) => text.split(/\{\w+\}/))
    .map((part) => part.trim())
    .filter((part) => part.length > 12);
}

async function expectSpanish(page: { html: string; text: string }) {
  expect(page.html).toContain('<html lang="es">');
  for (const sentence of await englishSentences()) expect(page.text).not.toContain(sentence);
  expect(page.text).not.toMatch(/yourEmail\.|\{\w+\}/);
}

async function drafted(locale: Locale) {
  const id = `sub-gone-${Date.now()}-${++seq}`;
  const made = await createDraft({ id, purpose: 'emailGenerator', values: emailFormValues(), locale, letterLocale: locale });
  return { id, token: made.token };
}

const aToken = 'A'.repeat(43);

describe('a link whose draft is gone', () => {
  test('with lang=es: the Spanish page, its way back the Spanish form', async () => {
    const { id, token } = await drafted('es');
    await query(sql`DELETE FROM email_drafts WHERE id = ${id}`);
    const page = await open(`/your-email?id=${id}&t=${token}&lang=es`);
    expect(page.status).toBe(404);
    expect(page.html).toContain('<title>Este enlace de su correo no es válido | Mastery Parents</title>');
    expect(page.text).toContain('Este enlace de su correo no es válido');
    expect(page.text).toContain('Llene el formulario de nuevo');
    expect(page.html).toMatch(/<a [^>]*href="\/es\/lead-the-change#email-form"[^>]*>Volver al formulario del correo<\/a>/);
    await expectSpanish(page);
  });

  test.each([
    ['cut short', `/your-email?id=sub-1234&t=${aToken.slice(0, 20)}&lang=es`],
    ['forged', `/your-email?id=sub-forged-1&t=${aToken}&lang=es`],
    ['without an id', '/your-email?lang=es'],
  ])('%s, with lang=es: the Spanish page too', async (_name, path) => {
    const page = await open(path);
    expect(page.status).toBe(404);
    expect(page.text).toContain('Este enlace de su correo no es válido');
    await expectSpanish(page);
  });

  test.each([
    ['no lang', ''],
    ['lang=fr', '&lang=fr'],
    ['lang=<script>', `&lang=${encodeURIComponent('<script>alert(1)</script>')}`],
    ['lang=ES', '&lang=ES'],
    ['two langs, the first English', '&lang=en&lang=es'],
  ])('%s: English, and nothing of the hint on the page', async (_name, hint) => {
    const page = await open(`/your-email?id=sub-forged-2&t=${aToken}${hint}`);
    expect(page.status).toBe(404);
    expect(page.html).toContain('<html lang="en">');
    expect(page.text).toContain('This email link is not valid');
    expect(page.html).toMatch(/<a [^>]*href="\/lead-the-change#email-form"[^>]*>Back to the email form<\/a>/);
    expect(page.html).not.toContain('<script>alert(1)');
  });

  test('a post without its draft, with the Spanish form’s lang: Spanish', async () => {
    const page = await open('/your-email?lang=es', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ id: 'sub-forged-3', t: aToken, action: 'send' }).toString(),
    });
    expect(page.status).toBe(404);
    expect(page.text).toContain('Este enlace de su correo no es válido');
    await expectSpanish(page);
  });

  test('a post too large to read, with lang=es: said in Spanish, never a 500', async () => {
    const page = await open('/your-email?lang=es', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `id=x&note=${'a'.repeat(40 * 1024)}`,
    });
    expect(page.status).toBe(413);
    expect(page.text).toContain('No pudimos leer lo que envió');
    await expectSpanish(page);
  });
});

describe('a draft’s own language decides; the hint never does', () => {
  test('an English draft’s link with lang=es stays English; a Spanish draft’s without lang stays Spanish', async () => {
    const english = await drafted('en');
    const en = await open(`/your-email?id=${english.id}&t=${english.token}&lang=es`);
    expect(en.html).toContain('<html lang="en">');
    expect(en.text).toContain('Your Email is Ready');
    const spanish = await drafted('es');
    const es = await open(`/your-email?id=${spanish.id}&t=${spanish.token}`);
    expect(es.text).toContain('Su correo está listo');
  });

  test('a Spanish draft’s page carries lang=es in its forms and links; an English one’s carries none', async () => {
    const spanish = await drafted('es');
    const es = await open(`/your-email?id=${spanish.id}&t=${spanish.token}&lang=es`);
    const forms = [...es.html.matchAll(/<form method="post" action="([^"]*)"/g)].map((m) => m[1]);
    expect(forms.length).toBeGreaterThan(0);
    for (const action of forms) expect(action).toBe('/your-email?lang=es');
    expect(es.html).toContain(`href="/your-email?id=${spanish.id}&amp;t=${spanish.token}&amp;edit=1&amp;lang=es"`);
    const edit = await open(`/your-email?id=${spanish.id}&t=${spanish.token}&edit=1&lang=es`);
    expect(edit.html).toContain(`href="/your-email?id=${spanish.id}&amp;t=${spanish.token}&amp;lang=es"`);

    const english = await drafted('en');
    const en = await open(`/your-email?id=${english.id}&t=${english.token}`);
    expect(en.html).not.toMatch(/your-email\?[^"]*lang=/);
    expect(en.html).toContain('<form method="post" action="/your-email"');
  });
});

describe('the forms function leads a form sent without JavaScript to /your-email', () => {
  test.each([
    ['from a Spanish page, with lang=es', { _page: '/es/lead-the-change', _locale: 'es' }, '&lang=es'],
    ['from an English page, without it', { _page: '/lead-the-change' }, ''],
  ])('%s', async (_name, page, hint) => {
    const response = await postForm('emailGenerator', emailFormValues(page), { ip: `203.0.113.${++seq % 250}`, browser: true });
    expect(response.status).toBe(303);
    const location = response.headers.get('location')!;
    expect(location).toMatch(new RegExp(`^/your-email\\?id=[^&]+&t=[A-Za-z0-9_-]{43}${hint.replace('?', '\\?')}$`));
  });
});
