/**
 * Function tests that answer with pages need the built pages `astro build` writes (/form-response,
 * /search, the school page frames in each language, the English one with its suggestion of the
 * Spanish page; the e2e suite serves the real ones). Here: a scratch SITE_DIR holding a page of the same
 * shape — a document whose marked region the function fills.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { regionMarkers, responseRegion } from '../../../src/lib/shared/forms/render';
import { writeSiteIndex } from '../../../src/lib/build/search/build-index';
import { SCHOOL_FORM_INSTANCE, SCHOOL_REGION } from '../../../src/lib/shared/school-page-words';
import { SEARCH_REGION, SECTIONS_REGION } from '../../../src/lib/shared/search/site-index';

export function useSiteShell(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'site-'));
  writeFileSync(
    join(dir, 'form-response.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Your form | Mastery Parents</title></head><body><main id="main">${responseRegion.start}<h1>Nothing to show yet</h1>${responseRegion.end}</main></body></html>`,
  );
  // The same page in Spanish (src/pages/es/form-response.astro), for a visitor who wrote from a Spanish page.
  mkdirSync(join(dir, 'es'));
  writeFileSync(
    join(dir, 'es', 'form-response.html'),
    `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>Su formulario | Mastery Parents</title></head><body><main id="main">${responseRegion.start}<h1>Todavía no hay nada que mostrar</h1>${responseRegion.end}</main></body></html>`,
  );
  // The /search page and a one-page search index, as `astro build` writes them.
  const results = regionMarkers(SEARCH_REGION);
  const sections = regionMarkers(SECTIONS_REGION);
  writeFileSync(
    join(dir, 'search.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Search | Mastery Parents</title></head><body><main id="main" data-pagefind-body><h1>Search</h1><form action="/search"><input name="q" data-search-page-input></form>${results.start}<p data-search-page-status>Type a word or two.</p>${results.end}${sections.start}<div data-search-page-sections><a href="/faqs">FAQs</a></div>${sections.end}</main></body></html>`,
  );
  // The frame of the school pages: its region and the email form's, filled by the function.
  const school = regionMarkers(SCHOOL_REGION);
  const schoolForm = regionMarkers(SCHOOL_FORM_INSTANCE);
  writeFileSync(
    join(dir, 'school-page.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Add your voice | Mastery Parents</title><link rel="canonical" href="https://site.example/school-page"><meta property="og:url" content="https://site.example/school-page"></head><body><header><a href="/es" lang="es" hreflang="es" class="switch" data-language-switch><span aria-hidden="true">Español</span></a></header><main id="main">${school.start}<h1>Your school's page</h1>${school.end}<div id="email-form"><h2>Add your voice</h2>${schoolForm.start}<form data-build-form><input name="school_contact_email"></form>${schoolForm.end}</div></main><footer><a href="/es" lang="es" hreflang="es" data-language-switch>Español</a></footer><language-suggestion hidden lang="es" data-locale="es"><aside aria-label="Idioma"><p>Esta página también está en español. <a href="/es/school-page" hreflang="es" class="font-semibold" data-suggestion-link>Leer en español</a></p><button type="button" aria-label="Cerrar" data-suggestion-dismiss></button></aside></language-suggestion></body></html>`,
  );
  // Its Spanish frame (src/pages/es/school-page.astro), for /es/schools/{key}.
  writeFileSync(
    join(dir, 'es', 'school-page.html'),
    `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>Sume su voz | Mastery Parents</title><link rel="canonical" href="https://site.example/es/school-page"><meta property="og:url" content="https://site.example/es/school-page"></head><body><header><a href="/" lang="en" hreflang="en" class="switch" data-language-switch><span aria-hidden="true">English</span></a></header><main id="main">${school.start}<h1>La página de su escuela</h1>${school.end}<div id="email-form"><h2>Sume su voz</h2>${schoolForm.start}<form data-build-form lang="es"><input type="hidden" name="_locale" value="es"><input name="school_contact_email"></form>${schoolForm.end}</div></main><footer><a href="/" lang="en" hreflang="en" data-language-switch>English</a></footer></body></html>`,
  );
  writeFileSync(
    join(dir, 'faqs.html'),
    `<!doctype html><html lang="en"><head><title>FAQs | Mastery Parents</title></head><body><main data-pagefind-body><h1>Frequently Asked Questions</h1><p>Mastery learning in two focused hours.</p></main></body></html>`,
  );
  writeSiteIndex(dir, 'faqs.html');
  process.env.SITE_DIR = dir;
  return {
    dir,
    remove() {
      rmSync(dir, { recursive: true, force: true });
      delete process.env.SITE_DIR;
    },
  };
}

/** The visible text of a page's filled region, tags removed. */
export function regionText(html: string): string {
  const start = html.indexOf(responseRegion.start);
  const end = html.indexOf(responseRegion.end);
  return html
    .slice(start + responseRegion.start.length, end)
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}
