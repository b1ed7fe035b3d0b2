/**
 * The search dialog's behaviour, loaded the first time it opens: results as the visitor types,
 * Enter follows the first result, "All results" (or Enter with none yet) goes to /search.
 */
import { cleanQuery, loadPagefind, searchRows } from './engine';
import { renderRow, resultsStatus } from './render';

const MAX_PAGES = 8;
const started = new WeakSet<HTMLDialogElement>();

export function startSearch(dialog: HTMLDialogElement): void {
  const input = dialog.querySelector<HTMLInputElement>('[data-search-input]')!;
  input.focus();
  input.select();
  if (started.has(dialog)) return;
  started.add(dialog);

  const status = dialog.querySelector<HTMLElement>('[data-search-status]')!;
  const list = dialog.querySelector<HTMLUListElement>('[data-search-results]')!;
  const template = dialog.querySelector<HTMLTemplateElement>('[data-search-row]')!;
  let latest = 0;

  const run = async (query: string) => {
    const ticket = ++latest;
    const trimmed = cleanQuery(query);
    if (!trimmed) {
      list.replaceChildren();
      status.textContent = 'Type to search FAQs, articles and pages.';
      return;
    }
    let rows;
    try {
      rows = await searchRows(trimmed, { maxPages: MAX_PAGES, debounce: 150 });
    } catch {
      status.textContent = 'Search is unavailable right now. Please try again later.';
      return;
    }
    if (!rows || ticket !== latest) return;
    list.replaceChildren(
      ...rows.map((row) => {
        const item = renderRow(template, row);
        // Same-page anchors (an FAQ on the FAQ page) need the dialog out of the way.
        item.querySelector('a')!.addEventListener('click', () => dialog.close());
        return item;
      }),
    );
    status.textContent = resultsStatus(rows.length, trimmed);
  };

  input.addEventListener('input', () => void run(input.value));
  // Enter in the box follows the first result when there is one; otherwise the form goes to /search.
  input.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' || event.isComposing) return;
    const first = list.querySelector<HTMLAnchorElement>('a');
    if (!first) return;
    event.preventDefault();
    first.click();
  });

  // Arrow keys move between the input and the results.
  dialog.addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const links = [...list.querySelectorAll<HTMLAnchorElement>('a')];
    if (!links.length) return;
    const index = links.indexOf(document.activeElement as HTMLAnchorElement);
    event.preventDefault();
    if (event.key === 'ArrowDown') links[Math.min(index + 1, links.length - 1)]!.focus();
    else if (index <= 0) input.focus();
    else links[index - 1]!.focus();
  });

  // Warm the index while the visitor types the first letters.
  void loadPagefind().catch(() => undefined);
  if (input.value) void run(input.value);
}
