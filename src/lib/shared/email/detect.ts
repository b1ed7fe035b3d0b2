/**
 * What may not travel inside the school email's words: links (a scheme, "www.", a domain under any
 * top-level domain that exists, an IP address), email addresses and markup. The email goes out in
 * the organisation's name, so neither the parent's note nor a name may carry a way to reach someone
 * else.
 *
 * Every check reads the text as a reader would see it (`plainForm`): NFKC, invisible characters
 * removed (a zero-width joiner or a word joiner inside "evil\u2060.com" hides nothing), look-alike
 * dots and at signs made plain ("evil。com", "boss＠evil.ru"), and the usual disguises undone
 * ("evil[.]com", "evil (dot) com", "evil . com"). Links are then found by linkify-it with the full,
 * current list of top-level domains (the `tlds` package, internationalised ones included, so
 * "evil.zip", "bit.do" and "пример.рф" are links), not by a list kept here.
 *
 * Pure and linear in the length of the text (no pattern here backtracks over a long run).
 */
import { LinkifyIt } from 'linkify-it';
import tlds from 'tlds' with { type: 'json' };

/**
 * Characters a reader does not see: format characters (bidirectional marks and overrides, zero-width
 * spaces and joiners, the word joiner, tags U+E0000–E007F), every default-ignorable code point
 * (variation selectors, Hangul fillers, the combining grapheme joiner), private-use and unassigned
 * code points, and the blank Braille pattern.
 */
const INVISIBLE = /[\p{Cf}\p{Co}\p{Cn}\p{Default_Ignorable_Code_Point}\u2800]/u;
const INVISIBLE_ALL = new RegExp(INVISIBLE.source, 'gu');

/** The text without the characters a reader cannot see. */
export function withoutInvisible(text: string): string {
  return text.replace(INVISIBLE_ALL, '');
}

/** Whether the text holds a character a reader cannot see. */
export function hasInvisible(text: string): boolean {
  return INVISIBLE.test(text);
}

/** Full stops that NFKC keeps as they are (ideographic 。, halfwidth ｡, presentation ︒, leaders ․ ‧). */
const LOOKALIKE_DOTS = /[\u3002\uff61\ufe12\u2024\u2027]/g;

/** NFKC, without invisible characters, with the look-alike full stops as ".". */
export function plainForm(text: string): string {
  return withoutInvisible(text.normalize('NFKC')).replace(LOOKALIKE_DOTS, '.');
}

/**
 * The disguises people use to keep a link or an address past a filter, undone: a dot or at sign in
 * brackets ("evil[.]com", "boss[at]evil.ru", "evil (dot) com"), and spaces around a dot that has a
 * space before it ("evil . com", "evil .com"). A bare " dot " stays a word ("polka dot club").
 * A sentence's own full stop ("It works. Me too") keeps its space and stays a sentence.
 */
export function undisguised(text: string): string {
  return text
    .replace(/\s*[[({<]\s*(?:\.|dot)\s*[\])}>]\s*/giu, '.')
    .replace(/\s*[[({<]\s*(?:@|at)\s*[\])}>]\s*/giu, '@')
    .replace(/(?<=[\p{L}\p{N}])\s+\.\s*(?=[\p{L}\p{N}])/gu, '.');
}

const linkify = new LinkifyIt({ fuzzyLink: true, fuzzyEmail: true, fuzzyIP: true }).tlds(tlds);

// A scheme ("https://", "ftp://"), a scheme that needs no slashes, or "www.".
const SCHEME = /(?<![\p{L}\p{N}])(?:[a-z][a-z0-9+.-]*:\/\/|(?:mailto|javascript|data|vbscript|tel|sms):|www\.)/iu;
const EMAIL = /[^\s@]+@[^\s@]+\.[^\s@]+/u;
// An HTML or XML tag, comment or entity: "<a", "</b", "<!--", "&lt;", "&#60;".
const MARKUP = /<\s*[a-z!/?]|&(?:#\d{1,7}|#x[0-9a-f]{1,6}|[a-z]{2,8});/i;

export type TextProblem = 'link' | 'email' | 'markup';

/** The first kind of thing the text carries that the school email may not, or undefined. */
export function forbiddenContent(text: string): TextProblem | undefined {
  const plain = undisguised(plainForm(text));
  const matches = linkify.match(plain) ?? [];
  if (EMAIL.test(plain) || matches.some((match) => match.schema === 'mailto:')) return 'email';
  if (SCHEME.test(plain) || matches.length > 0) return 'link';
  if (MARKUP.test(plain)) return 'markup';
  return undefined;
}

/** What stands where a contact detail was taken out of words published on a page. */
export const REMOVED_MARK = '[removed]';
const EMAIL_ALL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu;
const SCHEME_ALL = /(?<![\p{L}\p{N}])(?:[a-z][a-z0-9+.-]*:\/\/|(?:mailto|javascript|data|vbscript|tel|sms):|www\.)\S*/giu;
// A run of digits with the separators phone numbers are written with; only nine digits or more are a number to take out.
const PHONE_ALL = /\+?\(?\d[\d\s()./-]{5,}\d/gu;

/**
 * The text as it may stand on a public page: read as `forbiddenContent` reads it (disguises undone),
 * with every email address, link and phone number replaced by "[removed]". What staff publish of a
 * parent's words never carries a way to reach anyone, whatever the words or the staff's copy hold.
 */
export function withoutContactDetails(text: string): string {
  let plain = undisguised(plainForm(text)).replace(EMAIL_ALL, REMOVED_MARK);
  const links = linkify.match(plain) ?? [];
  for (const link of [...links].reverse()) plain = `${plain.slice(0, link.index)}${REMOVED_MARK}${plain.slice(link.lastIndex)}`;
  return plain.replace(SCHEME_ALL, REMOVED_MARK).replace(PHONE_ALL, (run) => (run.replace(/\D/g, '').length >= 9 ? REMOVED_MARK : run));
}

const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;
// What an editor may put in place of what they cut: a mark, never a word of their own.
const EDITOR_MARKS = /\[(?:name|child|school|removed|…|\.\.\.)\]/giu;

/**
 * Whether `copy` only leaves words out of `original` (in their order): an editor may cut a child's
 * name or a detail, and put "[name]", "[removed]" or "…" in its place, but never add a word the
 * parent did not write.
 */
export function onlyLeavesOut(original: string, copy: string): boolean {
  const from = plainForm(original).toLowerCase().match(WORD) ?? [];
  const kept = plainForm(copy).replace(EDITOR_MARKS, ' ').toLowerCase().match(WORD) ?? [];
  let at = 0;
  for (const word of kept) {
    while (at < from.length && from[at] !== word) at++;
    if (at === from.length) return false;
    at++;
  }
  return true;
}
