/**
 * The site search in Spanish (issue 48, docs/spanish.md): the Spanish index, built as the build
 * builds it from Spanish pages of the site's shape, and the `search` function answering /es/search
 * and the dialog (/api/search?lang=es) in Spanish from it, without and with accents; English
 * /search unchanged beside it.
 */
import { globSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import search from '../../netlify/functions/search.mts';
import { indexedPages, indexedPagesIn } from '../../src/config/search';
import { regionMarkers } from '../../src/lib/shared/forms/render';
import { writeSiteIndex } from '../../src/lib/build/search/build-index';
import { indexFileOf, INDEX_FILE } from '../../src/lib/shared/search/query';
import { dialogWordsOf, englishDialogWords, resultsStatus } from '../../src/lib/shared/search/render';
import { loadSiteIndex, SEARCH_REGION, searchSite, SECTIONS_REGION } from '../../src/lib/shared/search/site-index';

const frame = (lang: string, title: string, main: string) =>
  `<!doctype html><html lang="${lang}"><head><title>${title} | Mastery Parents</title></head><body><header><nav>Inicio Preguntas</nav></header>${main}<footer>Boletín</footer></body></html>`;

/** Built pages of the shapes the site has, in both languages (the blog only in English). */
const pages: Record<string, string> = {
  'index.html': frame(
    'en',
    'Mastery Parents | Bring 2-Hour Mastery Learning to Your School',
    '<main data-pagefind-body><h1>Transform Learning.</h1><p>Math and reading in two focused hours.</p></main>',
  ),
  'faqs.html': frame(
    'en',
    'FAQs | Your Questions Answered',
    `<main data-pagefind-body><h1>Frequently Asked Questions</h1><details><summary><h3 id="what-about-math">How is math taught?</h3></summary><p>Math is learned to mastery, usually 90%.</p></details></main>`,
  ),
  'blogs-insights/why-two-hours-is-enough.html': frame(
    'en',
    'Why two hours is enough',
    '<main data-pagefind-body><h1 data-pagefind-meta="title">Why two hours is enough</h1><p>Matemáticas in an English article.</p></main>',
  ),
  'es.html': frame(
    'es',
    'Lleve el aprendizaje por dominio en 2 horas a su escuela',
    '<main data-pagefind-body><h1>Transforme el aprendizaje.</h1><p>Lectura y matemáticas en dos horas de concentración.</p></main>',
  ),
  'es/faqs.html': frame(
    'es',
    'Preguntas frecuentes | Respuestas sobre el aprendizaje por dominio',
    `<main data-pagefind-body><h1>Preguntas frecuentes</h1>
      <details><summary><h3 id="what-about-math">¿Cómo se enseñan las matemáticas?</h3></summary><p>Las matemáticas se aprenden hasta dominarlas, normalmente con un 90%.</p></details>
      <details><summary><h3 id="what-about-afternoons">¿Qué pasa por la tarde?</h3></summary><p>Las tardes son para talleres, deporte y clubes.</p></details></main>`,
  ),
  'es/how-it-works.html': frame(
    'es',
    'Cómo funciona | Aprendizaje por dominio en 2 horas al día',
    '<main data-pagefind-body><h1>Cómo funciona</h1><p>El ÁLGEBRA a su ritmo.</p></main>',
  ),
  // Built, but not a content page: never indexed.
  'es/thank-you.html': frame('es', '¡Su llamada está reservada!', '<main data-pagefind-body><h1>Gracias</h1><p>Matemáticas reservadas.</p></main>'),
};

const shell = (lang: string, title: string, prompt: string) => {
  const region = regionMarkers(SEARCH_REGION);
  const sections = regionMarkers(SECTIONS_REGION);
  return frame(
    lang,
    title,
    `<a href="${lang === 'es' ? '/search' : '/es/search'}" lang="${lang === 'es' ? 'en' : 'es'}" hreflang="${lang === 'es' ? 'en' : 'es'}" data-language-switch>${lang === 'es' ? 'English' : 'Español'}</a>${lang === 'en' ? '<a href="/es/search" hreflang="es">Esta página también está en español</a>' : ''}<main data-pagefind-body><h1>${title}</h1><form action="${lang === 'es' ? '/es/search' : '/search'}"><input name="q" data-search-page-input></form>${region.start}<p data-search-page-status>${prompt}</p>${region.end}${sections.start}<div data-search-page-sections><a href="/es/faqs">Preguntas frecuentes</a></div>${sections.end}</main>`,
  );
};

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'es-search-'));
  mkdirSync(join(dir, 'es'));
  mkdirSync(join(dir, 'blogs-insights'));
  for (const [file, html] of Object.entries(pages)) writeFileSync(join(dir, file), html);
  writeFileSync(join(dir, 'search.html'), shell('en', 'Search', 'Type a word or two.'));
  writeFileSync(join(dir, 'es', 'search.html'), shell('es', 'Buscar', 'Escriba una o dos palabras.'));
  // As the build does: each language's index from its pages.
  writeSiteIndex(dir, indexedPagesIn('en'), indexFileOf('en'));
  writeSiteIndex(dir, indexedPagesIn('es'), indexFileOf('es'));
  process.env.SITE_DIR = dir;
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  delete process.env.SITE_DIR;
});

