/**
 * When a school reads its mail: the days and hours of its record (src/server/schools), in its time
 * zone, but for its holidays; by default weekdays from 8:00 to 16:00. A school the site does not
 * know yet (a proposal) keeps the default hours in the parent's browser's zone, else
 * SCHOOL_TIME_ZONE. Pure: wall-clock arithmetic with Intl, no library, correct across
 * daylight-saving changes (a local time is found by its offset at that time).
 */

export const OPENS_AT = 8;
export const CLOSES_AT = 16;

/** A school's working week: the days (0 Sunday … 6 Saturday) and the minutes of the day it opens and closes. */
export interface SchoolWindow {
  timeZone: string;
  days: readonly number[];
  /** Minutes after midnight, local time. */
  opens: number;
  closes: number;
  /** Days it is closed, as local dates ("2026-12-24"). */
  holidays: readonly string[];
}

export const DEFAULT_DAYS = [1, 2, 3, 4, 5] as const;

/** The default window (weekdays 8:00 to 16:00) in a zone. */
export const defaultWindow = (timeZone: string): SchoolWindow => ({ timeZone, days: DEFAULT_DAYS, opens: OPENS_AT * 60, closes: CLOSES_AT * 60, holidays: [] });

/** A zone alone means the default hours there. */
const windowOf = (zone: string | SchoolWindow): SchoolWindow => (typeof zone === 'string' ? defaultWindow(zone) : zone);

/** "08:30" as minutes after midnight. */
export const minutesOf = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));
/** Minutes after midnight as "08:30". */
export const clockOf = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

export interface LocalTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  /** 0 Sunday … 6 Saturday. */
  weekday: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(zone: string): Intl.DateTimeFormat {
  let found = formatters.get(zone);
  if (!found) {
    found = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      weekday: 'short',
    });
    formatters.set(zone, found);
  }
  return found;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** Whether `zone` is a time zone this runtime knows (an IANA name such as Europe/London). */
export function isTimeZone(zone: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(zone)) return false;
  try {
    formatter(zone);
    return true;
  } catch {
    return false;
  }
}

/** The wall-clock time of an instant in a zone. */
export function localTime(at: Date, zone: string): LocalTime {
  const parts = Object.fromEntries(
    formatter(zone)
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    weekday: WEEKDAYS.indexOf(parts.weekday ?? ''),
  };
}

/** The instant a wall-clock time names in a zone (the later one when a clock change skips it). */
export function zonedInstant(local: Pick<LocalTime, 'year' | 'month' | 'day' | 'hour' | 'minute'>, zone: string): Date {
  const asUtc = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute);
  let guess = asUtc;
  // Two corrections reach the offset in force at that time on both sides of a change.
  for (let i = 0; i < 2; i++) {
    const seen = localTime(new Date(guess), zone);
    const seenUtc = Date.UTC(seen.year, seen.month - 1, seen.day, seen.hour, seen.minute);
    guess += asUtc - seenUtc;
  }
  return new Date(guess);
}

const dateKey = (day: { year: number; month: number; day: number }) => `${day.year}-${String(day.month).padStart(2, '0')}-${String(day.day).padStart(2, '0')}`;
const weekdayOf = (day: { year: number; month: number; day: number }) => new Date(Date.UTC(day.year, day.month - 1, day.day)).getUTCDay();

/** Whether the school works on this local day: one of its days, and not a holiday. */
const worksOn = (window: SchoolWindow, day: { year: number; month: number; day: number }) =>
  window.days.includes(weekdayOf(day)) && !window.holidays.includes(dateKey(day));

/** Whether the school's office is open at `at`. */
export function isOpen(at: Date, zone: string | SchoolWindow): boolean {
  const window = windowOf(zone);
  const local = localTime(at, window.timeZone);
  const minute = local.hour * 60 + local.minute;
  return worksOn(window, local) && minute >= window.opens && minute < window.closes;
}

/** `at` when the office is open then; else the next opening (its opening time on its next working day). */
export function nextOpening(at: Date, zone: string | SchoolWindow): Date {
  const window = windowOf(zone);
  if (isOpen(at, window)) return at;
  const local = localTime(at, window.timeZone);
  let day = { year: local.year, month: local.month, day: local.day };
  // Today, if it works today and has not opened yet; otherwise the days after, until one it works.
  if (!(worksOn(window, day) && local.hour * 60 + local.minute < window.opens)) day = nextDay(day);
  // A year of days covers any set of days and holidays a record may hold.
  for (let i = 0; i < 370; i++) {
    if (worksOn(window, day)) return zonedInstant({ ...day, hour: Math.floor(window.opens / 60), minute: window.opens % 60 }, window.timeZone);
    day = nextDay(day);
  }
  throw new Error(`no opening found in ${window.timeZone}`);
}

function nextDay(day: { year: number; month: number; day: number }) {
  const next = new Date(Date.UTC(day.year, day.month - 1, day.day + 1));
  return { year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate() };
}

/**
 * The open clock hours from the one `at` falls in (or the next opening) onwards, as the instants
 * they start, for at most `count` hours.
 */
export function openHours(at: Date, zone: string | SchoolWindow, count: number): Date[] {
  const window = windowOf(zone);
  const hours: Date[] = [];
  let cursor = nextOpening(at, window);
  while (hours.length < count) {
    const local = localTime(cursor, window.timeZone);
    const start = zonedInstant({ year: local.year, month: local.month, day: local.day, hour: local.hour, minute: 0 }, window.timeZone);
    hours.push(start);
    const following = new Date(start.getTime() + 3600_000);
    cursor = nextOpening(following, window);
  }
  return hours;
}

/** The start of the school's clock hour `at` falls in: the unit the hourly maximum counts in. */
export function hourOf(at: Date, zone: string | SchoolWindow): Date {
  const timeZone = windowOf(zone).timeZone;
  const local = localTime(at, timeZone);
  return zonedInstant({ year: local.year, month: local.month, day: local.day, hour: local.hour, minute: 0 }, timeZone);
}

/** "8:00 on Monday", "10:20 today", "9:40 tomorrow": when a letter goes, in the school's time. */
export function describeDelivery(at: Date, zone: string | SchoolWindow, now = new Date()): string {
  zone = windowOf(zone).timeZone;
  const local = localTime(at, zone);
  const today = localTime(now, zone);
  const time = `${local.hour}:${String(local.minute).padStart(2, '0')}`;
  const sameDay = (a: LocalTime, b: { year: number; month: number; day: number }) => a.year === b.year && a.month === b.month && a.day === b.day;
  if (sameDay(local, today)) return `${time} today`;
  if (sameDay(local, nextDay(today))) return `${time} tomorrow`;
  const name = new Intl.DateTimeFormat('en-US', { timeZone: zone, weekday: 'long' }).format(at);
  const daysAhead = (at.getTime() - now.getTime()) / (24 * 3600_000);
  if (daysAhead < 6) return `${time} on ${name}`;
  const date = new Intl.DateTimeFormat('en-US', { timeZone: zone, month: 'long', day: 'numeric' }).format(at);
  return `${time} on ${name}, ${date}`;
}
