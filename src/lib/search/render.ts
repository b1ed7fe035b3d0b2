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

/** The line above the results (the wording of the FAQ search); set it as text, never as HTML. */
export function resultsStatus(count: number, query: string): string {
  return count ? `Found ${count} results for "${query}"` : `No results found for "${query}"`;
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
