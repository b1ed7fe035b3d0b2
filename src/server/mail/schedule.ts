/**
 * When a confirmed letter goes to its school: in the school's working hours (window.ts), spread out,
 * at most SCHOOL_HOURLY_LIMIT in one clock hour to one school contact. Each hour's count is a row of
 * `school_delivery_hours` with a CHECK on its cap, so two letters confirmed at once never take the
 * same last place; a letter that finds an hour full takes the next open one.
 */
import { isCheckViolation, queryOne, sql } from '../db';
import { defaultLocale, type Locale } from '../../config/locales';
import { serverEnv } from '../env';
import { describeDelivery, nextOpening, openHours, type SchoolWindow } from './window';

/** How many open hours ahead a letter looks for a place (about six working weeks). */
const HOURS_AHEAD = 240;

export interface LetterTime {
  at: Date;
  /** The school's time zone the time was chosen in. */
  timeZone: string;
  /** The clock hour whose place the letter took (none in digest mode, or with SCHOOL_DELIVERY_HOURS=off). */
  hour?: Date;
}

/**
 * The time a letter to `school` (its mailbox key) goes out. With SCHOOL_DELIVERY_HOURS=off: now.
 * In digest mode every letter waits for the opening of the window it falls in (now, when the office
 * is open), so the letters of one night go together. Otherwise the first open hour with a place,
 * each letter of an hour a fair share of it after the one before.
 */
export async function letterTime(school: string, window: string | SchoolWindow | undefined, now = new Date()): Promise<LetterTime> {
  const zone = window ?? serverEnv.schoolTimeZone;
  const timeZone = typeof zone === 'string' ? zone : zone.timeZone;
  if (serverEnv.schoolDeliveryHours === 'off') return { at: now, timeZone };
  if (serverEnv.schoolDelivery === 'digest') return { at: nextOpening(now, zone), timeZone };
  const cap = serverEnv.schoolHourlyLimit;
  const spacing = 3600_000 / cap;
  for (const hour of openHours(now, zone, HOURS_AHEAD)) {
    let taken: { letters: number } | undefined;
    try {
      taken = await queryOne<{ letters: number }>(sql`
        INSERT INTO school_delivery_hours AS h (school, hour, letters, cap) VALUES (${school}, ${hour}, 1, ${cap})
        ON CONFLICT (school, hour) DO UPDATE SET letters = h.letters + 1, cap = EXCLUDED.cap
        RETURNING letters`);
    } catch (error) {
      if (isCheckViolation(error, 'school_delivery_hours_within_cap')) continue;
      throw error;
    }
    const slot = hour.getTime() + (taken!.letters - 1) * spacing + Math.floor(Math.random() * Math.min(spacing / 2, 5 * 60_000));
    // A school that opens at half past has its first hour's places from then.
    return { at: new Date(Math.max(slot, now.getTime(), nextOpening(hour, zone).getTime())), timeZone, hour };
  }
  // Every hour for weeks is full: the letter goes at the next opening after them (the day's cap
  // of the platform send keeps this from happening); its run finds it a place then.
  return { at: nextOpening(new Date(now.getTime() + HOURS_AHEAD * 3 * 3600_000), zone), timeZone };
}

/**
 * When a letter goes, as `locale` writes it, in the school's time: English "8:00 on Monday" (or
 * "now"), another language through Intl ("lunes, 1 de diciembre, 8:00 a.m.").
 */
export function whenLetterGoesIn(time: { at: string | Date; timeZone?: string }, locale: Locale, now = new Date()): string {
  if (locale === defaultLocale) return whenLetterGoes(time, now);
  return new Date(time.at).toLocaleString(`${locale}-US`, {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: time.timeZone ?? serverEnv.schoolTimeZone,
  });
}

/** "8:00 on Monday": when a letter goes, in the school's time, or "now" when it goes at once. */
export function whenLetterGoes(time: { at: string | Date; timeZone?: string }, now = new Date()): string {
  const at = new Date(time.at);
  if (at.getTime() <= now.getTime() + 60_000) return 'now';
  return describeDelivery(at, time.timeZone ?? serverEnv.schoolTimeZone, now);
}
