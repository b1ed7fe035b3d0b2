/**
 * The words of every email the site sends (but the school letter, which is `letters.ts`):
 * `content/emails/{kind}.yaml`, one file per kind, edited like the rest of the content. Each text
 * names the values it needs in braces ("{school}"); the schema holds every file to its kind's
 * placeholders (each required one somewhere, no other) and to the rule of all the site's emails:
 * no link, address or markup in the words (links come only from the template: the button and the
 * footer). A file that breaks a rule fails the build naming the file and the field.
 */
import { z } from 'zod';
import { forbiddenContent } from './detect';
import { emailKinds, type EmailKind } from './mail-kinds';

/** The kinds whose words are content (the school letter has its own). */
export const wordKinds = emailKinds.filter((kind): kind is Exclude<EmailKind, 'school_letter'> => kind !== 'school_letter');
export type WordKind = (typeof wordKinds)[number];

const parent = { parent: "the parent's name" };
const school = { school: 'the school\'s name on its record ("your school" when the site does not know it yet)' };
const contact = { contact: "the school contact's name (or address)" };
const recipient = { recipient: 'whom the letter goes to: "Dr. Ruiz at Oakwood Academy", or "your school" for a school not on record' };

/** The placeholders each kind's words may use, and those it must use somewhere. */
export const wordPlaceholders: Record<WordKind, { placeholders: Record<string, string>; required: string[] }> = {
  confirmation: { placeholders: { ...parent, ...school, ...contact, ...recipient, expires: 'when the link stops working' }, required: ['school', 'expires'] },
  reminder: { placeholders: { ...parent, ...school, ...contact, ...recipient, expires: 'when the link stops working' }, required: ['school', 'expires'] },
  refusal: { placeholders: { ...parent, ...school, reason: 'why the platform did not send it' }, required: ['reason'] },
  follow_up: { placeholders: { ...parent, ...school, sent: 'the day the letter went' }, required: ['school'] },
  second_follow_up: { placeholders: { ...parent, ...school, sent: 'the day the letter went' }, required: ['school'] },
  school_update: { placeholders: { ...parent, ...school, outcome: 'what the school did, in a sentence' }, required: ['outcome'] },
  data_link: { placeholders: { expires: 'when the link stops working' }, required: ['expires'] },
  staff_invitation: {
    placeholders: { role: '"an owner" or "staff"', inviter: 'who invited them', expires: 'when the link stops working' },
    required: ['role', 'expires'],
  },
  delivery_failure: { placeholders: { ...parent, ...school, ...contact, address: 'the school address that refused it' }, required: ['address'] },
  letter_not_sent: {
    placeholders: { ...parent, ...school, ...contact, reason: 'what happened, and what the parent can do, in a sentence or two' },
    required: ['reason'],
  },
  self_report: { placeholders: { ...parent, ...school, ...contact, expires: 'when the link stops working' }, required: ['expires'] },
  digest_notice: { placeholders: { ...parent, ...school, ...contact, count: 'how many letters went in the digest' }, required: ['school'] },
  ambassador_link: { placeholders: { name: "the ambassador's name" }, required: [] },
  abuse_alert: {
    placeholders: {
      what: 'what runs past its usual rate, as the Abuse tab names it ("the network 203.0.113.0/24")',
      count: 'its requests in the last hour',
      usual: 'its usual requests per hour over the week before',
      ratio: 'how many times its usual rate the hour is',
    },
    required: ['what', 'count'],
  },
  school_digest: {
    placeholders: { ...school, count: 'how many parents wrote this time', change: 'the count since the first letter, in a sentence' },
    required: ['count'],
  },
};

/**
 * The kinds a parent gets about their letter and their data: each has its words in every language
 * a parent may write in (content/emails/{locale}/{kind}.yaml), with the same placeholders as the
 * English. Staff, ambassadors and schools get English.
 */
export const parentKinds = [
  'confirmation',
  'reminder',
  'refusal',
  'follow_up',
  'second_follow_up',
  'school_update',
  'data_link',
  'delivery_failure',
  'letter_not_sent',
  'self_report',
  'digest_notice',
] as const satisfies readonly WordKind[];

/** The placeholders one kind's words use, in any of its texts. */
export function placeholdersUsed(words: MailWords): string[] {
  const texts = [words.subject, words.preview, words.heading, ...words.paragraphs, ...(words.action ? [words.action] : [])];
  return [...new Set(texts.flatMap(placeholdersIn))].sort();
}

