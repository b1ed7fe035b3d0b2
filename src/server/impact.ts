/**
 * The movement's impact in numbers: one small event per school email sent and per answer a parent
 * gives, kept in the `impact` store without names or addresses (the school as its domain, the
 * parent as a keyed hash), so the figures outlive the 90-day outbox. Counted by distinct school.
 *
 * Keys: `sent/{messageId}`, `answer/{messageId}` (an answer replaces the one before it).
 */
import { createHmac, hkdfSync } from 'node:crypto';
import { figure, schoolKey, schoolResponded, type AnswerKind, type Impact } from '../lib/school-answers';
import { serverEnv } from './env';
import { store, withStore } from './store';

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
}

const impact = () => store('impact', { strong: true });

/** A parent's address as a keyed hash: counts distinct parents, names none. */
export function parentKey(email: string): string {
  const secret = serverEnv.configEncryptionKey ?? 'local';
  const key = Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.alloc(0), 'mastery-parents impact v1', 32));
  return createHmac('sha256', key).update(email.trim().toLowerCase()).digest('base64url').slice(0, 22);
}

/** Records that a school email went out (once per message, whatever calls it how often). */
export async function recordSent(message: { id: string; to: string; parentEmail: string; channel: 'platform' | 'self'; sentAt?: string }): Promise<void> {
  const event: SentEvent = { id: message.id, school: schoolKey(message.to), parent: parentKey(message.parentEmail), channel: message.channel, at: message.sentAt ?? new Date().toISOString() };
  await withStore(() => impact().setJSON(`sent/${message.id}`, event, { onlyIfNew: true }));
}

export async function recordAnswer(event: AnswerEvent): Promise<void> {
  await withStore(() => impact().setJSON(`answer/${event.id}`, event));
}

async function all<T>(prefix: string): Promise<T[]> {
  return withStore(async () => {
    const { blobs } = await impact().list({ prefix });
    const values = await Promise.all(blobs.map((blob) => impact().get(blob.key, { type: 'json' })));
    return values.filter(Boolean) as T[];
  });
}

export async function sentEvents(): Promise<SentEvent[]> {
  return all<SentEvent>('sent/');
}

export async function answerEvents(): Promise<AnswerEvent[]> {
  return all<AnswerEvent>('answer/');
}

/** The public figures: distinct schools reached, that answered, with a meeting; distinct parents. */
export async function computeImpact(now = new Date()): Promise<Impact> {
  const [sent, answers] = await Promise.all([sentEvents(), answerEvents()]);
  const reached = new Set(sent.map((event) => event.school));
  const answered = new Set(answers.filter((event) => schoolResponded.has(event.kind)).map((event) => event.school));
  const meetings = new Set(answers.filter((event) => event.kind === 'meeting').map((event) => event.school));
  const parents = new Set(sent.map((event) => event.parent));
  return {
    schoolsReached: figure(reached.size),
    schoolsAnswered: figure(answered.size),
    meetings: figure(meetings.size),
    parentsWrote: figure(parents.size),
    updatedAt: now.toISOString(),
  };
}

export interface SchoolImpactRow {
  school: string;
  emailsSent: number;
  answers: Record<AnswerKind, number>;
  /** Share of the emails whose parent says the school answered (replied, meeting, said no). */
  responseRate: number;
  latestComment: string;
  latestCommentAt: string;
}

/**
 * The admin's view: per school, the emails sent in the period (by when they were sent), what their
 * parents answered, the response rate and the latest comment (comments live with their message,
 * so they go when it is purged after 90 days).
 */
export async function impactBySchool(period: { from?: Date; to?: Date }, comments: (ids: string[]) => Promise<Map<string, { comment: string; at: string }>>): Promise<SchoolImpactRow[]> {
  const [sent, answers] = await Promise.all([sentEvents(), answerEvents()]);
  const inPeriod = sent.filter((event) => (!period.from || Date.parse(event.at) >= period.from.getTime()) && (!period.to || Date.parse(event.at) < period.to.getTime()));
  const answerOf = new Map(answers.map((event) => [event.id, event]));
  const found = await comments(inPeriod.filter((event) => answerOf.has(event.id)).map((event) => event.id));
  const rows = new Map<string, SchoolImpactRow>();
  for (const event of inPeriod) {
    const row = rows.get(event.school) ?? {
      school: event.school,
      emailsSent: 0,
      answers: { replied: 0, meeting: 0, no_answer: 0, said_no: 0 },
      responseRate: 0,
      latestComment: '',
      latestCommentAt: '',
    };
    row.emailsSent++;
    const answer = answerOf.get(event.id);
    if (answer) row.answers[answer.kind]++;
    const comment = found.get(event.id);
    if (comment?.comment && comment.at > row.latestCommentAt) Object.assign(row, { latestComment: comment.comment, latestCommentAt: comment.at });
    rows.set(event.school, row);
  }
  for (const row of rows.values()) {
    const responded = [...schoolResponded].reduce((sum, kind) => sum + row.answers[kind], 0);
    row.responseRate = row.emailsSent ? responded / row.emailsSent : 0;
  }
  return [...rows.values()].sort((a, b) => b.emailsSent - a.emailsSent || a.school.localeCompare(b.school));
}

/** A CSV cell: quoted, quotes doubled, and a leading = + - @ defused so no spreadsheet runs it. */
const cell = (value: string | number) => {
  const text = String(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
};

export function impactCsv(rows: SchoolImpactRow[]): string {
  const header = ['school', 'emails_sent', 'replied', 'meeting', 'no_answer', 'said_no', 'response_rate', 'latest_comment', 'latest_comment_at'];
  const lines = rows.map((row) =>
    [row.school, row.emailsSent, row.answers.replied, row.answers.meeting, row.answers.no_answer, row.answers.said_no, row.responseRate.toFixed(2), row.latestComment, row.latestCommentAt]
      .map(cell)
      .join(','),
  );
  return `${[header.join(','), ...lines].join('\r\n')}\r\n`;
}
