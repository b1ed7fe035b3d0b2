/**
 * The movement's impact in numbers: one event per school email sent and per answer a parent gives,
 * kept without names or addresses (the school as its domain, the parent as a keyed hash), so the
 * figures outlive the 90-day outbox. Counted by distinct school.
 *
 * Tables `impact_sends` and `impact_answers` (an answer replaces the one before it for its message);
 * the per-school counts (`impact_schools`) and the public totals (`impact_totals`, one row) are kept
 * up to date by the same statement that adds an event, so `computeImpact` reads one row.
 */
import { answerKinds, figure, schoolResponded, type AnswerKind, type Impact } from '../../lib/shared/answer-kinds';
import { query, queryOne, sql } from '../db';
import { parentKey, schoolOf } from '../identity';

export interface SentEvent {
  id: string;
  school: string;
  parent: string;
  channel: 'platform' | 'self';
  at: string;
}

export interface AnswerEvent {
  id: string;
  school: string;
  kind: AnswerKind;
  at: string;
  /** How many days the reply took, as the parent said it. */
  daysTaken?: number;
}

export { parentKey };

/**
 * Records that a school letter counts on the page of its verified school (once per message,
 * whatever calls it how often): a letter the platform delivered to an address the school's record
 * lists, or a self-report staff approved. Only what this records moves the public figures and a
 * school page's count; the caller has checked the letter is on record (src/server/schools/letters.ts).
 */
export async function recordSent(
  message: { id: string; to: string; parentEmail: string; channel: 'platform' | 'self'; sentAt?: string },
  page: string,
): Promise<void> {
  const school = schoolOf(message.to);
  const parent = parentKey(message.parentEmail);
  const at = new Date(message.sentAt ?? Date.now());
  await query(sql`
    WITH event AS (
      INSERT INTO impact_sends (message_id, school, parent, channel, sent_at, page)
      VALUES (${message.id}, ${school}, ${parent}, ${message.channel}, ${at}, ${page})
      ON CONFLICT (message_id) DO NOTHING
      RETURNING school, parent
    ), school_row AS (
      INSERT INTO impact_schools AS s (school, emails_sent) SELECT school, 1 FROM event
      ON CONFLICT (school) DO UPDATE SET emails_sent = s.emails_sent + 1
      RETURNING emails_sent
    ), parent_row AS (
      INSERT INTO impact_parents (parent) SELECT parent FROM event ON CONFLICT DO NOTHING RETURNING 1
    )
    INSERT INTO impact_totals AS t (id, schools_reached, schools_answered, schools_with_meeting, parents_wrote)
    SELECT 1, (SELECT count(*) FROM school_row WHERE emails_sent = 1), 0, 0, (SELECT count(*) FROM parent_row)
    ON CONFLICT (id) DO UPDATE SET
      schools_reached = t.schools_reached + EXCLUDED.schools_reached,
      parents_wrote = t.parents_wrote + EXCLUDED.parents_wrote`);
}

/**
 * Takes letters out of the figures (staff voided them with a burst): their sends and answers go,
 * and the counts of their schools, the parents who wrote and the public totals are recounted from
 * the events that remain (the schools and parents in one statement, the totals from them in the next).
 * Returns how many letters counted before.
 */
