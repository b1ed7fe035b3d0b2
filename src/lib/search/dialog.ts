/**
 * The search UI, loaded the first time the dialog opens. It loads Pagefind's own script
 * (`/pagefind/pagefind.js`, written by the build) at run time and lists titles and excerpts.
 */
import { renderExcerpt, toRows, type PagefindResultData } from './results';

interface Pagefind {
  options(options: Record<string, unknown>): Promise<void>;
  init(): Promise<void>;
  debouncedSearch(query: string, options?: Record<string, unknown>, ms?: number): Promise<{
    results: Array<{ id: string; data(): Promise<PagefindResultData> }>;
  } | null>;
}

const PAGEFIND_URL = '/pagefind/pagefind.js';
const MAX_PAGES = 8;
let pagefind: Promise<Pagefind> | undefined;

function loadPagefind(): Promise<Pagefind> {
  pagefind ??= (import(/* @vite-ignore */ PAGEFIND_URL) as Promise<Pagefind>).then(async (module) => {
    // The index is small: searching on the main thread saves the worker's own 12 KB download.
    await module.options({ excerptLength: 24, noWorker: true });
    await module.init();
    return module;
  });
  pagefind.catch(() => {
    pagefind = undefined;
  });
  return pagefind;
}

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
    const trimmed = query.trim();
    if (!trimmed) {
      list.replaceChildren();
      status.textContent = 'Type to search FAQs, articles and pages.';
      return;
    }
    let engine: Pagefind;
    try {
      engine = await loadPagefind();
    } catch {
      status.textContent = 'Search is unavailable right now. Please try again later.';
      return;
    }
    const search = await engine.debouncedSearch(trimmed, {}, 150);
    if (!search || ticket !== latest) return;
    const data = await Promise.all(search.results.slice(0, MAX_PAGES).map((result) => result.data()));
    if (ticket !== latest) return;
    const rows = toRows(data, trimmed);
    list.replaceChildren(
      ...rows.map((row) => {
        const item = template.content.firstElementChild!.cloneNode(true) as HTMLLIElement;
        const link = item.querySelector<HTMLAnchorElement>('a')!;
        link.href = row.url;
        item.querySelector<HTMLElement>('[data-row-title]')!.textContent = row.title;
        const context = item.querySelector<HTMLElement>('[data-row-context]')!;
        context.textContent = row.context ?? '';
        context.hidden = !row.context;
        renderExcerpt(row.excerpt, item.querySelector<HTMLElement>('[data-row-excerpt]')!);
        // Same-page anchors (an FAQ on the FAQ page) need the dialog out of the way.
        link.addEventListener('click', () => dialog.close());
        return item;
      }),
    );
    status.textContent = rows.length ? `Found ${rows.length} results for "${trimmed}"` : `No results found for "${trimmed}"`;
  };

  input.addEventListener('input', () => void run(input.value));
  dialog.querySelector('form')?.addEventListener('submit', (event) => {
    event.preventDefault();
    list.querySelector<HTMLAnchorElement>('a')?.click();
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
