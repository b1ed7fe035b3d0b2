/**
 * The school email (§2 "Email preview content"): one pure function from the email data to
 * to / subject / body. Every missing value falls back to its bracketed placeholder, so the parent
 * sees exactly what is still to fill in.
 */
import type { Locale } from '../../../config/locales';
import type { EmailData } from '../schemas';
import { GRADE_PLACEHOLDER, gradeIn, normaliseGrade } from './grade';
import { normaliseNote } from './note';

export const placeholders = {
  schoolName: '[School Name]',
  greetingName: '[Name]',
  parentFullName: '[Your Name]',
  childFullName: "[Child's Name]",
  childGrade: GRADE_PLACEHOLDER,
  schoolContactName: '[School Contact Name]',
  schoolContactEmail: '[School Administrator Email]',
} as const;

/** The template's own words (greeting, signature, subject, placeholders) in each language a letter is written in. */
export const letterWords = {
  en: {
    placeholders,
    dear: (name: string) => `Dear ${name},`,
    regards: 'Warm regards,',
    parentOf: (child: string, grade: string) => `Parent of ${child}, ${grade}`,
    subject: (school: string) => `How ${school} can unlock mastery learning for every student`,
  },
  es: {
    placeholders: {
      schoolName: '[Nombre de la escuela]',
      greetingName: '[Nombre]',
      parentFullName: '[Su nombre]',
      childFullName: '[Nombre de su hijo o hija]',
      childGrade: '[Grado]',
      schoolContactName: '[Nombre del contacto en la escuela]',
      schoolContactEmail: '[Correo del contacto en la escuela]',
    },
    dear: (name: string) => `Estimado/a ${name}:`,
    regards: 'Atentamente,',
    parentOf: (child: string, grade: string) => `Madre o padre de ${child}, ${grade}`,
    subject: (school: string) => `Cómo ${school} puede ofrecer el aprendizaje por dominio a cada alumno`,
  },
} satisfies Record<Locale, { placeholders: Record<keyof typeof placeholders, string> } & Record<string, unknown>>;

/** Seconds into the overview video where the preview starts (§9). */
export const VIDEO_START_SECONDS = 10;

export interface EmailLinks {
  /** The 30-second overview video. */
  videoUrl: string;
  /** The page where the school books a call. */
  bookingUrl: string;
}

export interface GeneratedEmail {
  /** The school contact's address, or '' when the parent has not given one. */
  to: string;
  /** "Name <address>" as shown on the To line, with placeholders for what is missing. */
  toLine: string;
  subject: string;
  body: string;
}

const filled = (value: string | undefined, fallback: string) => {
  const trimmed = (value ?? '').trim();
  return trimmed ? trimmed : fallback;
};

/** The video link, made to start at `seconds` unless it already names a start time. */
export function videoLinkAt(url: string, seconds = VIDEO_START_SECONDS): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  const youtube = /(^|\.)(youtube\.com|youtu\.be)$/.test(parsed.hostname);
  if (youtube) {
    if (!parsed.searchParams.has('t') && !parsed.searchParams.has('start')) parsed.searchParams.set('t', `${seconds}s`);
  } else if (!parsed.hash) {
    // Media fragments (#t=10) are understood by browsers' video players and Vimeo alike.
    parsed.hash = `t=${seconds}`;
  }
  return parsed.toString();
}

export function emailSubject(schoolName: string | undefined, language: Locale = 'en'): string {
  const words = letterWords[language];
  return words.subject(filled(schoolName, words.placeholders.schoolName));
}

/** The values a letter's text may name in braces ("{school}"); see letters.ts for the rules. */
export type LetterPlaceholder = 'parent' | 'child' | 'grade' | 'school' | 'video' | 'booking';
export const LETTER_PLACEHOLDER = /\{([^{}\n]*)\}/g;

/**
 * One body of the school email (`content/letters/{id}.yaml`): the introduction, the main text and
 * the closing, with placeholders. The greeting, the parent's own words and the signature are the
 * template's.
 */
export interface Letter {
  id: string;
  introduction: string;
  body: string;
  closing: string;
  /**
   * The language it is written in: the template's greeting, signature and subject follow it
   * (content/letters/{id}.yaml is English, content/letters/es/{id}.yaml Spanish). English when absent.
   */
  language?: Locale;
}

/** A letter's text with its placeholders filled (the values are names, checked to be one line). */
export function fillLetterText(text: string, values: Record<LetterPlaceholder, string>): string {
  return text
    .replace(/\r\n?/g, '\n')
    .trim()
    .replace(LETTER_PLACEHOLDER, (whole, name: string) => (Object.hasOwn(values, name) ? values[name as LetterPlaceholder] : whole));
}

export interface OwnWords {
  /** The answer to "What would this change for your child?" (see note.ts), right after the introduction. */
  ownWords?: string;
  /** The personal note, after the own words. */
  note?: string;
}

/**
 * The email for these values in `letter`'s words. The parent's own words (see `note.ts`) always
 * stand in the same place, right after their introduction: first the answer to "What would this
 * change for your child?", then the note.
 */
