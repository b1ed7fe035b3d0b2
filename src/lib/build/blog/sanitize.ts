/**
 * HubSpot post bodies are HTML written in another system: before it reaches our pages and JSON it
 * goes through sanitize-html with an allow-list. No scripts, styles, frames, forms, event handlers
 * or `javascript:`/`data:` URLs survive.
 */
import sanitizeHtml from 'sanitize-html';

const options: sanitizeHtml.IOptions = {
  allowedTags: [
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'p',
    'br',
    'hr',
    'blockquote',
    'pre',
    'code',
    'span',
    'div',
    'ul',
    'ol',
    'li',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'sub',
    'sup',
    'small',
    'mark',
    'a',
    'img',
    'figure',
    'figcaption',
    'table',
    'thead',
    'tbody',
    'tfoot',
    'tr',
    'th',
    'td',
    'caption',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height', 'loading'],
    th: ['colspan', 'rowspan', 'scope'],
    td: ['colspan', 'rowspan'],
    '*': ['id'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // An <h1> in a post body would compete with the page title: it becomes an <h2>.
  transformTags: {
    h1: 'h2',
    a: (tagName, attribs) => {
      const attrs = { ...attribs };
      if (attrs.href?.startsWith('#')) attrs.href = `#post-${attrs.href.slice(1)}`;
      if (attrs.target === '_blank' || /^https?:/i.test(attrs.href ?? '')) {
        attrs.target = '_blank';
        attrs.rel = 'noopener noreferrer';
      }
      return { tagName, attribs: attrs };
    },
    img: (tagName, attribs) => ({ tagName, attribs: { ...attribs, loading: 'lazy', alt: attribs.alt ?? '' } }),
  },
};

/** Ids are kept for in-post links but prefixed, so that none collides with the page's own ("main"). */
export function sanitizeBlogHtml(html: string): string {
  return sanitizeHtml(html, options)
    .replace(/\sid="(?!post-)([^"]*)"/g, ' id="post-$1"')
    .trim();
}
