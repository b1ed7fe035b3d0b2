/**
 * The markup of one search result row, for the /search page the `search` function renders and for
 * the dialog's <template> (SearchRowTemplate.astro), so the two cannot differ. With no row it is
 * the empty template the dialog fills in (src/lib/shared/search/render.ts).
 */
import { escapeText, type SearchRow } from './site-index';

/** The classes of each part; the dialog and the page differ only in the link's look. */
export function searchRowHtml(linkClass: string, row?: SearchRow): string {
  const context = row?.context ? escapeText(row.context) : '';
  return `<li><a class="block rounded-xl ${linkClass}"${row ? ` href="${escapeText(row.url)}"` : ''}><span class="block text-xs font-semibold uppercase tracking-wider text-brand-600" data-row-context${row && !row.context ? ' hidden' : ''}>${context}</span><span class="block font-semibold text-ink" data-row-title>${row ? escapeText(row.title) : ''}</span><span class="search-excerpt mt-1 block text-sm text-ink-soft" data-row-excerpt>${row ? safeExcerpt(row.excerpt) : ''}</span></a></li>`;
}

/** An excerpt as HTML keeping only its <mark>s: every other `<` is escaped again, whatever made it. */
export function safeExcerpt(excerpt: string): string {
  return excerpt
    .split(/(<mark>|<\/mark>)/)
    .map((part) => (part === '<mark>' || part === '</mark>' ? part : part.replace(/</g, '&lt;').replace(/>/g, '&gt;')))
    .join('');
}
