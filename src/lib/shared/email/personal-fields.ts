/**
 * The parent's own words in the email forms, by name and label: the personal note and the answer to
 * "What would this change for your child?". Kept apart from their checks (note.ts), so that a page
 * that only draws or names these fields does not load the link detector.
 */
import type { Locale } from '../../../config/locales';

export const NOTE_MAX = 600;
/** The note's name in the email forms; the site keeps it (it is never a HubSpot field). */
export const NOTE_FIELD = '_note';
export const noteLabel = 'Add a personal note';
export const noteHelp = `A few words of your own, shown after your introduction. Plain text, no links or email addresses, at most ${NOTE_MAX} characters.`;

/**
 * The one question the email forms ask in the parent's words, under the note's rules; the answer
 * stands in the letter right after the introduction, before the note.
 */
export const OWN_WORDS_FIELD = '_own_words';
export const ownWordsLabel = 'What would this change for your child?';
export const ownWordsHelp = `In your own words: it goes into your letter to the school right after your introduction, and nowhere else unless you tick the box below. Plain text, no links or email addresses, at most ${NOTE_MAX} characters.`;

/**
 * The parent's agreement that their words (the answer above and the note) may be quoted on their
 * school's page: a box of its own, apart from the letter, never ticked until they tick it. Only
 * `WORDS_CONSENT_VALUE` means yes; an unticked box sends nothing.
 */
export const WORDS_CONSENT_FIELD = '_quote_words';
export const WORDS_CONSENT_VALUE = 'yes';
export const wordsConsentLabel = 'You may quote my words on our school’s page (first name only)';
export const wordsConsentHelp =
  'Optional, and apart from your letter. Only if our team chooses them after your letter reaches the school; they may shorten them, and never show your email, a link or a phone number. Change your mind any time from “Your data”.';
export const wordsConsentMessage = 'Tick this box, or leave it empty: nothing else can be sent for it.';

/** The words of these fields in each language of the site (usted, plain words). */
export const personalWords: Record<
  Locale,
  Record<'noteLabel' | 'noteHelp' | 'ownWordsLabel' | 'ownWordsHelp' | 'wordsConsentLabel' | 'wordsConsentHelp' | 'wordsConsentMessage', string>
> = {
  en: { noteLabel, noteHelp, ownWordsLabel, ownWordsHelp, wordsConsentLabel, wordsConsentHelp, wordsConsentMessage },
  es: {
    noteLabel: 'Agregue una nota personal',
    noteHelp: `Unas palabras suyas, que van después de su presentación. Texto simple, sin enlaces ni correos electrónicos, de ${NOTE_MAX} caracteres como máximo.`,
    ownWordsLabel: '¿Qué cambiaría esto para su hijo?',
    ownWordsHelp: `Con sus propias palabras: va en su carta a la escuela justo después de su presentación, y en ningún otro lugar a menos que marque la casilla de abajo. Texto simple, sin enlaces ni correos electrónicos, de ${NOTE_MAX} caracteres como máximo.`,
    wordsConsentLabel: 'Pueden citar mis palabras en la página de nuestra escuela (solo mi nombre de pila)',
    wordsConsentHelp:
      'Es opcional y aparte de su carta. Solo si nuestro equipo las elige después de que su carta llegue a la escuela; pueden acortarlas y nunca muestran su correo, un enlace ni un número de teléfono. Puede cambiar de opinión cuando quiera desde “Sus datos”.',
    wordsConsentMessage: 'Marque esta casilla o déjela vacía: no se puede enviar otra cosa en ella.',
  },
};

/** The site-kept fields of the email forms (never HubSpot fields), with their labels, in form order. */
export const personalFieldLabels = { [OWN_WORDS_FIELD]: ownWordsLabel, [NOTE_FIELD]: noteLabel, [WORDS_CONSENT_FIELD]: wordsConsentLabel } as const;
export const personalFieldNames = Object.keys(personalFieldLabels);

/** `personalFieldLabels` in one language. */
export function personalFieldLabelsIn(locale: Locale): Record<string, string> {
  const words = personalWords[locale];
  return { [OWN_WORDS_FIELD]: words.ownWordsLabel, [NOTE_FIELD]: words.noteLabel, [WORDS_CONSENT_FIELD]: words.wordsConsentLabel };
}
