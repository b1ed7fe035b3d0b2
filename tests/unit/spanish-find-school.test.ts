/**
 * The list of schools without JavaScript in Spanish (issue 48): /es/find-school answers in the
 * Spanish frame with findSchool.yaml's words, its results leading to each school's Spanish page;
 * the Spanish forms that link to the list (the email form's school field, /es/nominate-school's
 * finder) link to /es/find-school. /find-school stays English. What was typed comes back escaped,
 * and a Spanish page never shows a key, a placeholder or the English words.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import findSchool from '../../netlify/functions/find-school.mts';
import { sitePages } from '../../src/config/pages';
import { countedPage } from '../../src/server/analytics/counted-pages';
import { localizeDefinition } from '../../src/lib/shared/forms/localize';
import { renderForm, responseRegion } from '../../src/lib/shared/forms/render';
import { formWordsPlaces } from '../../src/config/forms';
import { readLocaleWords, serverWordsOf } from '../../src/server/words';
import { startTestDatabase, type TestDatabase } from './helpers/database';
import { committedDefinitions } from './helpers/forms';
import { verifiedSchool } from './helpers/schools';
import { regionText, useSiteShell } from './helpers/site';

let database: TestDatabase;
let shell: ReturnType<typeof useSiteShell>;

beforeAll(async () => {
  database = await startTestDatabase();
  shell = useSiteShell();
  // The response frames with their language switch, as the built pages have it (LanguageSwitch.astro).
  for (const [file, lang, switchTo] of [
    ['form-response.html', 'en', '<a href="/es" lang="es" hreflang="es" class="switch" data-language-switch>Español</a>'],
    ['es/form-response.html', 'es', '<a href="/" lang="en" hreflang="en" class="switch" data-language-switch>English</a>'],
  ] as const) {
    writeFileSync(
      join(shell.dir, file),
      `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>Frame | Mastery Parents</title></head><body><header>${switchTo}</header><main id="main">${responseRegion.start}<h1>Frame</h1>${responseRegion.end}</main></body></html>`,
    );
  }
});
afterAll(async () => {
  await database.stop();
  shell.remove();
});
beforeEach(() => database.truncate());

async function open(path: string, init: RequestInit = {}) {
  const response = await findSchool(new Request(`http://localhost${path}`, init));
  const html = await response.text();
  return { status: response.status, headers: response.headers, html, text: regionText(html) };
}

/** Where the page's language switches lead. */
const switchesOf = (html: string) =>
  [...html.matchAll(/<a [^>]*data-language-switch[^>]*>/g)].map((m) => /href="([^"]*)"/.exec(m[0])![1]!.replace(/&amp;/g, '&'));

/** Every English sentence of the page's words, to be found on no Spanish page. */
async function englishSentences(): Promise<string[]> {
  const { en = {} } = await readLocaleWords();
  return Object.entries(en)
    .filter(([key]) => key.startsWith('findSchool.'))
    .flatMap(([, text]) => text.split(/\{\w+\}/))
    .map((part) => part.trim())
    .filter((part) => part.length > 12);
}

