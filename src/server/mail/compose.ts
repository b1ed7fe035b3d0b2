/**
 * Composes the site's emails: the words of content/emails/{kind}.yaml (checked by the same schema
 * the build uses; the functions carry the folder, see netlify.toml), filled in and rendered with
 * the React Email templates of src/emails into an HTML part, and into a plain-text part from the
 * same words, written for reading as text: paragraphs kept, every link written out in full.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { createElement, type ReactElement } from 'react';
import { defaultLocale, type Locale } from '../../config/locales';
import { site } from '../../config/site';
import { ActionEmail } from '../../emails/ActionEmail';
import { DigestEmail, type DigestLetter } from '../../emails/DigestEmail';
import type { FooterLink } from '../../emails/Layout';
import { LetterEmail } from '../../emails/LetterEmail';
import { fillWords, mailWordsSchema, parentKinds, placeholdersUsed, wordKinds, type MailWords, type WordKind } from '../../lib/shared/email/mail-words';
import { serverEnv } from '../env';

/** Where the words live, relative to the project (the function's working folder). */
export const EMAILS_DIR = 'content/emails';

let cache: { dir: string; words: Partial<Record<Locale, Promise<Map<WordKind, MailWords>>>> } | undefined;

/**
 * One language's words: English in the folder itself, every kind; another language in its
 * subfolder (content/emails/es), every kind a parent gets (`parentKinds`), each with the same
 * placeholders as its English.
 */
