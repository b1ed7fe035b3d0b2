/**
 * The limits of "Send via our platform", counted exactly in Blobs even when many parents confirm
 * at once: one send per parent and school contact ever (until the message is purged), at most
 * SCHOOL a day to one school contact address across all parents, and PARENT a day from one parent.
 *
 * Each send takes a slot with a create-if-new write (atomic on Netlify Blobs): slot 1 to N of the
 * day for the school and for the parent, and the one slot of the pair. Days are UTC calendar days.
 * Addresses are stored only as hashes.
 */
import { createHash } from 'node:crypto';
import { serverEnv } from './env';
import { store, withStore } from './store';

const limits = () => store('rate-limits', { strong: true });
const hash = (value: string) => createHash('sha256').update(value.trim().toLowerCase()).digest('hex').slice(0, 32);
const day = (now: Date) => now.toISOString().slice(0, 10);

export const pairKey = (parent: string, school: string) => `send/pair/${hash(`${parent}|${school}`)}`;
const schoolPrefix = (school: string, now: Date) => `send/school/${hash(school)}/${day(now)}/`;
const parentPrefix = (parent: string, now: Date) => `send/parent/${hash(parent)}/${day(now)}/`;

export type LimitRefusal = 'already_sent' | 'school_limit' | 'parent_limit';

export const limitMessages: Record<LimitRefusal, string> = {
  already_sent: 'Our platform has already sent an email from you to this school contact. You can still copy your email or send it from your own email app.',
  school_limit: 'This school contact has already received the most emails our platform sends in one day. Please send yours from your own email app, or try again tomorrow.',
  parent_limit: 'You have sent the most emails our platform sends for one parent in a day. Please send this one from your own email app, or try again tomorrow.',
};

async function used(prefix: string): Promise<number> {
  const { blobs } = await limits().list({ prefix });
  return blobs.length;
}

/** Whether a send would be refused now (read only; `claim` decides). */
export async function checkLimits(parent: string, school: string, now = new Date()): Promise<LimitRefusal | undefined> {
  return withStore(async () => {
    if (await limits().get(pairKey(parent, school))) return 'already_sent';
    if ((await used(schoolPrefix(school, now))) >= serverEnv.schoolDailySendLimit) return 'school_limit';
    if ((await used(parentPrefix(parent, now))) >= serverEnv.parentDailySendLimit) return 'parent_limit';
    return undefined;
  });
}

/**
 * The slot `owner` holds under `prefix`, else the first free one of 1..limit it can take;
 * undefined when all are taken by others. Asking again after a failure part-way takes no second slot.
 */
async function takeSlot(prefix: string, limit: number, owner: string): Promise<string | undefined> {
  const { blobs } = await limits().list({ prefix });
  for (const { key } of blobs) if ((await limits().get(key, { type: 'text' })) === owner) return key;
  for (let slot = 1; slot <= limit; slot++) {
    const key = `${prefix}${slot}`;
    const { modified } = await limits().set(key, owner, { onlyIfNew: true });
    if (modified) return key;
  }
  return undefined;
}

/**
 * Claims the pair, a school slot and a parent slot for message `owner`, all or none: a refused
 * claim gives back what it took. Claiming again for the same message (a retry after the store
 * failed part-way, or two confirmations at once) takes nothing twice.
 */
export async function claimLimits(parent: string, school: string, owner: string, now = new Date()): Promise<LimitRefusal | undefined> {
  return withStore(async () => {
    const pair = pairKey(parent, school);
    const { modified } = await limits().set(pair, owner, { onlyIfNew: true });
    if (!modified && (await limits().get(pair, { type: 'text' })) !== owner) return 'already_sent';
    const taken: string[] = [pair];
    const giveBack = async (refusal: LimitRefusal) => {
      for (const key of taken) await limits().delete(key);
      return refusal;
    };
    const schoolSlot = await takeSlot(schoolPrefix(school, now), serverEnv.schoolDailySendLimit, owner);
    if (!schoolSlot) return giveBack('school_limit');
    taken.push(schoolSlot);
    const parentSlot = await takeSlot(parentPrefix(parent, now), serverEnv.parentDailySendLimit, owner);
    if (!parentSlot) return giveBack('parent_limit');
    return undefined;
  });
}

/** Removes day slots older than `before` (the pair slots stay until their message is purged). */
export async function purgeOldSlots(before: Date): Promise<number> {
  return withStore(async () => {
    let removed = 0;
    for (const prefix of ['send/school/', 'send/parent/']) {
      const { blobs } = await limits().list({ prefix });
      for (const blob of blobs) {
        const date = blob.key.split('/')[3] ?? '';
        if (date < day(before)) {
          await limits().delete(blob.key);
          removed++;
        }
      }
    }
    return removed;
  });
}

export async function releasePair(parent: string, school: string): Promise<void> {
  await withStore(() => limits().delete(pairKey(parent, school)));
}