describe('/es/find-school', () => {
  test('lists the schools the site knows in Spanish, each leading to its Spanish page’s form', async () => {
    const school = await verifiedSchool('head@oakwood.edu', 'Oakwood Academy');
    await verifiedSchool('head@oakridge.edu', 'Oak Ridge School');
    const page = await open('/es/find-school?q=oak');
    expect(page.status).toBe(200);
    expect(page.html).toContain('<html lang="es">');
    expect(page.html).toContain('<title>Busque su escuela | Mastery Parents</title>');
    expect(page.text).toContain('Busque su escuela');
    expect(page.text).toContain('Coinciden 2 escuelas que conocemos con «oak».');
    expect(page.text).toContain('Escribir a Oakwood Academy');
    expect(page.html).toContain(`href="/es/schools/${school.pageKey}#email-form"`);
    expect(page.html).not.toMatch(/href="\/schools\//);
    // Its search box asks the Spanish page again, labelled in Spanish.
    expect(page.html).toContain('action="/es/find-school"');
    expect(page.html).toContain('<label for="find-school-q" class="');
    expect(page.text).toContain('Nombre o ciudad de su escuela');
    // A school it does not know: written to from the Spanish form.
    expect(page.html).toContain('href="/es/lead-the-change#email-form"');
    expect(page.text).toContain('Escribir a una escuela que aún no conocemos');
    // The switch keeps the search.
    expect(switchesOf(page.html)).toEqual(['/find-school?q=oak']);
    for (const sentence of await englishSentences()) expect(page.text).not.toContain(sentence);
    expect(page.text).not.toMatch(/findSchool\.|\{\w+\}/);
  });

  test.each([
    ['one school', 'oakwood', 'Coincide una escuela que conocemos con «oakwood».'],
    ['none', 'maple', 'Todavía no conocemos una escuela llamada «maple». Puede escribirle de todos modos'],
    ['nothing typed', '', 'Busque su escuela'],
  ])('%s: said in Spanish', async (_name, q, said) => {
    await verifiedSchool('head@oakwood.edu', 'Oakwood Academy');
    const page = await open(`/es/find-school?q=${encodeURIComponent(q)}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(said);
    for (const sentence of await englishSentences()) expect(page.text).not.toContain(sentence);
  });

  test.each([
    ['markup', '<script>alert(1)</script>'],
    ['a placeholder of the words', '{query} {count}'],
    ['a line break and a NUL', 'oak\nwood\u0000'],
  ])('what was typed (%s) comes back as text, never as markup or words', async (_name, q) => {
    const page = await open(`/es/find-school?q=${encodeURIComponent(q)}`);
    expect(page.status).toBe(200);
    expect(page.html).not.toContain('<script>alert(1)');
    expect(page.html).not.toMatch(/[\u0000]/);
    expect(page.text).toContain('Todavía no conocemos una escuela llamada');
    if (q.startsWith('{')) expect(page.text).toContain('«{query} {count}»');
  });

  test('a query longer than a search reads is cut, not refused', async () => {
    const page = await open(`/es/find-school?q=${'o'.repeat(500)}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain(`value="${'o'.repeat(80)}"`);
    expect(page.html).not.toContain('o'.repeat(81));
  });

  test('another method: 405 in Spanish, with the search box', async () => {
    const page = await open('/es/find-school?q=oak', { method: 'POST', body: 'q=oak', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(page.status).toBe(405);
    expect(page.headers.get('allow')).toBe('GET, HEAD');
    expect(page.html).toContain('<html lang="es">');
    expect(page.text).toContain('Esta página solo responde a una búsqueda');
    expect(page.html).toContain('action="/es/find-school"');
  });

  test('the list unavailable: 503 in Spanish, never a 500', async () => {
    const url = process.env.NETLIFY_DB_URL;
    process.env.NETLIFY_DB_URL = 'postgres://nobody:nothing@127.0.0.1:1/none';
    try {
      const { closeDatabase } = await import('../../src/server/db');
      await closeDatabase();
      const page = await open('/es/find-school?q=oak');
      expect(page.status).toBe(503);
      expect(page.html).toContain('<html lang="es">');
      expect(page.text).toContain('En este momento no pudimos buscar en nuestra lista de escuelas.');
    } finally {
      process.env.NETLIFY_DB_URL = url;
      const { closeDatabase } = await import('../../src/server/db');
      await closeDatabase();
    }
  });
});

describe('/find-school stays English', () => {
  test('its words and links are as before; a lang hint changes nothing (the path decides)', async () => {
    const school = await verifiedSchool('head@oakwood.edu', 'Oakwood Academy');
    for (const path of ['/find-school?q=oakwood', '/find-school?q=oakwood&lang=es']) {
      const page = await open(path);
      expect(page.html).toContain('<html lang="en">');
      expect(page.text).toContain('One school we know matches “oakwood”.');
      expect(page.text).toContain('Write to Oakwood Academy');
      expect(page.html).toContain(`href="/schools/${school.pageKey}#email-form"`);
      expect(page.html).toContain('action="/find-school"');
      expect(page.html).toContain('href="/lead-the-change#email-form"');
      expect(switchesOf(page.html)).toEqual(['/es/find-school?q=oakwood']);
    }
  });
});

describe('the Spanish forms link to the Spanish list', () => {
  test('the email form’s school field, without JavaScript: /es/find-school in Spanish, /find-school in English', async () => {
    const { emailGenerator } = await committedDefinitions();
    const spanish = localizeDefinition(emailGenerator, await serverWordsOf('es'), formWordsPlaces.emailGenerator!);
    const es = renderForm(spanish, { purpose: 'emailGenerator', instance: 'form-email', page: '/es/lead-the-change', note: true, locale: 'es' });
    const en = renderForm(emailGenerator, { purpose: 'emailGenerator', instance: 'form-email', page: '/lead-the-change', note: true });
    expect(es).toMatch(/<a [^>]*href="\/es\/find-school" data-school-find>Busque su escuela/);
    expect(en).toMatch(/<a [^>]*href="\/find-school" data-school-find>Find your school/);
  });

  test('/es/find-school is a page of the site, drawn by the function and counted under /es', () => {
    expect(sitePages).toContainEqual({ path: '/es/find-school', made: 'drawn', locale: 'es' });
    expect(countedPage('/es/find-school?q=oak')).toEqual({ page: '/es/find-school' });
  });
});
