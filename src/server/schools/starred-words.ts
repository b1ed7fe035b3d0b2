/**
 * Parents' own words, chosen by people: staff read the words parents wrote (the note, their answer
 * to "What would this change for your child?", an answer's comment) on the admin page, each read
 * audited, and star the ones that may speak for a school. Only starred words are ever shown, on
 * that school's page and in its digest, with the parent's first name only; a parent withdraws theirs
 * from "Your data" (`withdrawStarredWords`), and staff cannot star them again after that.
 *
 * Table `starred_words` (migration 0030) keeps a copy of the starred words, the first name, the
 * school page and the parent as a keyed hash (never the address).
 */
import { createHmac, hkdfSync } from 'node:crypto';
import { z } from 'zod';
import { isUniqueViolation, query, queryOne, sql } from '../db';
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

export const starSchema = z.object({ messageId: z.string().min(1).max(100), field: z.enum(wordFields) }).strict();

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
}

interface WordsRow {
  id: string;
  school_name: string | null;
  parent_name: string | null;
  sent_at: Date | null;
  note: string | null;
  own_words: string | null;
  comment: string | null;
  starred: WordField[] | null;
}

/**
 * Words parents wrote in the school emails that went out, newest first, a page after `cursor`
 * (the last message id of the page before). The caller audits the read.
 */
export async function listParentWords(cursor: string | undefined, limit = 30): Promise<{ words: ParentWords[]; nextCursor?: string }> {
  const rows = await query<WordsRow>(sql`
    SELECT m.id, m.record->>'schoolName' AS school_name, m.record->>'parentName' AS parent_name, m.sent_at,
           nullif(m.record->>'note', '') AS note, nullif(m.record->>'ownWords', '') AS own_words, nullif(a.record->>'comment', '') AS comment,
           (SELECT array_agg(s.field) FROM starred_words s WHERE s.message_id = m.id) AS starred
    FROM outbox_messages m LEFT JOIN school_answers a ON a.message_id = m.id
    WHERE m.status = 'sent' AND m.id > ${cursor ?? ''}
      AND (nullif(m.record->>'note', '') IS NOT NULL OR nullif(m.record->>'ownWords', '') IS NOT NULL OR nullif(a.record->>'comment', '') IS NOT NULL)
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
      .map(([field, text]) => ({
        messageId: row.id,
        field,
        schoolName: row.school_name ?? '',
        firstName: firstNameOf(row.parent_name ?? ''),
        words: text!,
        sentAt: row.sent_at?.toISOString() ?? null,
        starred: (row.starred ?? []).includes(field),
      })),
  );
  return { words, ...(rows.length > limit ? { nextCursor: page[page.length - 1]!.id } : {}) };
}

/** Stars one of a parent's words for their school's page. */
export async function starWords(input: z.infer<typeof starSchema>, by: string, now = new Date()): Promise<void> {
  const row = await queryOne<{
    page: string | null;
    parent_email: string;
    parent_name: string;
    note: string | null;
    own_words: string | null;
    comment: string | null;
  }>(sql`
    SELECT i.page, m.record->>'parentEmail' AS parent_email, m.record->>'parentName' AS parent_name,
           nullif(m.record->>'note', '') AS note, nullif(m.record->>'ownWords', '') AS own_words, nullif(a.record->>'comment', '') AS comment
    FROM outbox_messages m LEFT JOIN school_answers a ON a.message_id = m.id LEFT JOIN impact_sends i ON i.message_id = m.id
    WHERE m.id = ${input.messageId} AND m.status IN ('sent', 'delivered')`);
  const words = row && { note: row.note, own_words: row.own_words, answer_comment: row.comment }[input.field];
  if (!row || !words) throw new HttpError(404, 'unknown_words', 'These words are no longer here (the email may have been deleted).');
  // Words show only on a verified school's page, from a letter that counts there.
  const page = row.page;
  if (!page)
    throw new HttpError(
      409,
      'not_on_a_page',
      'This letter does not count on a verified school’s page (its school is not verified, or the letter is not delivered or approved yet), so its words cannot be shown.',
    );
  const parent = parentHash(row.parent_email);
  try {
    const inserted = await queryOne(sql`
      INSERT INTO starred_words (message_id, field, school_page, parent, first_name, words, starred_at, starred_by)
      SELECT ${input.messageId}, ${input.field}, ${page}, ${parent}, ${firstNameOf(row.parent_name)}, ${words.slice(0, 2000)}, ${now}, ${by.slice(0, 200)}
      WHERE NOT EXISTS (SELECT 1 FROM starred_words_withdrawals WHERE parent = ${parent})
      RETURNING 1`);
    if (!inserted) throw new HttpError(409, 'words_withdrawn', 'This parent withdrew their words from the school pages; they cannot be starred.');
  } catch (error) {
    if (isUniqueViolation(error, 'starred_words_once')) return;
    throw error;
  }
}

export async function unstarWords(input: z.infer<typeof starSchema>): Promise<void> {
  await query(sql`DELETE FROM starred_words WHERE message_id = ${input.messageId} AND field = ${input.field}`);
}

/** The starred words of a school's page, newest first: first name and words only. */
export async function starredWordsFor(schoolPageKey: string, limit = 6): Promise<Array<{ firstName: string; words: string }>> {
  if (!/^[0-9a-f]{32}$/.test(schoolPageKey)) return [];
  const rows = await query<{ first_name: string; words: string }>(sql`
    SELECT first_name, words FROM starred_words WHERE school_page = ${schoolPageKey} ORDER BY starred_at DESC LIMIT ${limit}`);
  return rows.map((row) => ({ firstName: row.first_name, words: row.words }));
}

/** A parent withdraws every word of theirs from the school pages (and from being starred again). */
export async function withdrawStarredWords(parentEmail: string, now = new Date()): Promise<number> {
  const parent = parentHash(parentEmail);
  const rows = await query<{ n: number }>(sql`
    WITH stop AS (INSERT INTO starred_words_withdrawals (parent, withdrawn_at) VALUES (${parent}, ${now}) ON CONFLICT (parent) DO NOTHING RETURNING 1),
    gone AS (DELETE FROM starred_words WHERE parent = ${parent} RETURNING 1)
    SELECT count(*)::int AS n FROM gone`);
  return Number(rows[0]?.n ?? 0);
}
