/**
 * The admin's school campaign (Impact tab): the school pages, and one school opened — the parents
 * who wrote (addresses masked, with how they came: on their own, through another parent's share,
 * or an ambassador's link), the letters their emails were written in, the answers over time and
 * the updates sent. Read from the impact events (confirmed sends and self-reports, kept after the
 * 90-day purge without names) and the messages while they are kept.
 */
import { maskAddress } from '../data-rights';
import { query, queryOne, sql } from '../db';
import type { Attribution } from './pages';
import type { Came, Campaign, CampaignParent, CampaignSchool, UpdateState } from '../../lib/shared/schemas/admin';
import type { AnswerKind } from '../../lib/shared/answer-kinds';

/** A keyset cursor: the last row's sort values, opaque to the browser. */
const encodeCursor = (values: string[]) => Buffer.from(JSON.stringify(values), 'utf8').toString('base64url');
function decodeCursor(cursor: string | undefined, length: number): string[] | undefined {
  if (!cursor) return undefined;
  try {
    const values = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(values) && values.length === length && values.every((value) => typeof value === 'string' && value.length <= 300))
      return values as string[];
  } catch {
    // not one of ours
  }
  return undefined;
}

/** Whether a cursor is one this module made (the endpoint refuses others with a 400). */
export const validCursor = (cursor: string, length: number) => decodeCursor(cursor, length) !== undefined;

/** The school pages, most recently written to first, a page at a time (keyset on updated_at, key). */
export async function listCampaignSchools(limit: number, cursor?: string): Promise<{ schools: CampaignSchool[]; nextCursor?: string }> {
  const after = decodeCursor(cursor, 2);
  const rows = await query<{ key: string; school_name: string; updated_at: Date; parents: number }>(sql`
    SELECT p.key, p.school_name, p.updated_at, (SELECT count(DISTINCT s.parent)::int FROM impact_sends s WHERE s.page = p.key) AS parents
    FROM school_pages p
    WHERE (${after?.[0] ?? null}::timestamptz IS NULL OR (p.updated_at, p.key) < (${after?.[0] ?? null}::timestamptz, ${after?.[1] ?? null}::text))
    ORDER BY p.updated_at DESC, p.key DESC LIMIT ${limit + 1}`);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    schools: page.map((row) => ({ key: row.key, schoolName: row.school_name, parents: Number(row.parents), updatedAt: row.updated_at.toISOString() })),
    ...(rows.length > limit && last ? { nextCursor: encodeCursor([last.updated_at.toISOString(), last.key]) } : {}),
  };
}

const cameOf = (attribution: Attribution | null | undefined): Came =>
  attribution?.via === 'parent' ? 'parent' : attribution?.via === 'ambassador' ? 'ambassador' : 'direct';

interface ParentRow {
  message_id: string;
  channel: 'platform' | 'self';
  sent_at: Date;
  parent_email: string | null;
  attribution: Attribution | null;
  referrer_email: string | null;
  letter_id: string | null;
  answer: AnswerKind | null;
  updates_sent: number;
}

/** One school's parents, a page at a time (keyset on the message id: newest first). */
async function campaignParents(key: string, limit: number, cursor?: string): Promise<{ parents: CampaignParent[]; nextCursor?: string }> {
  const after = decodeCursor(cursor, 1)?.[0] ?? null;
  const rows = await query<ParentRow>(sql`
    SELECT s.message_id, s.channel, s.sent_at, m.record->>'parentEmail' AS parent_email, m.record->'attribution' AS attribution,
      r.record->>'parentEmail' AS referrer_email, m.letter_id, a.kind AS answer,
      (SELECT count(*)::int FROM school_updates u WHERE u.parent = s.parent AND u.page = ${key} AND u.state = 'sent') AS updates_sent
    FROM impact_sends s
    LEFT JOIN outbox_messages m ON m.id = s.message_id AND m.erased_at IS NULL
    LEFT JOIN outbox_messages r ON r.id = m.record->'attribution'->>'referrerMessageId' AND r.erased_at IS NULL
    LEFT JOIN impact_answers a ON a.message_id = s.message_id
    WHERE s.page = ${key} AND (${after}::text IS NULL OR s.message_id > ${after}::text)
    ORDER BY s.message_id LIMIT ${limit + 1}`);
  const page = rows.slice(0, limit);
  return {
    parents: page.map((row) => {
      const attribution = row.attribution;
      return {
        messageId: row.message_id,
        parent: row.parent_email ? maskAddress(row.parent_email) : '',
        channel: row.channel,
        sentAt: row.sent_at.toISOString(),
        came: cameOf(attribution),
        ...(attribution?.via === 'parent' && row.referrer_email ? { referrer: maskAddress(row.referrer_email) } : {}),
        ...(attribution && attribution.via !== 'direct' && attribution.ambassadorId ? { ambassadorId: attribution.ambassadorId } : {}),
        ...(row.letter_id ? { letterId: row.letter_id } : {}),
        ...(row.answer ? { answer: row.answer } : {}),
        updatesSent: Number(row.updates_sent),
      };
    }),
    ...(rows.length > limit ? { nextCursor: encodeCursor([page.at(-1)!.message_id]) } : {}),
  };
}

