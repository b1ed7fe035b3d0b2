/**
 * Parents' own words, quoted only with their agreement and chosen by people (DESIGN.md "Proof":
 * the parent's explicit agreement, asked apart from the letter, and a staff star). When writing, a
 * parent may tick "You may quote my words on our school's page (first name only)" (unticked until
 * they do); the agreement is kept per letter and per answer (`word_consents`, migration 0034). Staff
 * read, on the admin page (each read audited), only the words of parents who agreed, from letters
 * that went to the school and count on its verified page (src/server/schools/publication.ts: on
 * record, and delivered by the platform or a self-report staff approved) and, for an answer's
 * comment, from answers that count (an outcome once staff reviewed it). They star the ones that
 * may speak for a school, cutting from the copy what should not be shown (a child's name); only that
 * copy, with the parent's first name and without any email address, link or phone number, is ever
 * shown, on the school's page and in its digest. A parent withdraws their agreement from "Your
 * data" (`withdrawStarredWords`): every quote of theirs comes down at once.
 *
 * Table `starred_words` (migration 0030) keeps the published copy, the first name, the school page
 * and the parent as a keyed hash (never the address).
 */
import { createHmac, hkdfSync } from 'node:crypto';
import { z } from 'zod';
import { onlyLeavesOut, withoutContactDetails } from '../../lib/shared/email/detect';
import { normaliseNote } from '../../lib/shared/email/note';
import { query, queryOne, sql } from '../db';
import { serverEnv } from '../env';
import { HttpError } from '../http';
import { canonicalAddress } from '../identity';

export const wordFields = ['note', 'own_words', 'answer_comment'] as const;
export type WordField = (typeof wordFields)[number];
export const wordFieldLabels: Record<WordField, string> = {
  note: 'Note',
  own_words: 'What would this change for your child?',
  answer_comment: "Comment on the school's answer",
};

/** What the parent agreed to with one tick: the words of their letter, or the comment of their answer. */
export type ConsentSource = 'letter' | 'answer';
export const sourceOfField = (field: WordField): ConsentSource => (field === 'answer_comment' ? 'answer' : 'letter');

/** The words a published copy may hold at most. */
export const STARRED_MAX = 2000;

/**
 * Staff star one of a parent's words, optionally with their own copy of it (the words with a
 * child's name or a detail cut out); starring words already starred saves the new copy.
 */
export const starSchema = z
  .object({
    messageId: z.string().min(1).max(100),
    field: z.enum(wordFields),
    words: z.string().trim().min(1, 'The copy to publish is empty.').max(STARRED_MAX).optional(),
  })
  .strict();
export const unstarSchema = starSchema.omit({ words: true });

/** The parent as the starred words know them: a keyed hash of their canonical address. */
function parentHash(email: string): string {
  const secret = serverEnv.configEncryptionKey ?? 'local';
  const key = Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.alloc(0), 'mastery-parents starred words v1', 32));
  return createHmac('sha256', key).update(canonicalAddress(email), 'utf8').digest('base64url').slice(0, 32);
}

