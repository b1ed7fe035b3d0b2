/**
 * The parent's own words in the email forms, by name and label: the personal note and the answer to
 * "What would this change for your child?". Kept apart from their checks (note.ts), so that a page
 * that only draws or names these fields does not load the link detector.
 */
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

/** The site-kept fields of the email forms (never HubSpot fields), with their labels, in form order. */
export const personalFieldLabels = { [OWN_WORDS_FIELD]: ownWordsLabel, [NOTE_FIELD]: noteLabel, [WORDS_CONSENT_FIELD]: wordsConsentLabel } as const;
export const personalFieldNames = Object.keys(personalFieldLabels);
