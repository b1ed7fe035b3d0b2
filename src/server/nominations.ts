/**
 * School nominations: one blob per nomination (never a shared list), then the nominating parent's
 * HubSpot contact is created or updated when HubSpot is configured. The nomination is kept
 * whatever HubSpot answers; its sync outcome is recorded with it.
 */
import type { Nomination, SchoolNomination } from '../lib/schemas';
import { serverEnv } from './env';
import { createOrFillContactByEmail, hubspotClient } from './hubspot';
import { recordKey, store, withStore } from './store';

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

export async function saveNomination(kind: NominationKind, data: Nomination | SchoolNomination): Promise<NominationRecord> {
  const key = recordKey();
  const record: NominationRecord = { id: key, kind, createdAt: new Date().toISOString(), data, hubspot: 'not_configured' };
  const nominations = store('nominations');
  await withStore(() => nominations.setJSON(key, record));
  record.hubspot = await syncToHubSpot(data);
  if (record.hubspot !== 'not_configured') {
    // The sync outcome is bookkeeping: failing to note it must not fail a nomination already kept.
    await withStore(() => nominations.setJSON(key, record)).catch(() => undefined);
  }
  return record;
}

/** Newest first (keys sort by inverted time), `limit` at a time from `cursor`. */
export async function listNominations(limit: number, cursor?: string): Promise<{ nominations: NominationRecord[]; nextCursor?: string }> {
  const nominations = store('nominations');
  const { blobs } = await withStore(() => nominations.list());
  const keys = blobs.map((blob) => blob.key).sort();
  const start = cursor ? keys.findIndex((key) => key > cursor) : 0;
  const page = start < 0 ? [] : keys.slice(start, start + limit);
  const records = await Promise.all(page.map((key) => withStore(() => nominations.get(key, { type: 'json' }))));
  const last = page[page.length - 1];
  return {
    nominations: records.filter(Boolean) as NominationRecord[],
    nextCursor: start >= 0 && start + limit < keys.length ? last : undefined,
  };
}