/** The editors' limits: a subject fits an inbox line, a paragraph a phone screen. */
export const WORD_LIMITS = { subject: 120, preview: 150, heading: 120, paragraph: 700, action: 50 } as const;

const PLACEHOLDER = /\{([a-z_]+)\}/g;
const placeholdersIn = (text: string) => [...text.matchAll(PLACEHOLDER)].map((match) => match[1]!);

/**
 * A text of one kind's words: its length, and braces only around that kind's placeholders (one
 * pattern the content editor shows too).
 */
function wordText(kind: WordKind | undefined, min: number, max: number) {
  const names = kind
    ? Object.keys(wordPlaceholders[kind].placeholders)
    : [...new Set(wordKinds.flatMap((each) => Object.keys(wordPlaceholders[each].placeholders)))];
  const listed = names.map((name) => `{${name}}`).join(', ');
  return z
    .string()
    .min(min)
    .max(max)
    .regex(new RegExp(`^(?:[^{}]|\\{(?:${names.join('|')})\\})*$`), `braces only around the placeholders ${listed}`);
}

/** The words of one kind of email (the content editor's form for its file), without the checks across fields. */
export function mailWordsShape(kind?: WordKind) {
  return z.object({
    /** Which email these are the words of; the file is named after it. */
    kind: kind ? z.literal(kind) : z.enum(wordKinds),
    /** The subject line, e.g. "Please confirm your email to {school}". */
    subject: wordText(kind, 5, WORD_LIMITS.subject),
    /** The line inboxes show after the subject (not shown in the email itself). */
    preview: wordText(kind, 5, WORD_LIMITS.preview),
    /** The heading at the top of the email. */
    heading: wordText(kind, 3, WORD_LIMITS.heading),
    /** The paragraphs, in order. Plain text. */
    paragraphs: z
      .array(wordText(kind, 1, WORD_LIMITS.paragraph))
      .min(1)
      .max(8),
    /** The button's words, for the emails that have one (the link itself comes from the site). */
    action: wordText(kind, 2, WORD_LIMITS.action).optional(),
  });
}

export const mailWordsSchema = mailWordsShape().superRefine((words, context) => {
  const { placeholders, required } = wordPlaceholders[words.kind];
  const texts: [string[], string][] = [
    [['subject'], words.subject],
    [['preview'], words.preview],
    [['heading'], words.heading],
    ...words.paragraphs.map((text, index): [string[], string] => [['paragraphs', String(index)], text]),
    ...(words.action ? [[['action'], words.action] as [string[], string]] : []),
  ];
  const used = new Set<string>();
  for (const [path, text] of texts) {
    for (const name of placeholdersIn(text)) {
      used.add(name);
      if (!(name in placeholders))
        context.addIssue({
          code: 'custom',
          path,
          message: `{${name}} is not a placeholder of this email; it has ${
            Object.keys(placeholders)
              .map((known) => `{${known}}`)
              .join(', ') || 'none'
          }`,
        });
    }
    if (/[{}]/.test(text.replace(PLACEHOLDER, ''))) context.addIssue({ code: 'custom', path, message: 'braces only around a placeholder, as {school}' });
    const forbidden = forbiddenContent(text.replace(PLACEHOLDER, 'x'));
    if (forbidden)
      context.addIssue({
        code: 'custom',
        path,
        message: `must not contain ${forbidden === 'link' ? 'a link' : forbidden === 'email' ? 'an email address' : 'markup'}: the email adds its own links`,
      });
  }
  for (const name of required)
    if (!used.has(name)) context.addIssue({ code: 'custom', path: ['paragraphs'], message: `must use {${name}} (${placeholders[name]})` });
});
export type MailWords = z.infer<typeof mailWordsSchema>;

/** The words with their placeholders filled in (values are names and dates, one line each). */
export function fillWords(words: MailWords, values: Record<string, string>): MailWords {
  const fill = (text: string) => text.replace(PLACEHOLDER, (whole, name: string) => values[name] ?? whole);
  return {
    ...words,
    subject: fill(words.subject),
    preview: fill(words.preview),
    heading: fill(words.heading),
    paragraphs: words.paragraphs.map(fill),
    ...(words.action ? { action: fill(words.action) } : {}),
  };
}
