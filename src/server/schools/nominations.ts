/**
 * School nominations: one row per nomination (table `nominations`), the school proposed to staff
 * (one proposal per school and city, however many nominate it), then the nominating parent's
 * HubSpot contact is created or filled when HubSpot is configured. The nomination is kept whatever
 * HubSpot answers; its sync outcome is recorded with it.
 */
import type { Nomination, SchoolNomination } from '../../lib/shared/schemas';
import { serverEnv } from '../env';
import { createOrFillContactByEmail, hubspotClient } from '../hubspot';
import { query, queryOne, sql } from '../db';
import { recordKey } from '../ids';
import { proposalInsert } from './records';

export type NominationKind = 'nomination' | 'school-nomination';
export type HubSpotSync = 'synced' | 'failed' | 'not_configured';

export interface NominationRecord {
  id: string;
  kind: NominationKind;
  createdAt: string;
  data: Nomination | SchoolNomination;
  hubspot: HubSpotSync;
}

function contactProperties(data: Nomination | SchoolNomination): Record<string, string> {
  const names = serverEnv.contactProperties;
  const [firstname = '', ...rest] = data.yourName.split(/\s+/);
  const properties: Record<string, string> = {
    firstname,
    lastname: rest.join(' '),
    city: data.city,
    [names.schoolName]: data.schoolName,
  };
  if ('childGrade' in data) properties[names.childGrade] = data.childGrade;
  if ('sendTo' in data) properties[names.nominationSendTo] = data.sendTo;
  return properties;
}

async function syncToHubSpot(data: Nomination | SchoolNomination): Promise<HubSpotSync> {
  if (!serverEnv.hubspotAccessToken) return 'not_configured';
  try {
    // Anyone can type anyone's address: an existing contact only gets what it does not have yet.
    await createOrFillContactByEmail(hubspotClient(), data.email, { fill: contactProperties(data) });
    return 'synced';
  } catch (error) {
    console.error('[nominations] HubSpot sync failed', (error as { code?: unknown })?.code ?? 'network');
    return 'failed';
  }
}

/** The same nomination sent again within this time is the one kept, not a second one. */
const RESEND_WINDOW_MS = 60 * 60_000;

/**
 * Keeps a nomination and syncs its contact. The same nomination sent again soon after (a parent
 * retrying after an error answer whose statement had in fact run) is the one already kept: one
 * statement keeps it or finds it.
 */
export async function saveNomination(kind: NominationKind, data: Nomination | SchoolNomination): Promise<NominationRecord> {
  const now = new Date();
  const fresh: NominationRecord = { id: recordKey(now), kind, createdAt: now.toISOString(), data, hubspot: 'not_configured' };
  const kept = await queryOne<{ record: NominationRecord }>(sql`
    WITH earlier AS (
      SELECT record FROM nominations
      WHERE kind = ${kind} AND record->'data' = ${data}::jsonb AND created_at > ${new Date(now.getTime() - RESEND_WINDOW_MS)}
      ORDER BY created_at DESC LIMIT 1
    ), added AS (
      INSERT INTO nominations (id, kind, created_at, hubspot, record)
      SELECT ${fresh.id}, ${kind}, ${fresh.createdAt}, ${fresh.hubspot}, ${fresh}
      WHERE NOT EXISTS (SELECT 1 FROM earlier)
      RETURNING record
    ),
    -- The nominated school is proposed to staff, once however often it is nominated, in the same
    -- statement: nothing public rests on it until they verify it (src/server/schools).
    ${proposalInsert({ kind: 'nomination', name: data.schoolName, city: data.city, timeZone: serverEnv.schoolTimeZone }, now)}
    SELECT record FROM added UNION ALL SELECT record FROM earlier`);
  const stored = kept?.record ?? fresh;
  const record: NominationRecord = { ...stored, hubspot: await syncToHubSpot(data) };
  if (record.hubspot !== stored.hubspot) {
    // The sync outcome is bookkeeping: failing to note it must not fail a nomination already kept.
    await query(sql`UPDATE nominations SET hubspot = ${record.hubspot}, record = ${record} WHERE id = ${record.id}`).catch(() => undefined);
  }
  return record;
}

/** Newest first (ids sort by inverted time), `limit` at a time from `cursor` (keyset on the id). */
export async function listNominations(limit: number, cursor?: string): Promise<{ nominations: NominationRecord[]; nextCursor?: string }> {
  const rows = await query<{ id: string; record: NominationRecord }>(sql`
    SELECT id, record FROM nominations WHERE (${cursor ?? null}::text IS NULL OR id > ${cursor ?? null}::text) ORDER BY id LIMIT ${limit + 1}`);
  const page = rows.slice(0, limit);
  return { nominations: page.map((row) => row.record), nextCursor: rows.length > limit ? page.at(-1)!.id : undefined };
}
