/**
 * Ambassadors the organisation knows (table `ambassadors`, migration 0030): staff add them on the
 * admin page; only their ids count as an ambassador's on a link (`knownAmbassador`), so an id a
 * stranger types is not taken on trust. Each ambassador has a signed link to their own page
 * (`ambassadorLink`): the parents they brought (confirmed from their inbox), letters delivered, schools reached and answers, as
 * counts only. A link that does not verify is a 404, the same as one for nobody.
 *
 * Staff also see a leaderboard and the stalled schools: a page with parents but no new letter in
 * 14 days, or letters but no answer after 21.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { isUniqueViolation, query, queryOne, sql } from './db';
import { serverEnv } from './env';
import { HttpError } from './http';

export const AMBASSADOR_ID = /^[A-Za-z0-9_-]{1,100}$/;

export const newAmbassadorSchema = z
  .object({
    id: z.string().trim().regex(AMBASSADOR_ID, 'id: letters, digits, - and _ only, at most 100'),
    name: z
      .string()
      .trim()
      .min(1, 'name is required')
      .max(120)
      .refine((value) => !/[\p{C}<>]/u.test(value), 'name must be plain text'),
    email: z.email('email must be an email address').max(254),
  })
  .strict();
export type NewAmbassador = z.infer<typeof newAmbassadorSchema>;

export interface AmbassadorFigures {
  /**
   * Parents who confirmed their letter from their own inbox, through the ambassador's links. A
   * draft alone, which anyone holding the id can make, never counts.
   */
  parents: number;
  /** Their letters that reached the school. */
  delivered: number;
  schoolsReached: number;
  answers: number;
}

export interface AmbassadorRow extends AmbassadorFigures {
  id: string;
  name: string;
  email: string;
  createdAt: string;
}

/** Whether an ambassador id is one staff added (an id typed into a link is not). */
export async function knownAmbassador(id: string): Promise<boolean> {
  if (!AMBASSADOR_ID.test(id)) return false;
  return (await queryOne(sql`SELECT 1 FROM ambassadors WHERE id = ${id}`)) !== undefined;
}