export async function uncountLetters(messageIds: string[]): Promise<number> {
  if (!messageIds.length) return 0;
  const row = await queryOne<{ removed: number }>(sql`
    WITH answers AS (
      DELETE FROM impact_answers WHERE message_id = ANY(${messageIds}::text[]) RETURNING school
    ), sends AS (
      DELETE FROM impact_sends WHERE message_id = ANY(${messageIds}::text[]) RETURNING school, parent
    ), touched AS (
      SELECT school FROM sends UNION SELECT school FROM answers
    ), recounted AS (
      UPDATE impact_schools s SET
        emails_sent = (SELECT count(*) FROM impact_sends i WHERE i.school = s.school AND i.message_id <> ALL(${messageIds}::text[])),
        responded = (SELECT count(*) FROM impact_answers a WHERE a.school = s.school AND a.kind = ANY(${responded}::text[]) AND a.message_id <> ALL(${messageIds}::text[])),
        meetings = (SELECT count(*) FROM impact_answers a WHERE a.school = s.school AND a.kind = 'meeting' AND a.message_id <> ALL(${messageIds}::text[]))
      WHERE s.school IN (SELECT school FROM touched)
      RETURNING 1
    ), parents AS (
      DELETE FROM impact_parents p WHERE p.parent IN (SELECT parent FROM sends)
        AND NOT EXISTS (SELECT 1 FROM impact_sends i WHERE i.parent = p.parent AND i.message_id <> ALL(${messageIds}::text[]))
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM sends)::int AS removed, (SELECT count(*) FROM recounted)::int AS schools, (SELECT count(*) FROM parents)::int AS parents`);
  // The totals from the recounted rows (a statement sees the tables as they were before it, so apart).
  await query(sql`
    INSERT INTO impact_totals AS t (id, schools_reached, schools_answered, schools_with_meeting, parents_wrote)
    SELECT 1, (SELECT count(*) FROM impact_schools WHERE emails_sent > 0), (SELECT count(*) FROM impact_schools WHERE responded > 0),
           (SELECT count(*) FROM impact_schools WHERE meetings > 0), (SELECT count(*) FROM impact_parents)
    ON CONFLICT (id) DO UPDATE SET schools_reached = EXCLUDED.schools_reached, schools_answered = EXCLUDED.schools_answered,
      schools_with_meeting = EXCLUDED.schools_with_meeting, parents_wrote = EXCLUDED.parents_wrote`);
  return row?.removed ?? 0;
}

/** Whether a letter counts already (recordSent has taken it). */
export async function counts(messageId: string): Promise<boolean> {
  return Boolean(await queryOne(sql`SELECT 1 FROM impact_sends WHERE message_id = ${messageId}`));
}

const responded = [...schoolResponded];

/**
 * Records a parent's answer (replacing their earlier one for the message). The school's counts
 * change by this answer's difference from the one it replaces (read under a row lock), and the
 * totals by whether the school crossed zero, all in one statement.
 */
export async function recordAnswer(event: AnswerEvent): Promise<void> {
  const kind = answerKinds.includes(event.kind) ? event.kind : 'no_answer';
  await query(sql`
    WITH previous AS (
      SELECT kind FROM impact_answers WHERE message_id = ${event.id} FOR UPDATE
    ), answer AS (
      INSERT INTO impact_answers (message_id, school, kind, answered_at, days_taken) VALUES (${event.id}, ${event.school}, ${kind}, ${new Date(event.at)}, ${event.daysTaken ?? null})
      ON CONFLICT (message_id) DO UPDATE SET kind = EXCLUDED.kind, answered_at = EXCLUDED.answered_at, days_taken = EXCLUDED.days_taken
      RETURNING 1
    ), delta AS (
      SELECT
        (${kind}::text = ANY(${responded}::text[]))::int - coalesce((SELECT (kind = ANY(${responded}::text[]))::int FROM previous), 0) AS responded,
        (${kind}::text = 'meeting')::int - coalesce((SELECT (kind = 'meeting')::int FROM previous), 0) AS meetings
      FROM answer
    ), school_row AS (
      INSERT INTO impact_schools AS s (school, responded, meetings) SELECT ${event.school}, greatest(responded, 0), greatest(meetings, 0) FROM delta
      ON CONFLICT (school) DO UPDATE SET responded = s.responded + (SELECT responded FROM delta), meetings = s.meetings + (SELECT meetings FROM delta)
      RETURNING responded, meetings
    )
    INSERT INTO impact_totals AS t (id, schools_reached, schools_answered, schools_with_meeting, parents_wrote)
    SELECT 1, 0, (r.responded > 0)::int - (r.responded - d.responded > 0)::int, (r.meetings > 0)::int - (r.meetings - d.meetings > 0)::int, 0
    FROM school_row r, delta d
    ON CONFLICT (id) DO UPDATE SET
      schools_answered = t.schools_answered + EXCLUDED.schools_answered,
      schools_with_meeting = t.schools_with_meeting + EXCLUDED.schools_with_meeting`);
}

export async function sentEvents(): Promise<SentEvent[]> {
  const rows = await query<{ message_id: string; school: string; parent: string; channel: 'platform' | 'self'; sent_at: Date }>(
    sql`SELECT message_id, school, parent, channel, sent_at FROM impact_sends ORDER BY sent_at`,
  );
  return rows.map((row) => ({ id: row.message_id, school: row.school, parent: row.parent, channel: row.channel, at: row.sent_at.toISOString() }));
}