/** One school opened, or undefined when there is no page with that key. */
export async function readCampaign(key: string, options: { limit: number; cursor?: string }): Promise<Campaign | undefined> {
  const school = await queryOne<{ school_name: string; contact_address: string; parents: number; emails: number }>(sql`
    SELECT p.school_name, p.contact_address,
      (SELECT count(DISTINCT s.parent)::int FROM impact_sends s WHERE s.page = p.key) AS parents,
      (SELECT count(*)::int FROM impact_sends s WHERE s.page = p.key) AS emails
    FROM school_pages p WHERE p.key = ${key}`);
  if (!school) return undefined;
  const [parents, came, letters, answers, updates] = await Promise.all([
    campaignParents(key, options.limit, options.cursor),
    query<{ came: Came; n: number }>(sql`
      SELECT CASE m.record->'attribution'->>'via' WHEN 'parent' THEN 'parent' WHEN 'ambassador' THEN 'ambassador' ELSE 'direct' END AS came, count(*)::int AS n
      FROM impact_sends s LEFT JOIN outbox_messages m ON m.id = s.message_id AND m.erased_at IS NULL
      WHERE s.page = ${key} GROUP BY 1`),
    query<{ letter_id: string | null; n: number }>(sql`
      SELECT m.letter_id, count(*)::int AS n FROM impact_sends s JOIN outbox_messages m ON m.id = s.message_id
      WHERE s.page = ${key} AND m.letter_id IS NOT NULL GROUP BY m.letter_id ORDER BY n DESC, m.letter_id`),
    query<{ day: string; kind: AnswerKind; n: number }>(sql`
      SELECT to_char(a.answered_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, a.kind, count(*)::int AS n
      FROM impact_answers a JOIN impact_sends s ON s.message_id = a.message_id
      WHERE s.page = ${key} GROUP BY 1, 2 ORDER BY 1, 2`),
    query<{ state: UpdateState; n: number }>(sql`SELECT state, count(*)::int AS n FROM school_updates WHERE page = ${key} GROUP BY state`),
  ]);
  return {
    school: { key, schoolName: school.school_name, contactAddress: school.contact_address, parents: Number(school.parents), emails: Number(school.emails) },
    ...parents,
    came: { direct: 0, parent: 0, ambassador: 0, ...Object.fromEntries(came.map((row) => [row.came, Number(row.n)])) },
    letters: letters.map((row) => ({ letterId: row.letter_id!, emails: Number(row.n) })),
    answers: answers.map((row) => ({ day: row.day, kind: row.kind, count: Number(row.n) })),
    updates: Object.fromEntries(updates.map((row) => [row.state, Number(row.n)])),
  };
}

/** A CSV cell: quoted, quotes doubled, and a leading = + - @ defused so no spreadsheet runs it. */
const cell = (value: string | number) => {
  const text = String(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
};

/** The school's parents as a CSV download. */
export function campaignCsv(parents: CampaignParent[]): string {
  const header = ['parent', 'channel', 'sent_at', 'came', 'referrer', 'ambassador_id', 'letter_id', 'answer', 'updates_sent'];
  const lines = parents.map((row) =>
    [row.parent, row.channel, row.sentAt, row.came, row.referrer ?? '', row.ambassadorId ?? '', row.letterId ?? '', row.answer ?? '', row.updatesSent]
      .map(cell)
      .join(','),
  );
  return `${[header.join(','), ...lines].join('\r\n')}\r\n`;
}

/** Every parent of a school for the CSV (bounded). */
export async function allCampaignParents(key: string, max = 5000): Promise<CampaignParent[]> {
  return (await campaignParents(key, max)).parents;
}
