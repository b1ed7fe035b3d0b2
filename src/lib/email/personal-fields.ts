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
export const ownWordsHelp = `In your own words: it goes into your letter right after your introduction. Plain text, no links or email addresses, at most ${NOTE_MAX} characters.`;

/** The site-kept fields of the email forms (never HubSpot fields), with their labels, in form order. */
export const personalFieldLabels = { [OWN_WORDS_FIELD]: ownWordsLabel, [NOTE_FIELD]: noteLabel } as const;
export const personalFieldNames = Object.keys(personalFieldLabels);
