/**
 * The school email a parent's accepted email-form submission makes. The forms function stores a
 * draft for each such submission and hands the submitting browser a one-time send token; the
 * store keeps only its hash. "Send via our platform" names the draft and the token, never text:
 * the server composes what it sends from the draft with the template the dialog's preview uses.
 *
 * Table `email_drafts`: one row per accepted submission, the draft as `record` and `version`, which
 * every change must name.
 */
import { emailFormFields, sendChoiceField } from '../../config/forms';
import { publicEnv } from '../../config/env';
import { referralDataSchema, type ReferralData } from '../../lib/shared/schemas';
import { generateEmail, type EmailLinks, type GeneratedEmail, type Letter } from '../../lib/shared/email/template';
import { isPlatformChoice } from '../../lib/shared/email/submission';
import { query, queryOne, sql } from '../db';
import type { Locale } from '../../config/locales';
import { letterById, letterIn, pickLetter } from './bodies';
import type { Attribution } from '../schools/pages';
import { hashSecret, newSecret } from '../tokens';

export interface EmailDraft {
  /** The form submission's id. */
  id: string;
  purpose: string;
  data: ReferralData;
  /** The parent chose "Send via our platform" in the form. */
  wantsPlatformSend: boolean;
  /** The note written in the form, if any (the dialog may change it before sending). */
  note: string;
  /** The answer to "What would this change for your child?", if any; right after the introduction. */
  ownWords?: string;
  /**
   * The parent ticked "You may quote my words on our school's page (first name only)" (unticked
   * unless they do; the dialog and /your-email may change it before sending). Kept with the letter
   * as its agreement (src/server/schools/starred-words.ts), never written into it.
   */
  wordsConsent?: boolean;
  /**
   * The letter (body) this parent got in the school's rotation, kept whole so that what the parent
   * previews is what is sent even if the letter is edited meanwhile. Drafts made before letters
   * had none: they read as the first letter.
   */
  letter?: Letter;
  /** The links the email carries, fixed when the draft is made so the preview and the send agree. */
  links: EmailLinks;
  tokenHash: string;
  createdAt: string;
  /** Set once, when the parent asks the platform to send: the message made from this draft. */
  messageId?: string;
  /** Set when the parent says they sent it themselves (copy or mail app). */
  selfSentMessageId?: string;
  /** How the parent came: on their own, through another parent's share link, or an ambassador's. */
  attribution?: Attribution;
  /** The verified school the parent picked (a suggestion, or the school page the form was on), by its page key. */
  schoolKey?: string;
  /** The language of the page the parent wrote from: their emails' and pages'. English when absent. */
  locale?: Locale;
}

/** A draft as it is read: with its letter. */
export type LetteredDraft = EmailDraft & { letter: Letter };

/** Drafts no longer needed (unsent after this long) are removed by the purge. */
export const DRAFT_RETENTION_MS = 30 * 24 * 3600_000;

/** The email data of an accepted email-form submission (HubSpot field names → template fields). */
export function emailDataOf(values: Record<string, string>): ReferralData {
  const raw = Object.fromEntries(Object.entries(emailFormFields).map(([key, field]) => [key, (values[field] ?? '').trim()]));
  return referralDataSchema.parse(raw);
}

export function currentLinks(): EmailLinks {
  return { videoUrl: publicEnv.emailVideoUrl, bookingUrl: publicEnv.bookingUrl };
}

export function composeDraft(draft: Pick<LetteredDraft, 'data' | 'links' | 'ownWords' | 'letter'>, note: string): GeneratedEmail {
  return generateEmail(draft.data, draft.links, draft.letter, { ownWords: draft.ownWords ?? '', note });
}

/** A stored draft with its letter (the first letter for a draft made before there were several). */
async function withLetter(draft: EmailDraft): Promise<LetteredDraft> {
  return draft.letter ? (draft as LetteredDraft) : { ...draft, letter: await letterById(undefined) };
}

/**
 * Stores the draft of an accepted submission and returns the one-time send token (only this
 * answer ever holds it) with the email as composed now.
 */