export async function answerEvents(): Promise<AnswerEvent[]> {
  const rows = await query<{ message_id: string; school: string; kind: AnswerKind; answered_at: Date }>(
    sql`SELECT message_id, school, kind, answered_at FROM impact_answers ORDER BY answered_at`,
  );
  return rows.map((row) => ({ id: row.message_id, school: row.school, kind: row.kind, at: row.answered_at.toISOString() }));
}

/** The public figures: distinct schools reached, that answered, with a meeting; distinct parents. One row read. */
export async function computeImpact(now = new Date()): Promise<Impact> {
  const totals = await queryOne<{ schools_reached: number; schools_answered: number; schools_with_meeting: number; parents_wrote: number }>(
    sql`SELECT schools_reached, schools_answered, schools_with_meeting, parents_wrote FROM impact_totals WHERE id = 1`,
  );
  return {
    schoolsReached: figure(totals?.schools_reached ?? 0),
    schoolsAnswered: figure(totals?.schools_answered ?? 0),
    meetings: figure(totals?.schools_with_meeting ?? 0),
    parentsWrote: figure(totals?.parents_wrote ?? 0),
    updatedAt: now.toISOString(),
  };
}

import type { SchoolImpactRow } from '../../lib/shared/schemas/admin';
export type { SchoolImpactRow };

/**
 * The admin's view: per school, the emails sent in the period (by when they were sent), what their
 * parents answered, the response rate and the latest comment (comments live with their message,
 * so they go when it is purged after 90 days).
 */
export async function impactBySchool(
  period: { from?: Date; to?: Date },
  comments: (ids: string[]) => Promise<Map<string, { comment: string; at: string }>>,
): Promise<SchoolImpactRow[]> {
  const from = period.from ?? null;
  const to = period.to ?? null;
  const sent = await query<{ message_id: string; school: string; kind: AnswerKind | null; days_taken: number | null }>(sql`
    SELECT s.message_id, s.school, a.kind, a.days_taken
    FROM impact_sends s LEFT JOIN impact_answers a ON a.message_id = s.message_id
    WHERE (${from}::timestamptz IS NULL OR s.sent_at >= ${from}) AND (${to}::timestamptz IS NULL OR s.sent_at < ${to})`);
  const found = await comments(sent.filter((event) => event.kind).map((event) => event.message_id));
  const rows = new Map<string, SchoolImpactRow>();
  const days = new Map<string, number[]>();
  for (const event of sent) {
    const row = rows.get(event.school) ?? {
      school: event.school,
      emailsSent: 0,
      answers: Object.fromEntries(answerKinds.map((kind) => [kind, 0])) as Record<AnswerKind, number>,
      responseRate: 0,
      medianDaysToReply: null,
      latestComment: '',
      latestCommentAt: '',
    };
    row.emailsSent++;
    if (event.kind) row.answers[event.kind]++;
    if (event.days_taken !== null) (days.get(event.school) ?? days.set(event.school, []).get(event.school)!).push(event.days_taken);
    const comment = found.get(event.message_id);
    if (comment?.comment && comment.at > row.latestCommentAt) Object.assign(row, { latestComment: comment.comment, latestCommentAt: comment.at });
    rows.set(event.school, row);
  }
  for (const row of rows.values()) {
    const respondedCount = [...schoolResponded].reduce((sum, kind) => sum + row.answers[kind], 0);
    row.responseRate = row.emailsSent ? respondedCount / row.emailsSent : 0;
    row.medianDaysToReply = median(days.get(row.school) ?? []);
  }
  return [...rows.values()].sort((a, b) => b.emailsSent - a.emailsSent || a.school.localeCompare(b.school));
}

/** A CSV cell: quoted, quotes doubled, and a leading = + - @ defused so no spreadsheet runs it. */
const cell = (value: string | number) => {
  const text = String(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
};

/** The middle value (the mean of the two middle ones for an even count); null for none. */
export function median(values: number[]): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function impactCsv(rows: SchoolImpactRow[]): string {
  const header = ['school', 'emails_sent', ...answerKinds, 'response_rate', 'median_days_to_reply', 'latest_comment', 'latest_comment_at'];
  const lines = rows.map((row) =>
    [
      row.school,
      row.emailsSent,
      ...answerKinds.map((kind) => row.answers[kind] ?? 0),
      row.responseRate.toFixed(2),
      row.medianDaysToReply ?? '',
      row.latestComment,
      row.latestCommentAt,
    ]
      .map(cell)
      .join(','),
  );
  return `${[header.join(','), ...lines].join('\r\n')}\r\n`;
}