const spanishIndex = () => loadSiteIndex(JSON.parse(readFileSync(join(dir, 'es', INDEX_FILE), 'utf8')));

describe('the Spanish index', () => {
  test('is its own file beside the English one', () => {
    expect(indexFileOf('en')).toBe('search-index.json');
    expect(indexFileOf('es')).toBe('es/search-index.json');
    expect(indexedPagesIn('en')).toBe(indexedPages);
  });

  test('reads the Spanish pages the English index has (the home, the FAQs, …) and the Spanish blog, never the English ones or pages left out', () => {
    const files = globSync(indexedPagesIn('es'), { cwd: dir }).sort();
    expect(files).toEqual(['es.html', 'es/faqs.html', 'es/how-it-works.html']);
    // The English index's pages that have Spanish (translatedPaths), at their Spanish files.
    expect(indexedPagesIn('es')).toBe(
      '{es,es/why-this-matters,es/how-it-works,es/lead-the-change,es/real-stories,es/nominate-school,es/partnership-form,es/events-webinars,es/resources,es/webinar-share,es/faqs,es/blogs-insights,es/blogs-insights/*}.html',
    );
    // The Spanish blog (its list and posts, issue 48), never the English posts.
    expect(indexedPagesIn('es')).not.toMatch(/[{,]blogs-insights|thank-you|search/);
  });

  test('holds the Spanish titles and sections at their Spanish URLs', () => {
    const file = JSON.parse(readFileSync(join(dir, 'es', INDEX_FILE), 'utf8')) as {
      pages: Array<{ url: string; title: string }>;
      sections: Array<{ anchor?: string; title: string }>;
    };
    expect(file.pages).toEqual([
      { url: '/es', title: 'Lleve el aprendizaje por dominio en 2 horas a su escuela' },
      { url: '/es/faqs', title: 'Preguntas frecuentes' },
      { url: '/es/how-it-works', title: 'Cómo funciona' },
    ]);
    expect(file.sections.map((section) => section.title)).toContain('¿Cómo se enseñan las matemáticas?');
    expect(JSON.stringify(file)).not.toMatch(/Frequently|English article|reservadas/);
  });

  test.each([
    ['matematicas', '/es/faqs#what-about-math'],
    ['MATEMÁTICAS', '/es/faqs#what-about-math'],
    ['Matemáticas', '/es/faqs#what-about-math'],
    ['algebra', '/es/how-it-works'],
    ['tarde', '/es/faqs#what-about-afternoons'],
  ])('"%s" finds %s, whatever the case and accents', (query, url) => {
    const rows = searchSite(spanishIndex(), query);
    expect(rows[0]?.url).toBe(url);
    for (const row of rows) expect(row.url).toMatch(/^\/es(\/|$|#)/);
  });

  test('the excerpt marks the word as written, accents and all', () => {
    const row = searchSite(spanishIndex(), 'matematicas').find((found) => found.url === '/es/faqs#what-about-math')!;
    expect(row.excerpt).toContain('Las <mark>matemáticas</mark> se aprenden');
    expect(row.context).toBe('Preguntas frecuentes');
  });
});

describe('the search function in Spanish', () => {
  const get = (path: string, init?: RequestInit) => search(new Request(`http://localhost${path}`, init));
  const status = (html: string) =>
    (html.match(/data-search-page-status>([^<]*)</)?.[1] ?? '')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  const hrefs = (html: string) =>
    [...html.matchAll(/data-search-page-results>.*?<\/ol>/gs)].flatMap((list) => [...list[0].matchAll(/href="([^"]+)"/g)].map((m) => m[1]));

  test.each([
    ['/es/search', 200, 'Escriba una o dos palabras para buscar en las preguntas frecuentes y las páginas.'],
    ['/es/search?q=%20%20', 200, 'Escriba una o dos palabras para buscar en las preguntas frecuentes y las páginas.'],
    ['/es/search?q=matematicas', 200, '2 resultados para «matematicas»'],
    ['/es/search?q=zzqxj', 200, 'No hay resultados para «zzqxj». Pruebe con menos palabras o con otras, o vea abajo las secciones del sitio.'],
    [`/es/search?q=${'x'.repeat(5000)}`, 400, 'La búsqueda es demasiado larga. Escriba menos palabras e inténtelo de nuevo.'],
    ['/es/search?q=tarde&page=dos', 400, 'La página de resultados debe ser un número entero a partir de 1.'],
    ['/es/search?q=tarde&page=7', 404, 'No hay una página 7 de resultados para «tarde»: terminan en la página 1.'],
  ])('GET %s answers %i in Spanish: %j', async (path, code, message) => {
    const response = await get(path);
    expect(response.status).toBe(code);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('netlify-vary')).toBe('query=q|page|lang');
    const html = await response.text();
    expect(html).toContain('<html lang="es">');
    expect(html).toContain('action="/es/search"');
    expect(status(html)).toBe(message);
    expect(html).not.toMatch(/Type a word|No results|Found \d|too long|whole number/);
  });

  test('results come from the Spanish index and link to the Spanish pages, the accents marked as written', async () => {
    const response = await get('/es/search?q=matematicas');
    const html = await response.text();
    expect(html).toContain('<title>Resultados de «matematicas» | Mastery Parents</title>');
    expect(html).toContain('data-search-page-input value="matematicas"');
    expect(html).toContain('aria-label="Resultados de la búsqueda"');
    expect(hrefs(html)).toEqual(['/es/faqs#what-about-math', '/es']);
    expect(html).toContain('<mark>matemáticas</mark>');
    // The English article that says "Matemáticas" is not a Spanish result.
    expect(html).not.toContain('/blogs-insights');
    // With results, the sections are not listed.
    expect(html).not.toContain('data-search-page-sections');
    // The language switch searches the same words in English.
    expect(html).toContain('<a href="/search?q=matematicas" lang="en" hreflang="en" data-language-switch>');
    const english = await (await get('/search?q=a%20b')).text();
    expect(english).toContain('<a href="/es/search?q=a%20b" lang="es" hreflang="es" data-language-switch>');
    // The suggestion to a Spanish browser too.
    expect(english).toContain('<a href="/es/search?q=a%20b" hreflang="es">');
    // Without a query, the links stay as built.
    expect(await (await get('/es/search')).text()).toContain('<a href="/search" lang="en" hreflang="en" data-language-switch>');
  });

  test('the dialog asks /api/search?lang=es and gets the Spanish rows and words', async () => {
    const response = await get('/api/search?q=MATEMATICAS&lang=es');
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.total).toBe(2);
    expect(body.rows.map((row: { url: string }) => row.url)).toEqual(['/es/faqs#what-about-math', '/es']);
    expect(body.message).toBe('2 resultados para «MATEMATICAS»');
  });

  test.each([
    ['/api/search?q=math&lang=fr', 400, 'invalid_locale'],
    ['/api/search?q=math&lang=ES%00', 400, 'invalid_locale'],
    [`/api/search?q=${'x'.repeat(5000)}&lang=es`, 400, 'invalid_request'],
  ])('GET %s is refused: %i %s', async (path, code, errorCode) => {
    const response = await get(path);
    expect(response.status).toBe(code);
    expect((await response.json()).error.code).toBe(errorCode);
  });

  test('English /search is unchanged beside it: the English index, English words, English pages', async () => {
    const response = await get('/search?q=math');
    const html = await response.text();
    expect(response.status).toBe(200);
    expect(status(html)).toBe('Found 2 results for "math"');
    expect(hrefs(html)).toEqual(['/faqs#what-about-math', '/']);
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<title>Results for &quot;math&quot; | Mastery Parents</title>');
    const english = await (await get('/api/search?q=matematicas')).json();
    expect(english.rows.map((row: { url: string }) => row.url)).toEqual(['/blogs-insights/why-two-hours-is-enough']);
    expect((await get(`/search?q=${'x'.repeat(5000)}`)).status).toBe(400);
  });

  test('without its Spanish index the search says so in Spanish, with 503 and no detail', async () => {
    const previous = process.env.SITE_DIR;
    // A fresh site folder with no index: the function reads it anew for another folder.
    const empty = mkdtempSync(join(tmpdir(), 'es-search-empty-'));
    process.env.SITE_DIR = empty;
    try {
      const response = await get('/es/search?q=tarde');
      expect(response.status).toBe(503);
      expect(await response.text()).toBe('La búsqueda no está disponible en este momento. Vuelva a intentarlo más tarde.');
      const api = await get('/api/search?q=tarde&lang=es');
      expect(api.status).toBe(503);
      expect((await api.json()).error.message).toBe('La búsqueda no está disponible en este momento. Vuelva a intentarlo más tarde.');
    } finally {
      process.env.SITE_DIR = previous;
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe("the dialog's words", () => {
  test('come from its data-words, English for what is missing', () => {
    const words = dialogWordsOf(JSON.stringify({ found: '{count} resultados para «{query}»', none: 'No hay resultados para «{query}»' }));
    expect(resultsStatus(3, 'tarde', words)).toBe('3 resultados para «tarde»');
    expect(resultsStatus(0, 'zzqxj', words)).toBe('No hay resultados para «zzqxj»');
    expect(words.prompt).toBe(englishDialogWords.prompt);
    expect(dialogWordsOf('not json')).toEqual(englishDialogWords);
    // What is typed is shown as typed.
    expect(resultsStatus(0, '$& $1', words)).toBe('No hay resultados para «$& $1»');
    expect(resultsStatus(2, 'math', englishDialogWords)).toBe('Found 2 results for "math"');
  });
});