export async function addAmbassador(input: NewAmbassador, by: string, now = new Date()): Promise<void> {
  try {
    await query(
      sql`INSERT INTO ambassadors (id, name, email, created_at, created_by) VALUES (${input.id}, ${input.name}, ${input.email.toLowerCase()}, ${now}, ${by.slice(0, 200)})`,
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw new HttpError(409, 'ambassador_exists', `An ambassador with the id "${input.id}" is already on the list.`);
    throw error;
  }
}

const figuresSql = sql`
  count(j.confirmed_at)::int AS parents,
  count(j.delivered_at)::int AS delivered,
  count(DISTINCT j.school) FILTER (WHERE j.delivered_at IS NOT NULL)::int AS schools_reached,
  count(j.answered_at)::int AS answers`;

interface FiguresRow {
  parents: number;
  delivered: number;
  schools_reached: number;
  answers: number;
}
const figuresOf = (row: FiguresRow | undefined): AmbassadorFigures => ({
  parents: Number(row?.parents ?? 0),
  delivered: Number(row?.delivered ?? 0),
  schoolsReached: Number(row?.schools_reached ?? 0),
  answers: Number(row?.answers ?? 0),
});

/** Every ambassador with their figures, most confirmed parents first: the leaderboard. */
export async function ambassadorLeaderboard(): Promise<AmbassadorRow[]> {
  const rows = await query<FiguresRow & { id: string; name: string; email: string; created_at: Date }>(sql`
    SELECT a.id, a.name, a.email, a.created_at, ${figuresSql}
    FROM ambassadors a LEFT JOIN analytics_journeys j ON j.ambassador = a.id
    GROUP BY a.id ORDER BY parents DESC, delivered DESC, a.name LIMIT 500`);
  return rows.map((row) => ({ id: row.id, name: row.name, email: row.email, createdAt: row.created_at.toISOString(), ...figuresOf(row) }));
}

// Signed links ----------------------------------------------------------------------------------

/** An ambassador's link works this long; staff can make a new one at any time. */
export const AMBASSADOR_LINK_TTL_MS = 365 * 24 * 3600_000;

function linkKey(): Buffer {
  const configured = serverEnv.configEncryptionKey;
  if (!configured) throw new HttpError(503, 'signing_not_configured', 'Links cannot be signed: CONFIG_ENCRYPTION_KEY is not configured on this site.');
  return Buffer.from(hkdfSync('sha256', Buffer.from(configured, 'utf8'), Buffer.alloc(0), 'mastery-parents ambassador links v1', 32));
}

const linkMac = (payload: string) => createHmac('sha256', linkKey()).update(payload, 'utf8').digest('base64url');

/** The token of an ambassador's own page: their id and an expiry, signed. */
export function ambassadorToken(id: string, now = Date.now()): string {
  const payload = Buffer.from(`${id}|${now + AMBASSADOR_LINK_TTL_MS}`, 'utf8').toString('base64url');
  return `${payload}.${linkMac(payload)}`;
}

/** The link staff copy (and the mail layer sends): the ambassador's page. */
export function ambassadorLink(id: string, now = Date.now()): string {
  return new URL(`/ambassador?t=${ambassadorToken(id, now)}`, serverEnv.siteOrigin).toString();
}

/** The ambassador a token names, if it is ours and current; undefined otherwise (never why). */
export function ambassadorOfToken(token: string, now = Date.now()): string | undefined {
  const match = /^([A-Za-z0-9_-]{4,200})\.([A-Za-z0-9_-]{43})$/.exec(token.trim());
  if (!match) return undefined;
  const [, payload, signature] = match as unknown as [string, string, string];
  const expected = Buffer.from(linkMac(payload));
  if (!timingSafeEqual(expected, Buffer.from(signature))) return undefined;
  const [id, exp] = Buffer.from(payload, 'base64url').toString('utf8').split('|');
  if (!id || !AMBASSADOR_ID.test(id) || !(Number(exp) > now)) return undefined;
  return id;
}

/** An ambassador's own page: their name and figures, from a link that verifies, or undefined. */
export async function ambassadorPage(token: string, now = Date.now()): Promise<({ name: string } & AmbassadorFigures) | undefined> {
  const id = ambassadorOfToken(token, now);
  if (!id) return undefined;
  const row = await queryOne<FiguresRow & { name: string }>(sql`
    SELECT a.name, ${figuresSql}
    FROM ambassadors a LEFT JOIN analytics_journeys j ON j.ambassador = a.id
    WHERE a.id = ${id} GROUP BY a.id`);
  return row ? { name: row.name, ...figuresOf(row) } : undefined;
}

// Stalled schools ------------------------------------------------------------------------------

export const STALLED_NO_LETTER_DAYS = 14;
export const STALLED_NO_ANSWER_DAYS = 21;

export interface StalledSchool {
  key: string;
  schoolName: string;
  parents: number;
  lastLetterAt: string;
  reason: 'no_new_letter' | 'no_answer';
}

/**
 * School pages with parents that went quiet: no new letter in 14 days, or a letter older than 21
 * days and no answer at all (a "no answer" report is none). Oldest first, at most 200.
 */
export async function stalledSchools(now = new Date()): Promise<StalledSchool[]> {
  const quiet = new Date(now.getTime() - STALLED_NO_LETTER_DAYS * 24 * 3600_000);
  const unanswered = new Date(now.getTime() - STALLED_NO_ANSWER_DAYS * 24 * 3600_000);
  const rows = await query<{ key: string; school_name: string; parents: number; last_letter: Date; first_letter: Date; answered: boolean }>(sql`
    SELECT p.key, p.school_name, count(DISTINCT s.parent)::int AS parents, max(s.sent_at) AS last_letter, min(s.sent_at) AS first_letter,
      EXISTS (SELECT 1 FROM impact_answers a JOIN impact_sends s2 ON s2.message_id = a.message_id WHERE s2.page = p.key AND a.kind <> 'no_answer') AS answered
    FROM school_pages p JOIN impact_sends s ON s.page = p.key
    GROUP BY p.key, p.school_name
    HAVING max(s.sent_at) < ${quiet}
        OR (min(s.sent_at) < ${unanswered} AND NOT EXISTS (SELECT 1 FROM impact_answers a JOIN impact_sends s2 ON s2.message_id = a.message_id WHERE s2.page = p.key AND a.kind <> 'no_answer'))
    ORDER BY max(s.sent_at) ASC LIMIT 200`);
  return rows.map((row) => ({
    key: row.key,
    schoolName: row.school_name,
    parents: Number(row.parents),
    lastLetterAt: row.last_letter.toISOString(),
    reason: !row.answered && row.first_letter < unanswered ? 'no_answer' : 'no_new_letter',
  }));
}
