/**
 * The FAQ page's search box and deep links, on the prebuilt accordion (no React: every question
 * and answer is already in the HTML). Filtering is a case- and accent-insensitive substring match
 * on the question and the answer ("matematicas" finds "matemáticas"); a blank query shows everything.
 * The line under the box is in the page's language: the status element's `data-found` and
 * `data-none`, `{count}` and `{query}` standing for the figures.
 */

import { scrollToId } from './frame/scroll';

/** Lower-cased, accents dropped, whitespace collapsed: what both the query and the texts are compared as. */
export function normalise(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

export function matches(text: string, query: string): boolean {
  const wanted = normalise(query);
  return wanted === '' || normalise(text).includes(wanted);
}

/** What the line under the search box says, in the page's language. */
export interface StatusWords {
  found: string;
  none: string;
}

export const englishStatus: StatusWords = { found: 'Found {count} results', none: 'No results found for "{query}"' };

/** The line under the search box; empty when the query is blank. */
export function statusText(count: number, query: string, words: StatusWords = englishStatus): string {
  const trimmed = query.trim();
  if (!trimmed) return '';
  return count > 0 ? words.found.replace('{count}', String(count)) : words.none.replace('{query}', trimmed);
}

interface Item {
  element: HTMLDetailsElement;
  category: HTMLDetailsElement;
  text: string;
}

export function initFaqPage(root: Document = document): void {
  const input = root.querySelector<HTMLInputElement>('[data-faq-search]');
  const status = root.querySelector<HTMLElement>('[data-faq-status]');
  const categories = [...root.querySelectorAll<HTMLDetailsElement>('[data-faq-category]')];
  const items: Item[] = [...root.querySelectorAll<HTMLDetailsElement>('[data-faq]')].map((element) => ({
    element,
    category: element.closest<HTMLDetailsElement>('[data-faq-category]')!,
    text: element.textContent ?? '',
  }));
  if (!input || !status) return;
  const words: StatusWords = { found: status.dataset.found ?? englishStatus.found, none: status.dataset.none ?? englishStatus.none };

  // Which panels the visitor had open before searching, restored when the query is cleared.
  let saved: Map<HTMLDetailsElement, boolean> | undefined;

  const apply = (query: string) => {
    const blank = query.trim() === '';
    if (!blank && !saved) saved = new Map([...categories, ...items.map((item) => item.element)].map((d) => [d, d.open]));
    let count = 0;
    for (const item of items) {
      const hit = matches(item.text, query);
      item.element.hidden = !hit;
      if (hit) count++;
      if (!blank) item.element.open = hit;
    }
    for (const category of categories) {
      const visible = items.some((item) => item.category === category && !item.element.hidden);
      category.hidden = !visible;
      if (!blank) category.open = visible;
    }
    if (blank && saved) {
      for (const [details, open] of saved) details.open = open;
      saved = undefined;
    }
    status.textContent = statusText(count, query, words);
  };

  input.addEventListener('input', () => apply(input.value));
  // A search submitted with Enter stays on the page.
  input.form?.addEventListener('submit', (event) => {
    event.preventDefault();
    apply(input.value);
    // The address says what is shown, as it would after the form's own submission.
    const query = input.value.trim();
    history.replaceState(null, '', query ? `?q=${encodeURIComponent(query)}${location.hash}` : `${location.pathname}${location.hash}`);
  });

  // What the visitor typed before this script arrived (the box is there from the first paint), or
  // the browser restored on going back, is searched for at once; else the address's ?q=.
  const initial = new URLSearchParams(location.search).get('q');
  if (input.value.trim()) apply(input.value);
  else if (initial) {
    input.value = initial.slice(0, 200);
    apply(input.value);
  }

  /** Opens the question a #hash names (and its category), clearing a search that hides it. */
  const openFromHash = () => {
    const id = decodeURIComponent(location.hash.slice(1));
    if (!id) return;
    const target = root.getElementById(id);
    const item = target?.closest<HTMLDetailsElement>('[data-faq]');
    if (!target || !item) return;
    if (item.hidden) {
      input.value = '';
      apply('');
    }
    item.closest<HTMLDetailsElement>('[data-faq-category]')!.open = true;
    item.open = true;
    target.scrollIntoView({ block: 'start' });
    item.querySelector<HTMLElement>('summary')?.focus({ preventScroll: true });
  };
  openFromHash();
  window.addEventListener('hashchange', openFromHash);

  // "Browse FAQs" and "Ask a Question" glide to their section (plain anchors without JavaScript).
  for (const link of root.querySelectorAll<HTMLAnchorElement>('[data-scroll-to]')) {
    link.addEventListener('click', (event) => {
      event.preventDefault();
      const id = link.dataset.scrollTo!;
      history.replaceState(null, '', `#${id}`);
      scrollToId(id);
    });
  }
}
