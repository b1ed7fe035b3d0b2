/**
 * School nominations: one row per nomination (table `nominations`), then the nominating parent's
 * HubSpot contact is created or updated when HubSpot is configured. The nomination is kept
 * whatever HubSpot answers; its sync outcome is recorded with it.
 */
import type { Nomination, SchoolNomination } from '../lib/schemas';
import { serverEnv } from './env';
import { hubspotClient, upsertContactByEmail } from './hubspot';
import { query, sql } from './db';
import { recordKey } from './ids';

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
    await upsertContactByEmail(hubspotClient(), data.email, contactProperties(data));
    return 'synced';
  } catch (error) {
    console.error('[nominations] HubSpot sync failed', (error as { code?: unknown })?.code ?? 'network');
    return 'failed';
  }
}

export async function saveNomination(kind: NominationKind, data: Nomination | SchoolNomination): Promise<NominationRecord> {
  const key = recordKey();
  const record: NominationRecord = { id: key, kind, createdAt: new Date().toISOString(), data, hubspot: 'not_configured' };
  await query(sql`INSERT INTO nominations (id, kind, created_at, hubspot, record) VALUES (${key}, ${kind}, ${record.createdAt}, ${record.hubspot}, ${record})`);
  record.hubspot = await syncToHubSpot(data);
  if (record.hubspot !== 'not_configured') {
    // The sync outcome is bookkeeping: failing to note it must not fail a nomination already kept.
    await query(sql`UPDATE nominations SET hubspot = ${record.hubspot}, record = ${record} WHERE id = ${key}`).catch(() => undefined);
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