export function generateEmail(data: Partial<EmailData>, links: EmailLinks, letter: Letter, options: OwnWords = {}): GeneratedEmail {
  const language = letter.language ?? 'en';
  const words = letterWords[language];
  const placeholders = words.placeholders;
  const ownWords = normaliseNote(options.ownWords ?? '');
  const note = normaliseNote(options.note ?? '');
  const school = filled(data.schoolName, placeholders.schoolName);
  const contactName = (data.schoolContactName ?? '').trim();
  const contactEmail = (data.schoolContactEmail ?? '').trim();
  const parent = filled(data.parentFullName, placeholders.parentFullName);
  const child = filled(data.childFullName, placeholders.childFullName);
  // "5", "Grade 5" and "5th" all read "is in 5th grade"; "K" reads "is in kindergarten" (in Spanish "5.º grado", "kínder").
  const grade = gradeIn(normaliseGrade(data.childGrade), language);
  const values = { parent, child, grade, school, video: videoLinkAt(links.videoUrl), booking: links.bookingUrl };

  const toLine = `${contactName || placeholders.schoolContactName} <${contactEmail || placeholders.schoolContactEmail}>`;

  const body = [
    words.dear(contactName || placeholders.greetingName),
    '',
    fillLetterText(letter.introduction, values),
    '',
    ...(ownWords ? [ownWords, ''] : []),
    ...(note ? [note, ''] : []),
    fillLetterText(letter.body, values),
    '',
    fillLetterText(letter.closing, values),
    '',
    words.regards,
    parent,
    words.parentOf(child, grade),
  ].join('\n');

  return { to: contactEmail, toLine, subject: emailSubject(data.schoolName, language), body };
}

/** The text put on the clipboard: the To line, the subject and the body. */
export function emailAsText(email: GeneratedEmail, language: Locale = 'en'): string {
  const label = language === 'es' ? { to: 'Para:', subject: 'Asunto:' } : { to: 'To:', subject: 'Subject:' };
  return `${label.to} ${email.toLine}\n${label.subject} ${email.subject}\n\n${email.body}`;
}

/** Links that open the email pre-filled: the mail app, Gmail and Outlook on the web. */
export function composeLinks(email: GeneratedEmail): { mailto: string; gmail: string; outlook: string } {
  const enc = encodeURIComponent;
  return {
    mailto: `mailto:${email.to.replace(/[^\w.@+-]/g, (c) => enc(c))}?subject=${enc(email.subject)}&body=${enc(email.body)}`,
    gmail: `https://mail.google.com/mail/?view=cm&fs=1&to=${enc(email.to)}&su=${enc(email.subject)}&body=${enc(email.body)}`,
    outlook: `https://outlook.office.com/mail/deeplink/compose?to=${enc(email.to)}&subject=${enc(email.subject)}&body=${enc(email.body)}`,
  };
}

/** The follow-up's words in each language a letter is written in (the first letter's). */
const followUpWords = {
  en: {
    dear: letterWords.en.dear,
    wrote: (sent: string, school: string) =>
      `I wrote to you on ${sent} about how ${school} could unlock mastery learning for every student. I know how full a school leader's days are, so I wanted to follow up.`,
    ask: 'Would you have fifteen minutes in the coming weeks to talk about it? If someone else at the school is the right person, I would be grateful if you could point me to them.',
    video: (link: string) => `Here is the 30-second overview again: ${link}`,
    thanks: 'Thank you,',
    subject: (subject: string) => `Following up: ${subject}`,
  },
  es: {
    dear: letterWords.es.dear,
    wrote: (sent: string, school: string) =>
      `Le escribí el ${sent} sobre cómo ${school} podría ofrecer el aprendizaje por dominio a cada alumno. Sé lo ocupados que son los días de quien dirige una escuela, así que quería darle seguimiento.`,
    ask: '¿Tendría quince minutos en las próximas semanas para conversar sobre esto? Si otra persona de la escuela es la indicada, le agradecería que me lo dijera.',
    video: (link: string) => `Aquí está de nuevo el resumen de 30 segundos: ${link}`,
    thanks: 'Gracias,',
    subject: (subject: string) => `Seguimiento: ${subject}`,
  },
} satisfies Record<Locale, Record<string, unknown>>;

/**
 * The short, polite follow-up a parent can send when the school has not answered yet: it names the
 * first email, asks for fifteen minutes or the right person, and repeats the video; in the first
 * letter's language (`language`, English by default).
 */
export function followUpEmail(input: {
  subject: string;
  toName: string;
  to: string;
  schoolName: string;
  parentName: string;
  sentAt: string;
  videoUrl: string;
  language?: Locale;
}): GeneratedEmail {
  const language = input.language ?? 'en';
  const words = followUpWords[language];
  const marks = letterWords[language].placeholders;
  const contact = input.toName.trim();
  const sent = new Date(input.sentAt).toLocaleDateString(language === 'es' ? 'es-US' : 'en-US', { month: 'long', day: 'numeric' });
  const school = filled(input.schoolName, marks.schoolName);
  const parent = filled(input.parentName, marks.parentFullName);
  const body = [
    words.dear(contact || marks.greetingName),
    '',
    words.wrote(sent, school),
    '',
    words.ask,
    '',
    words.video(videoLinkAt(input.videoUrl)),
    '',
    words.thanks,
    parent,
  ].join('\n');
  return {
    to: input.to,
    toLine: `${contact || marks.schoolContactName} <${input.to || marks.schoolContactEmail}>`,
    subject: words.subject(input.subject),
    body,
  };
}