export async function createDraft(input: {
  id: string;
  purpose: string;
  values: Record<string, string>;
  note?: string;
  ownWords?: string;
  wordsConsent?: boolean;
  attribution?: Attribution;
  schoolKey?: string;
  held?: boolean;
  /** The language the parent chose for the letter (English unless they chose another). */
  letterLocale?: Locale;
  /** The language of the page the form was on. */
  locale?: Locale;
  now?: Date;
}) {
  const token = newSecret();
  const data = emailDataOf(input.values);
  // The school's next letter: a parent who sends the form twice moves the rotation on too.
  // Its variant in the language the parent chose, kept whole with the draft like the letter itself.
  const letter = await letterIn(await pickLetter({ address: data.schoolContactEmail, name: data.schoolName }, input.now), input.letterLocale ?? 'en');
  const draft: LetteredDraft = {
    id: input.id,
    purpose: input.purpose,
    data,
    wantsPlatformSend: isPlatformChoice(input.values[sendChoiceField.name]),
    note: input.note ?? '',
    ownWords: input.ownWords ?? '',
    wordsConsent: input.wordsConsent ?? false,
    letter,
    links: currentLinks(),
    tokenHash: hashSecret(token),
    createdAt: (input.now ?? new Date()).toISOString(),
    attribution: input.attribution ?? { via: 'direct' },
    ...(input.schoolKey ? { schoolKey: input.schoolKey } : {}),
    ...(input.locale && input.locale !== 'en' ? { locale: input.locale } : {}),
  };
  await query(sql`
    INSERT INTO email_drafts (id, token_hash, created_at, letter_id, held, locale, record) VALUES (${draft.id}, ${draft.tokenHash}, ${draft.createdAt}, ${letter.id}, ${input.held ?? false}, ${draft.locale ?? 'en'}, ${draft})
    ON CONFLICT (id) DO NOTHING`);
  return { token, draft, email: composeDraft(draft, draft.note) };
}

/** A draft with its version; `held` while its submission is held as automated (it gives no power until released). */
export async function readDraft(id: string): Promise<{ draft: LetteredDraft; etag: string; held: boolean } | undefined> {
  const row = await queryOne<{ record: EmailDraft; version: number; held: boolean }>(sql`SELECT record, version, held FROM email_drafts WHERE id = ${id}`);
  return row ? { draft: await withLetter(row.record), etag: String(row.version), held: row.held } : undefined;
}

/** Staff released a held submission: its draft may now ask for a send. */
export async function releaseDraft(id: string): Promise<void> {
  await query(sql`UPDATE email_drafts SET held = false WHERE id = ${id}`);
}

/** Records a change to a draft only if nobody changed it since `etag` was read; false otherwise. */
export async function updateDraft(draft: EmailDraft, etag: string): Promise<boolean> {
  const row = await queryOne<{ version: number }>(sql`
    UPDATE email_drafts SET record = ${draft}, letter_id = ${draft.letter?.id ?? null}, message_id = ${draft.messageId ?? null}, self_sent_message_id = ${draft.selfSentMessageId ?? null}, version = version + 1
    WHERE id = ${draft.id} AND version = ${Number(etag)}
    RETURNING version`);
  return row !== undefined;
}

/** Deletes the drafts made before `before`; returns how many. */
export async function purgeDrafts(before: Date): Promise<number> {
  return (await query(sql`DELETE FROM email_drafts WHERE created_at < ${before} RETURNING 1`)).length;
}

/**
 * What the browser gets about its draft: the email, its links, its letter and the parent's own
 * words (so the dialog's preview composes exactly what the server does) and the token to send it.
 * Never a "Your data" link: whoever typed the address here has not shown it is theirs.
 */
export function draftAnswer(draft: LetteredDraft, token: string, email: GeneratedEmail) {
  return {
    id: draft.id,
    token,
    data: draft.data,
    links: draft.links,
    letter: draft.letter,
    ownWords: draft.ownWords ?? '',
    note: draft.note,
    wordsConsent: draft.wordsConsent ?? false,
    wantsPlatformSend: draft.wantsPlatformSend,
    email,
  };
}
