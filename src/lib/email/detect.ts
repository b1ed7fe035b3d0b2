/**
 * What may not travel inside the school email's words: links (a scheme, "www.", a bare domain such
 * as "cheap-pills.com" or "goo.gl/x"), email addresses and markup. The email goes out in the
 * organisation's name, so neither the parent's note nor a name may carry a way to reach someone
 * else. Every check reads the text after NFKC and with look-alike dots and at signs made plain, so
 * that "boss＠evil.ru", "evil。com" and "ｅｖｉｌ．ｃｏｍ" are what they look like.
 *
 * Pure and linear in the length of the text (no pattern here backtracks over a long run).
 */

/** NFKC, plus the full stops NFKC keeps (ideographic 。, halfwidth ｡, presentation ︒) as ".". */
export function plainForm(text: string): string {
  return text.normalize('NFKC').replace(/[\u3002\uff61\ufe12]/g, '.');
}

/** Common top-level domains, and those link shorteners and throwaway sites use. */
const TLDS =
  'com|org|net|edu|gov|mil|int|io|co|info|biz|me|ly|us|uk|ca|au|nz|ie|in|app|dev|xyz|site|online|link|school|academy|page|ai|gl|gd|gg|to|tk|ml|ga|cf|gq|ru|su|cn|de|fr|es|it|nl|be|ch|at|se|no|dk|fi|pl|cz|ua|br|mx|ar|jp|kr|tv|cc|ws|fm|am|im|sh|club|shop|store|top|live|news|click|work|website|space|tech|fun|icu|buzz|cloud|email|bit|lol|one';

// A scheme ("https://", "ftp://"), a scheme that needs no slashes, or "www.".
const SCHEME = /(?<![\p{L}\p{N}])(?:[a-z][a-z0-9+.-]*:\/\/|(?:mailto|javascript|data|vbscript):|www\.)/iu;
// A name ending in one of the domains above, not followed by more of a word or another dot-word.
const DOMAIN = new RegExp(`(?<![\\p{L}\\p{N}-])[\\p{L}\\p{N}-]+(?:\\.[\\p{L}\\p{N}-]+)*\\.(?:${TLDS})(?![\\p{L}\\p{N}-]|\\.[\\p{L}\\p{N}])`, 'iu');
// Any dotted name with a path after it ("goo.gl/x", "t.co/abc"), or a dotted IPv4 address.
const PATHED = /(?<![\p{L}\p{N}-])[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}\/|(?<![\d.])\d{1,3}(?:\.\d{1,3}){3}(?![\d])/iu;
const EMAIL = /[^\s@]+@[^\s@]+\.[^\s@]+/u;
// An HTML or XML tag, comment or entity: "<a", "</b", "<!--", "&lt;", "&#60;".
const MARKUP = /<\s*[a-z!/?]|&(?:#\d{1,7}|#x[0-9a-f]{1,6}|[a-z]{2,8});/i;

export type TextProblem = 'link' | 'email' | 'markup';

/** The first kind of thing the text carries that the school email may not, or undefined. */
export function forbiddenContent(text: string): TextProblem | undefined {
  const plain = plainForm(text);
  if (EMAIL.test(plain)) return 'email';
  if (SCHEME.test(plain) || DOMAIN.test(plain) || PATHED.test(plain)) return 'link';
  if (MARKUP.test(plain)) return 'markup';
  return undefined;
}
