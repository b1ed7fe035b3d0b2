/** One search result as a list item, built from a <template> with text only (never innerHTML). */
import { renderExcerpt, type SearchRow } from './results';

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