async function readWords(root: string, locale: Locale): Promise<Map<WordKind, MailWords>> {
  const folder = locale === defaultLocale ? EMAILS_DIR : `${EMAILS_DIR}/${locale}`;
  const dir = locale === defaultLocale ? root : join(root, locale);
  const files = (await readdir(dir)).filter((name) => name.endsWith('.yaml'));
  const words = new Map<WordKind, MailWords>();
  for (const name of files) {
    const parsed = mailWordsSchema.safeParse(yaml.load(await readFile(join(dir, name), 'utf8')));
    if (!parsed.success) throw new Error(`${folder}/${name}: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
    if (`${parsed.data.kind}.yaml` !== name) throw new Error(`${folder}/${name}: kind "${parsed.data.kind}" belongs in ${parsed.data.kind}.yaml`);
    words.set(parsed.data.kind, parsed.data);
  }
  const needed: readonly WordKind[] = locale === defaultLocale ? wordKinds : parentKinds;
  const missing = needed.filter((kind) => !words.has(kind));
  if (missing.length) throw new Error(`${folder} has no words for ${missing.join(', ')}`);
  if (locale !== defaultLocale) {
    const english = await allWords(defaultLocale);
    for (const [kind, translated] of words) {
      const want = placeholdersUsed(english.get(kind)!).join(' ');
      const have = placeholdersUsed(translated).join(' ');
      if (want !== have) throw new Error(`${folder}/${kind}.yaml: uses the placeholders "${have}", its English "${want}"; they must be the same`);
    }
  }
  return words;
}

/** The words of every email in one language, checked. Throws (naming the file) when one is missing or not valid. */
export function allWords(locale: Locale = defaultLocale): Promise<Map<WordKind, MailWords>> {
  const dir = serverEnv.emailsDir ?? join(process.cwd(), EMAILS_DIR);
  if (cache?.dir !== dir) cache = { dir, words: {} };
  const held = cache;
  const existing = held.words[locale];
  if (existing) return existing;
  const loaded = readWords(dir, locale);
  held.words[locale] = loaded;
  loaded.catch(() => {
    if (held.words[locale] === loaded) delete held.words[locale];
  });
  return loaded;
}

export interface Rendered {
  subject: string;
  text: string;
  html: string;
  /** The language it is written in, when not English. */
  lang?: Locale;
}

/** The From of the site's own emails: the organisation, on its address. */
export function organisationSender(name: string = site.name): { name: string; address: string } {
  return { name, address: serverEnv.mailFromAddress ?? site.email };
}

async function rendered(subject: string, element: ReactElement, text: string): Promise<Rendered> {
  // Loaded when an email is written, not by every function that imports this module.
  const { render } = await import('@react-email/render');
  return { subject, html: await render(element), text: `${text.trim()}\n` };
}

/** The plain-text footer: why this email came, the links a person needs, who sent it. */
const textFooter = (reason: string, links: FooterLink[] = []) => ['--', reason, ...links.map((link) => `${link.label}: ${link.url}`), site.name].join('\n');

export interface ActionParts {
  /** The button's link (written out in the text part too). */
  actionUrl?: string;
  /** Why this person gets this email, for the footer. */
  reason: string;
  footerLinks?: FooterLink[];
}

/**
 * An email of one of the kinds whose words are content, filled with `values`, in `locale` when the
 * kind is one a parent gets (else English).
 */
export async function composeEmail(kind: WordKind, values: Record<string, string>, parts: ActionParts, locale: Locale = defaultLocale): Promise<Rendered> {
  const language = (parentKinds as readonly WordKind[]).includes(kind) ? locale : defaultLocale;
  const words = fillWords((await allWords(language)).get(kind)!, values);
  const lang = language === defaultLocale ? {} : { lang: language };
  const action = parts.actionUrl && words.action ? [`${words.action}:\n${parts.actionUrl}`] : [];
  const text = [words.heading, ...words.paragraphs, ...action, textFooter(parts.reason, parts.footerLinks)].join('\n\n');
  return {
    ...(await rendered(
      words.subject,
      createElement(ActionEmail, {
        organisation: site.name,
        words,
        actionUrl: parts.actionUrl,
        reason: parts.reason,
        footerLinks: parts.footerLinks,
        lang: language,
      }),
      text,
    )),
    ...lang,
  };
}

/** A parent's letter to their school, as it was previewed, with a line saying how it was sent. */
export async function composeLetter(letter: { subject: string; body: string; parentName: string; language?: Locale }): Promise<Rendered> {
  // The footer in the letter's language (the school reads the letter, not the parent's language).
  const spanish = letter.language === 'es';
  const first = letter.parentName.trim().split(/\s+/)[0] || (spanish ? 'quien la escribió' : 'the parent');
  const footer = spanish
    ? `Enviada en nombre de ${letter.parentName.trim() || 'un padre o una madre'} por ${site.name}. Las respuestas le llegan a ${first}.`
    : `Sent for ${letter.parentName.trim() || 'a parent'} by ${site.name}. Replies go to ${first}.`;
  // The text part is the letter exactly as the parent previewed it.
  return rendered(
    letter.subject,
    createElement(LetterEmail, { body: letter.body, footer, lang: letter.language ?? 'en' }),
    `${letter.body.trim()}\n\n${footer}`,
  );
}

/** Several letters to one school in one email. */
export async function composeDigest(input: {
  school: string;
  letters: DigestLetter[];
  change: string;
  quotes?: { text: string; by: string }[];
  footerLinks?: FooterLink[];
}): Promise<Rendered> {
  const words = fillWords((await allWords()).get('school_digest')!, { school: input.school, count: String(input.letters.length), change: input.change });
  const reason = `Parents of ${input.school} asked ${site.name} to send you these letters.`;
  const text = [
    words.heading,
    ...words.paragraphs,
    ...(input.quotes ?? []).map((quote) => `“${quote.text}” (${quote.by})`),
    ...input.letters.map(
      (letter, index) =>
        `----------\n${index + 1}. From ${letter.parentName}: ${letter.subject}\n\n${letter.body.trim()}\n\nReply to ${letter.parentName}: ${letter.replyUrl}`,
    ),
    textFooter(reason, input.footerLinks),
  ].join('\n\n');
  return rendered(
    words.subject,
    createElement(DigestEmail, { organisation: site.name, words, letters: input.letters, quotes: input.quotes, reason, footerLinks: input.footerLinks }),
    text,
  );
}
