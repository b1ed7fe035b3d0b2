/**
 * The parent's own words in the school email (the personal note, and the answer to "What would
 * this change for your child?"): optional, plain text, at most 600 characters, with
 * no links and no email addresses (the platform sends in the organisation's name, so nothing in
 * the note may turn it into a vehicle for links or for contacting someone else). One rule for the
 * form, the dialog and the server.
 */
import type { Locale } from '../../../config/locales';
import { forbiddenContent, withoutInvisible } from './detect';
import { NOTE_MAX } from './personal-fields';

export * from './personal-fields';

export const noteMessages = {
  tooLong: `Please keep your note to ${NOTE_MAX} characters.`,
  link: 'Please leave links out of your note; the email already has the video and the booking link.',
  email: 'Please leave email addresses out of your note.',
  markup: 'Please write your note as plain text, without HTML.',
} as const;

/**
 * The note as it is stored and sent: NFKC (what the checks read is what is sent), control,
 * direction and every other invisible character removed, spaces and tabs at line ends dropped, at most one blank line in a
 * row, trimmed. Linear in the length (a run of 60,000 spaces costs what 60,000 letters do).
 */
export function normaliseNote(note: string): string {
  return withoutInvisible(note.normalize('NFKC'))
    .replace(/\r\n?/g, '\n')
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/g, '')
    .split('\n')
    .map(trimLineEnd)
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** A line without the spaces and tabs at its end (a scan, not a pattern that backtracks). */
function trimLineEnd(line: string): string {
  let end = line.length;
  while (end > 0 && (line.charCodeAt(end - 1) === 32 || line.charCodeAt(end - 1) === 9)) end--;
  return end === line.length ? line : line.slice(0, end);
}

/** `noteMessages` in each language of the site. */
const noteMessagesByLocale: Record<Locale, Record<keyof typeof noteMessages, string>> = {
  en: noteMessages,
  es: {
    tooLong: `Por favor, escriba su nota en ${NOTE_MAX} caracteres como máximo.`,
    link: 'Por favor, no ponga enlaces en su nota; el correo ya lleva el video y el enlace para agendar.',
    email: 'Por favor, no ponga direcciones de correo electrónico en su nota.',
    markup: 'Por favor, escriba su nota como texto simple, sin HTML.',
  },
};

/** What is wrong with a note, or undefined when it can be sent. */
export function noteProblem(note: string, locale: Locale = 'en'): string | undefined {
  return personalTextProblem(note, noteMessagesByLocale[locale]);
}

/** What the answer to the one question in the parent's words is told, under the note's rules. */
export const ownWordsMessages = {
  tooLong: `Please keep your answer to ${NOTE_MAX} characters.`,
  link: 'Please leave links out of your answer; the email already has the video and the booking link.',
  email: 'Please leave email addresses out of your answer.',
  markup: 'Please write your answer as plain text, without HTML.',
} as const satisfies Record<keyof typeof noteMessages, string>;

const ownWordsMessagesByLocale: Record<Locale, Record<keyof typeof noteMessages, string>> = {
  en: ownWordsMessages,
  es: {
    tooLong: `Por favor, escriba su respuesta en ${NOTE_MAX} caracteres como máximo.`,
    link: 'Por favor, no ponga enlaces en su respuesta; el correo ya lleva el video y el enlace para agendar.',
    email: 'Por favor, no ponga direcciones de correo electrónico en su respuesta.',
    markup: 'Por favor, escriba su respuesta como texto simple, sin HTML.',
  },
};

/** What is wrong with an answer to the question, or undefined when it can be sent. */
export function ownWordsProblem(answer: string, locale: Locale = 'en'): string | undefined {
  return personalTextProblem(answer, ownWordsMessagesByLocale[locale]);
}

function personalTextProblem(value: string, messages: Record<keyof typeof noteMessages, string>): string | undefined {
  const text = normaliseNote(value);
  if (text.length > NOTE_MAX) return messages.tooLong;
  const forbidden = forbiddenContent(text);
  return forbidden ? messages[forbidden] : undefined;
}
