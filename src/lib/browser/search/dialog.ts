/**
 * The search dialog's behaviour, loaded the first time it opens: results as the visitor types,
 * Enter follows the first result, "All results" (or Enter with none yet) goes to the results page
 * of the page's language (/search, /es/search). The dialog lists the first page of the results that
 * page shows (at most 10), from the same index, and says how many there are in the page's words.
 */
import { locales } from '../../../config/locales';
import { searchRows } from './engine';
import { cleanQuery } from '../../shared/search/query';
import { dialogWordsOf, renderRow, resultsStatus } from '../../shared/search/render';

/** Wait this long after the last key before asking, so a word typed quickly is one request. */
const DEBOUNCE_MS = 150;
const started = new WeakSet<HTMLDialogElement>();

export function startSearch(dialog: HTMLDialogElement): void {
  const input = dialog.querySelector<HTMLInputElement>('[data-search-input]')!;
  // The opener (./trigger) has focused the input and selected the last query. This runs a moment
  // later: what the visitor typed meanwhile is kept, never selected (the next key would replace it).
  if (started.has(dialog)) return;
  // The first time, what was typed before the code arrived is searched for below.
  started.add(dialog);

  const status = dialog.querySelector<HTMLElement>('[data-search-status]')!;
  const list = dialog.querySelector<HTMLUListElement>('[data-search-results]')!;
  const template = dialog.querySelector<HTMLTemplateElement>('[data-search-row]')!;
  const words = dialogWordsOf(dialog.dataset.words);
  const locale = locales.find((known) => known === dialog.dataset.lang);
  let pending: AbortController | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const show = async (query: string, signal: AbortSignal) => {
    let answer: Awaited<ReturnType<typeof searchRows>>;
    try {
      answer = await searchRows(query, signal, locale);
    } catch {
      if (!signal.aborted) status.textContent = words.unavailable;
      return;
    }
    if (signal.aborted) return;
    list.replaceChildren(
      ...answer.rows.map((row) => {
        const item = renderRow(template, row);
        // Same-page anchors (an FAQ on the FAQ page) need the dialog out of the way.
        item.querySelector('a')!.addEventListener('click', () => dialog.close());
        return item;
      }),
    );
    status.textContent = resultsStatus(answer.total, query, words);
  };

  // Only the latest query counts: an earlier request still on its way is dropped.
  const run = (query: string, wait: number) => {
    pending?.abort();
    clearTimeout(timer);
    const trimmed = cleanQuery(query);
    if (!trimmed) {
      list.replaceChildren();
      status.textContent = words.prompt;
      return;
    }
    const controller = new AbortController();
    pending = controller;
    timer = setTimeout(() => void show(trimmed, controller.signal), wait);
  };

  input.addEventListener('input', () => run(input.value, DEBOUNCE_MS));
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

  if (input.value) run(input.value, 0);
}
