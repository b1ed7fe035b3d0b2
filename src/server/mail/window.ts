/**
 * When a school reads its mail: weekdays from 8:00 to 16:00 in the school's time zone (the parent's
 * browser's at confirmation, else SCHOOL_TIME_ZONE). Pure: wall-clock arithmetic with Intl, no
 * library, correct across daylight-saving changes (a local time is found by its offset at that time).
 */

export const OPENS_AT = 8;
export const CLOSES_AT = 16;

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
    found = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', weekday: 'short' });
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
  const parts = Object.fromEntries(formatter(zone).formatToParts(at).map((part) => [part.type, part.value]));
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

const isWeekday = (local: LocalTime) => local.weekday >= 1 && local.weekday <= 5;

/** Whether the school's office is open at `at`. */
export function isOpen(at: Date, zone: string): boolean {
  const local = localTime(at, zone);
  return isWeekday(local) && local.hour >= OPENS_AT && local.hour < CLOSES_AT;
}

/** `at` when the office is open then; else the next opening (8:00 on the next weekday). */
export function nextOpening(at: Date, zone: string): Date {
  if (isOpen(at, zone)) return at;
  let local = localTime(at, zone);
  let day = { year: local.year, month: local.month, day: local.day };
  // Today, if it is a weekday before 8:00; otherwise the days after, until a weekday.
  if (!(isWeekday(local) && local.hour < OPENS_AT)) day = nextDay(day);
  for (let i = 0; i < 7; i++) {
    const opening = zonedInstant({ ...day, hour: OPENS_AT, minute: 0 }, zone);
    local = localTime(opening, zone);
    if (isWeekday(local)) return opening;
    day = nextDay(day);
  }
  throw new Error(`no opening found in ${zone}`);
}

function nextDay(day: { year: number; month: number; day: number }) {
  const next = new Date(Date.UTC(day.year, day.month - 1, day.day + 1));
  return { year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate() };
}

/**
 * The open clock hours from the one `at` falls in (or the next opening) onwards, as the instants
 * they start, for at most `count` hours.
 */
export function openHours(at: Date, zone: string, count: number): Date[] {
  const hours: Date[] = [];
  let cursor = nextOpening(at, zone);
  while (hours.length < count) {
    const local = localTime(cursor, zone);
    const start = zonedInstant({ year: local.year, month: local.month, day: local.day, hour: local.hour, minute: 0 }, zone);
    hours.push(start);
    const following = new Date(start.getTime() + 3600_000);
    cursor = nextOpening(following, zone);
  }
  return hours;
}

/** "8:00 on Monday", "10:20 today", "9:40 tomorrow": when a letter goes, in the school's time. */
export function describeDelivery(at: Date, zone: string, now = new Date()): string {
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
