/**
 * The parent's own words in the school email: optional, plain text, at most 600 characters, with
 * no links and no email addresses (the platform sends in the organisation's name, so nothing in
 * the note may turn it into a vehicle for links or for contacting someone else). One rule for the
 * form, the dialog and the server.
 */
export const NOTE_MAX = 600;
/** The note's name in the email forms; the site keeps it (it is never a HubSpot field). */
export const NOTE_FIELD = '_note';
export const noteLabel = 'Add a personal note';
export const noteHelp = `A few words of your own, shown after your introduction. Plain text, no links or email addresses, at most ${NOTE_MAX} characters.`;

export const noteMessages = {
  tooLong: `Please keep your note to ${NOTE_MAX} characters.`,
  link: 'Please leave links out of your note; the email already has the video and the booking link.',
  email: 'Please leave email addresses out of your note.',
} as const;

// A scheme ("https://", "ftp://"), "www.", or a name ending in a common top-level domain.
const LINK = /\b[a-z][a-z0-9+.-]*:\/\/|\bwww\.|\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|org|net|edu|gov|io|co|info|biz|me|ly|us|uk|ca|au|app|dev|xyz|site|online|link|school|academy|page|ai)\b(?!\.\w)/i;
const EMAIL = /[^\s@]+@[^\s@]+\.[^\s@]+/;

/** The note as it is stored and sent: control characters removed, at most one blank line in a row, trimmed. */
export function normaliseNote(note: string): string {
  return note
    .replace(/\r\n?/g, '\n')
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, '')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** What is wrong with a note, or undefined when it can be sent. */
export function noteProblem(note: string): string | undefined {
  const text = normaliseNote(note);
  if (text.length > NOTE_MAX) return noteMessages.tooLong;
  if (EMAIL.test(text)) return noteMessages.email;
  if (LINK.test(text)) return noteMessages.link;
  return undefined;
}