/** The first name of a full name: its first word, letters, apostrophes and hyphens only. */
export function firstNameOf(fullName: string): string {
  const first = fullName.normalize('NFKC').trim().split(/\s+/)[0] ?? '';
  return first.replace(/[^\p{L}\p{M}'’-]/gu, '').slice(0, 60) || 'A parent';
}

export interface ParentWords {
  messageId: string;
  field: WordField;
  schoolName: string;
  firstName: string;
  words: string;
  sentAt: string | null;
  starred: boolean;
  /** The copy the page shows, when starred (staff may have cut from it). */
  starredCopy?: string;
}

/** The copy of a parent's words that may stand on a page: within its length, without any way to reach anyone. */
export function publishableCopy(words: string): string {
  return withoutContactDetails(normaliseNote(words)).slice(0, STARRED_MAX).trim();
}

/**
 * Records or takes back a parent's agreement to be quoted, for the words of one letter or of their
 * answer about it. Taking it back takes down what staff starred of those words.
 */
export async function setWordsConsent(message: { id: string; parentEmail: string }, source: ConsentSource, agreed: boolean, now = new Date()): Promise<void> {
  if (agreed) {
    await query(sql`
      INSERT INTO word_consents (message_id, source, parent, given_at) VALUES (${message.id}, ${source}, ${parentHash(message.parentEmail)}, ${now})
      ON CONFLICT (message_id, source) DO NOTHING`);
    return;
  }
  const fields = wordFields.filter((field) => sourceOfField(field) === source);
  await query(sql`
    WITH gone AS (DELETE FROM word_consents WHERE message_id = ${message.id} AND source = ${source} RETURNING 1)
    DELETE FROM starred_words WHERE message_id = ${message.id} AND field = ANY(${fields}::text[])`);
}

/** Whether the parent agreed that these words of theirs may be quoted (and has not taken it back). */
export async function hasWordsConsent(messageId: string, source: ConsentSource): Promise<boolean> {
  return Boolean(await queryOne(sql`SELECT 1 FROM word_consents WHERE message_id = ${messageId} AND source = ${source}`));
}

interface WordsRow {
  id: string;
  school_name: string | null;
  parent_name: string | null;
  sent_at: Date | null;
  note: string | null;
  own_words: string | null;
  comment: string | null;
  starred: Array<{ field: WordField; words: string }> | null;
}

// A letter whose words may reach staff: it went to the school and counts on its verified page
// (publication.ts: delivered by the platform, or a self-report staff approved).
const letterCounts = sql`m.status IN ('sent', 'delivered') AND m.erased_at IS NULL AND i.page IS NOT NULL`;
// An agreement of `source` for message m that stands (no withdrawal since it was given).
const agreed = (source: ConsentSource) => sql`EXISTS (
  SELECT 1 FROM word_consents c WHERE c.message_id = m.id AND c.source = ${source}
    AND NOT EXISTS (SELECT 1 FROM starred_words_withdrawals w WHERE w.parent = c.parent AND w.withdrawn_at >= c.given_at))`;
// An answer that counts: an outcome once staff approved it in the review queue, any other answer at once.
const answerCounts = sql`EXISTS (SELECT 1 FROM impact_answers ia WHERE ia.message_id = m.id)`;

/**
 * The words staff may star, newest first, a page after `cursor` (the last message id of the page
 * before): only of parents who agreed, from letters that count on a verified school's page, and an
 * answer's comment only once that answer counts. The caller audits the read.
 */
export async function listParentWords(cursor: string | undefined, limit = 30): Promise<{ words: ParentWords[]; nextCursor?: string }> {
  const rows = await query<WordsRow>(sql`
    SELECT m.id, m.record->>'schoolName' AS school_name, m.record->>'parentName' AS parent_name, m.sent_at,
           CASE WHEN ${agreed('letter')} THEN nullif(m.record->>'note', '') END AS note,
           CASE WHEN ${agreed('letter')} THEN nullif(m.record->>'ownWords', '') END AS own_words,
           CASE WHEN ${agreed('answer')} AND ${answerCounts} THEN nullif(a.record->>'comment', '') END AS comment,
           (SELECT json_agg(json_build_object('field', s.field, 'words', s.words)) FROM starred_words s WHERE s.message_id = m.id) AS starred
    FROM outbox_messages m JOIN impact_sends i ON i.message_id = m.id LEFT JOIN school_answers a ON a.message_id = m.id
    WHERE ${letterCounts} AND m.id > ${cursor ?? ''}
      AND ((${agreed('letter')} AND (nullif(m.record->>'note', '') IS NOT NULL OR nullif(m.record->>'ownWords', '') IS NOT NULL))
        OR (${agreed('answer')} AND ${answerCounts} AND nullif(a.record->>'comment', '') IS NOT NULL))
    ORDER BY m.id LIMIT ${limit + 1}`);
  const page = rows.slice(0, limit);
  const words = page.flatMap((row) =>
    (
      [
        ['note', row.note],
        ['own_words', row.own_words],
        ['answer_comment', row.comment],
      ] as Array<[WordField, string | null]>
    )
      .filter(([, text]) => text)
      .map(([field, text]) => {
        const starred = (row.starred ?? []).find((entry) => entry.field === field);
        return {
          messageId: row.id,
          field,
          schoolName: row.school_name ?? '',
          firstName: firstNameOf(row.parent_name ?? ''),
          words: text!,
          sentAt: row.sent_at?.toISOString() ?? null,
          starred: Boolean(starred),
          ...(starred ? { starredCopy: starred.words } : {}),
        };
      }),
  );
  return { words, ...(rows.length > limit ? { nextCursor: page[page.length - 1]!.id } : {}) };
}

/**
 * Stars one of a parent's words for their school's page, as `input.words` when staff cut from it
 * (or the words as written), without contact details; starring starred words again saves the new
 * copy ('edited'). Refused (409) without the parent's standing agreement, or when the letter did
 * not reach the school and count on its page, or an answer that does not count yet.
 */
export async function starWords(input: z.infer<typeof starSchema>, by: string, now = new Date()): Promise<{ outcome: 'starred' | 'edited'; words: string }> {
  const source = sourceOfField(input.field);
  const row = await queryOne<{
    page: string | null;
    counts: boolean;
    parent_email: string;
    parent_name: string;
    note: string | null;
    own_words: string | null;
    comment: string | null;
    answer_counts: boolean;
    agreed: boolean;
  }>(sql`
    SELECT i.page, (${letterCounts}) AS counts, m.record->>'parentEmail' AS parent_email, m.record->>'parentName' AS parent_name,
           nullif(m.record->>'note', '') AS note, nullif(m.record->>'ownWords', '') AS own_words, nullif(a.record->>'comment', '') AS comment,
           ${answerCounts} AS answer_counts, ${agreed(source)} AS agreed
    FROM outbox_messages m LEFT JOIN school_answers a ON a.message_id = m.id LEFT JOIN impact_sends i ON i.message_id = m.id
    WHERE m.id = ${input.messageId} AND m.erased_at IS NULL`);
  const original = row && { note: row.note, own_words: row.own_words, answer_comment: row.comment }[input.field];
  if (!row || !original) throw new HttpError(404, 'unknown_words', 'These words are no longer here (the email may have been deleted).');
  // Words show only on a verified school's page, from a letter that reached the school and counts there.
  if (!row.counts || !row.page)
    throw new HttpError(
      409,
      'not_delivered',
      'This letter has not reached its school or does not count on a verified school’s page (not delivered, not approved, or its school is not verified), so its words cannot be shown.',
    );
  if (input.field === 'answer_comment' && !row.answer_counts)
    throw new HttpError(409, 'answer_not_reviewed', 'This answer does not count yet (an outcome waits for the review queue), so its comment cannot be shown.');
  if (!row.agreed)
    throw new HttpError(
      409,
      'no_consent',
      'This parent did not agree to be quoted on their school’s page (or took it back), so these words cannot be starred.',
    );
  const copy = publishableCopy(input.words ?? original);
  if (input.words !== undefined && !onlyLeavesOut(original, input.words))
    throw new HttpError(
      400,
      'words_added',
      'The copy may only leave words out of what the parent wrote (put “[name]”, “[removed]” or “…” where you cut); it may not add or change words.',
    );
  if (!copy) throw new HttpError(400, 'empty_copy', 'Nothing would be left to show: keep some of the parent’s words, or leave them unstarred.');
  const parent = parentHash(row.parent_email);
  const by200 = by.slice(0, 200);
  const written = await queryOne<{ edited: boolean }>(sql`
    INSERT INTO starred_words (message_id, field, school_page, parent, first_name, words, starred_at, starred_by)
    SELECT ${input.messageId}, ${input.field}, ${row.page}, ${parent}, ${firstNameOf(row.parent_name)}, ${copy}, ${now}, ${by200}
    WHERE EXISTS (SELECT 1 FROM outbox_messages m WHERE m.id = ${input.messageId} AND ${agreed(source)})
    ON CONFLICT ON CONSTRAINT starred_words_once DO UPDATE SET words = EXCLUDED.words, edited_at = ${now}, edited_by = ${by200}
    RETURNING (edited_at IS NOT NULL) AS edited`);
  // The agreement was taken back between the read and the write.
  if (!written) throw new HttpError(409, 'no_consent', 'This parent took back their agreement to be quoted; these words cannot be starred.');
  return { outcome: written.edited ? 'edited' : 'starred', words: copy };
}

export async function unstarWords(input: z.infer<typeof unstarSchema>): Promise<void> {
  await query(sql`DELETE FROM starred_words WHERE message_id = ${input.messageId} AND field = ${input.field}`);
}

/** The starred words of a school's page, newest first: first name and the published copy only. */
export async function starredWordsFor(schoolPageKey: string, limit = 6): Promise<Array<{ firstName: string; words: string }>> {
  if (!/^[0-9a-f]{32}$/.test(schoolPageKey)) return [];
  const rows = await query<{ first_name: string; words: string }>(sql`
    SELECT first_name, words FROM starred_words WHERE school_page = ${schoolPageKey} ORDER BY starred_at DESC LIMIT ${limit}`);
  return rows.map((row) => ({ firstName: row.first_name, words: row.words }));
}

/** What "Your data" shows of one parent's words: the agreements they gave and the quotes on school pages now. */
export interface ParentQuotes {
  agreements: Array<{ messageId: string; source: ConsentSource; givenAt: string }>;
  quotes: Array<{ messageId: string; field: WordField; firstName: string; words: string; starredAt: string }>;
}

export async function quotesOf(parentEmail: string): Promise<ParentQuotes> {
  const parent = parentHash(parentEmail);
  const [agreements, quotes] = await Promise.all([
    query<{ message_id: string; source: ConsentSource; given_at: Date }>(
      sql`SELECT message_id, source, given_at FROM word_consents WHERE parent = ${parent} ORDER BY given_at LIMIT 500`,
    ),
    query<{ message_id: string; field: WordField; first_name: string; words: string; starred_at: Date }>(
      sql`SELECT message_id, field, first_name, words, starred_at FROM starred_words WHERE parent = ${parent} ORDER BY starred_at LIMIT 500`,
    ),
  ]);
  return {
    agreements: agreements.map((row) => ({ messageId: row.message_id, source: row.source, givenAt: row.given_at.toISOString() })),
    quotes: quotes.map((row) => ({
      messageId: row.message_id,
      field: row.field,
      firstName: row.first_name,
      words: row.words,
      starredAt: row.starred_at.toISOString(),
    })),
  };
}

/**
 * A parent takes back every agreement to be quoted ("Your data", or deleting their data): their
 * quotes come down from the school pages at once, their agreements go (a draft not yet sent
 * forgets its ticked box too), and nothing given before now can be starred again. Returns how many
 * quotes came down.
 */
export async function withdrawStarredWords(parentEmail: string, now = new Date()): Promise<number> {
  const parent = parentHash(parentEmail);
  const rows = await query<{ n: number }>(sql`
    WITH stop AS (
      INSERT INTO starred_words_withdrawals (parent, withdrawn_at) VALUES (${parent}, ${now})
      ON CONFLICT (parent) DO UPDATE SET withdrawn_at = EXCLUDED.withdrawn_at RETURNING 1),
    agreements AS (DELETE FROM word_consents WHERE parent = ${parent} RETURNING 1),
    drafts AS (
      UPDATE email_drafts SET record = record || '{"wordsConsent": false}'::jsonb, version = version + 1
      WHERE canonical_address(record->'data'->>'parentEmail') = ${canonicalAddress(parentEmail)} AND record->>'wordsConsent' = 'true' RETURNING 1),
    gone AS (DELETE FROM starred_words WHERE parent = ${parent} RETURNING 1)
    SELECT count(*)::int AS n FROM gone`);
  return Number(rows[0]?.n ?? 0);
}
