/** One search result as a list item, built from a <template> with text only (never innerHTML). */
import type { SearchRow } from './site-index';

export function renderRow(template: HTMLTemplateElement, row: SearchRow): HTMLLIElement {
  const item = template.content.firstElementChild!.cloneNode(true) as HTMLLIElement;
  const link = item.querySelector<HTMLAnchorElement>('a')!;
  link.href = row.url;
  item.querySelector<HTMLElement>('[data-row-title]')!.textContent = row.title;
  const context = item.querySelector<HTMLElement>('[data-row-context]')!;
  context.textContent = row.context ?? '';
  context.hidden = !row.context;
  renderExcerpt(row.excerpt, item.querySelector<HTMLElement>('[data-row-excerpt]')!);
  return item;
}

/**
 * The dialog's lines in the page's language (search.yaml's `header`, handed to it in the dialog's
 * `data-words`): `{count}` and `{query}` stand for the figures.
 */
export interface DialogWords {
  prompt: string;
  found: string;
  none: string;
  unavailable: string;
}

export const englishDialogWords: DialogWords = {
  prompt: 'Type to search FAQs, articles and pages.',
  found: 'Found {count} results for "{query}"',
  none: 'No results found for "{query}"',
  unavailable: 'Search is unavailable right now. Please try again later.',
};

/** The dialog's words from its `data-words`; what is missing or not a string is English's. */
export function dialogWordsOf(json: string | undefined): DialogWords {
  let given: Record<string, unknown> = {};
  try {
    given = JSON.parse(json ?? '{}') as Record<string, unknown>;
  } catch {
    given = {};
  }
  const pick = (key: keyof DialogWords) => (typeof given?.[key] === 'string' ? (given[key] as string) : englishDialogWords[key]);
  return { prompt: pick('prompt'), found: pick('found'), none: pick('none'), unavailable: pick('unavailable') };
}

/** The line above the results (the wording of the FAQ search); set it as text, never as HTML. */
export function resultsStatus(count: number, query: string, words: DialogWords = englishDialogWords): string {
  // A function as replacement: a "$&" in the query stays as typed.
  const fill = (text: string) => text.replace('{count}', () => String(count)).replace('{query}', () => query);
  return fill(count ? words.found : words.none);
}

/** Copies an excerpt into `target` keeping only text and <mark>: nothing else from the answer is trusted. */
export function renderExcerpt(excerpt: string, target: HTMLElement): void {
  target.textContent = '';
  const parts = excerpt.split(/(<mark>|<\/mark>)/);
  let marked = false;
  for (const part of parts) {
    if (part === '<mark>') marked = true;
    else if (part === '</mark>') marked = false;
    else if (part) {
      const text = document.createTextNode(decodeEntities(part));
      if (marked) {
        const mark = document.createElement('mark');
        mark.append(text);
        target.append(mark);
      } else target.append(text);
    }
  }
}

function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&amp;/g, '&');
}
