/**
 * The next live webinar, as /webinar-thank-you and /webinar-share name it (§ /webinar-thank-you:
 * "From Busy to Brilliant", Sept 25 at 12:00 PM ET, 45 minutes). Its day and hour are shown in the
 * page's language and in the webinar's own time zone (src/lib/shared/i18n/format.ts).
 */
export const liveWebinar = {
  /** Its name, as recorded (English on every page). */
  title: 'From Busy to Brilliant',
  /** 12:00 PM Eastern (daylight) time, 25 September 2025. */
  startsAt: '2025-09-25T16:00:00Z',
  timeZone: 'America/New_York',
  minutes: 45,
} as const;
