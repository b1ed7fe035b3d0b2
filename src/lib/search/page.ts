/**
 * The /search page with JavaScript: reads `?q=`, searches the Pagefind index and lists the
 * results. The query is only ever shown as text. With no query, or when the index cannot load,
 * the list of the site's sections is shown instead of results.
 */
import { cleanQuery, MAX_QUERY_LENGTH, searchRows } from './engine';
import { renderRow, resultsStatus } from './render';

const MAX_PAGES = 20;

export async function initSearchPage(root: Document = document): Promise<void> {
  const input = root.querySelector<HTMLInputElement>('[data-search-page-input]');
  const status = root.querySelector<HTMLElement>('[data-search-page-status]');
  const list = root.querySelector<HTMLOListElement>('[data-search-page-results]');
  const template = root.querySelector<HTMLTemplateElement>('[data-search-page-row]');
  const fallback = root.querySelector<HTMLElement>('[data-search-page-fallback]');
  if (!input || !status || !list || !template || !fallback) return;

  const raw = new URLSearchParams(location.search).get('q') ?? '';
  const query = cleanQuery(raw);
  input.value = query;
  const showSections = (shown: boolean) => fallback.toggleAttribute('data-shown', shown);

  if (!query) {
    status.textContent = 'Type a word or two to search the FAQs, articles and pages.';
    showSections(true);
    input.focus();
    return;
  }

  status.textContent = `Searching for "${query}"…`;
  let rows;
  try {
    rows = await searchRows(query, { maxPages: MAX_PAGES });
  } catch {
    status.textContent = 'Search is unavailable right now. Please try again later, or browse the sections below.';
    showSections(true);
    return;
  }
  if (!rows) return;
  list.replaceChildren(...rows.map((row) => renderRow(template, row)));
  const shortened = raw.replace(/\s+/g, ' ').trim().length > MAX_QUERY_LENGTH ? ` (the search used its first ${MAX_QUERY_LENGTH} characters)` : '';
  status.textContent = resultsStatus(rows.length, query) + shortened;
  showSections(rows.length === 0);
}
