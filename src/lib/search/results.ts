/** Turns Pagefind's answers into the rows the search dialog lists. */

export interface PagefindSubResult {
  title: string;
  url: string;
  excerpt: string;
}

export interface PagefindResultData {
  url: string;
  excerpt: string;
  meta: { title?: string };
  sub_results?: PagefindSubResult[];
}

export interface SearchRow {
  title: string;
  /** Where the hit is, e.g. the page a question belongs to. */
  context?: string;
  url: string;
  /** Pagefind's excerpt: text with <mark> around the matches. */
  excerpt: string;
}

/** Drops the ".html" Pagefind keeps from the built file names: the site's URLs have none. */
export function cleanUrl(url: string): string {
  return url.replace(/\/index\.html(?=$|#)/, '/').replace(/\.html(?=$|#)/, '');
}

/** How many of the query's words a heading's title and excerpt hold. */
export function score(sub: PagefindSubResult, query: string): number {
  const text = `${sub.title} ${sub.excerpt.replace(/<\/?mark>/g, '')}`.toLowerCase();
  const words = [...new Set(query.toLowerCase().split(/\s+/).filter(Boolean))];
  return words.filter((word) => text.includes(word)).length;
}

/**
 * One row per page, or, when the matches sit under headings with anchors (each FAQ question,
 * each article section), one row per such heading (the `perPage` best, by how many query words
 * each holds), linking straight to it. The heading that is the page's own title is left out.
 */
export function toRows(results: PagefindResultData[], query = '', perPage = 3): SearchRow[] {
  const rows: SearchRow[] = [];
  for (const result of results) {
    const page = result.meta.title ?? cleanUrl(result.url);
    const anchored = (result.sub_results ?? [])
      .filter((sub) => sub.url.includes('#') && sub.title !== page)
      .map((sub, index) => ({ sub, index, score: score(sub, query) }))
      .sort((a, b) => b.score - a.score || a.index - b.index)
      .map(({ sub }) => sub);
    if (anchored.length) {
      for (const sub of anchored.slice(0, perPage)) {
        rows.push({ title: sub.title, context: page, url: cleanUrl(sub.url), excerpt: sub.excerpt });
      }
    } else {
      rows.push({ title: page, url: cleanUrl(result.url), excerpt: result.excerpt });
    }
  }
  return rows;
}

/** Copies an excerpt into `target` keeping only text and <mark>: nothing else from the index is trusted. */
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
