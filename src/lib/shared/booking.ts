/**
 * The booking the scheduler hands to /thank-you in its query string (§2), read defensively:
 * values are plain text, times must parse, links must be http(s).
 */
export interface Booking {
  attendee: string;
  email: string;
  firstName: string;
  start?: Date;
  end?: Date;
  meetingType: string;
  host: string;
  /** A link from the query string, kept only when its host is a known meeting provider's. */
  meetingUrl?: string;
  eventId: string;
  /** Calendly's id of this booking's invitee (`invitee_uuid`), which the meeting-link lookup needs. */
  inviteeUuid: string;
}

const MAX_TEXT = 200;

/** The query parameters that carry a booking: a visit with none of them has nothing to confirm. */
export const bookingParameters = [
  'assigned_to',
  'event_type_name',
  'event_start_time',
  'event_end_time',
  'invitee_full_name',
  'invitee_email',
  'invitee_first_name',
  'invitee_last_name',
  'meeting_url',
  'join_url',
  'event_uuid',
  'event_type_uuid',
  'invitee_uuid',
] as const;

function text(params: URLSearchParams, ...names: string[]): string {
  for (const name of names) {
    const value = params
      .get(name)
      ?.replace(/[\u0000-\u001f\u007f]/g, ' ')
      .trim();
    if (value) return value.slice(0, MAX_TEXT);
  }
  return '';
}

function date(value: string): Date | undefined {
  if (!value) return undefined;
  const parsed = new Date(value);
  return Number.isNaN(parsed.getTime()) ? undefined : parsed;
}

/** The link when it is an absolute http or https URL; never javascript:, data: or relative. */
export function safeHttpUrl(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The hosts of the video-meeting providers whose links /thank-you shows from its query string
 * (anyone can write a query string: a link elsewhere could make our page point at any site).
 * A host matches itself and its subdomains.
 */
export const MEETING_PROVIDER_HOSTS = [
  'zoom.us',
  'zoomgov.com',
  'meet.google.com',
  'teams.microsoft.com',
  'teams.live.com',
  'webex.com',
  'calendly.com',
  'whereby.com',
  'meet.goto.com',
  'gotomeeting.com',
  'join.skype.com',
  'meet.jit.si',
] as const;

/** The link when it is https on a known meeting provider's host, else undefined. */
export function meetingProviderUrl(value: string | null | undefined): string | undefined {
  const link = safeHttpUrl(value);
  if (!link) return undefined;
  const url = new URL(link);
  if (url.protocol !== 'https:' || url.username || url.password || url.port) return undefined;
  const host = url.hostname.toLowerCase();
  return MEETING_PROVIDER_HOSTS.some((known) => host === known || host.endsWith(`.${known}`)) ? link : undefined;
}

/** A Calendly uuid as its redirect carries it (letters, digits and dashes). */
const UUID = /^[A-Za-z0-9-]{8,64}$/;

export function isPlausibleEmail(value: string): boolean {
  return value.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
}

export function readBooking(search: string): Booking {
  const params = new URLSearchParams(search);
  const first = text(params, 'invitee_first_name');
  const last = text(params, 'invitee_last_name');
  const email = text(params, 'invitee_email');
  return {
    attendee: text(params, 'invitee_full_name') || [first, last].filter(Boolean).join(' '),
    email: isPlausibleEmail(email) ? email : '',
    firstName: first || text(params, 'invitee_full_name').split(' ')[0] || '',
    start: date(text(params, 'event_start_time')),
    end: date(text(params, 'event_end_time')),
    meetingType: text(params, 'event_type_name'),
    host: text(params, 'assigned_to'),
    meetingUrl: meetingProviderUrl(params.get('meeting_url') || params.get('join_url')),
    eventId: text(params, 'event_uuid', 'event_type_uuid'),
    inviteeUuid: UUID.test(text(params, 'invitee_uuid')) ? text(params, 'invitee_uuid') : '',
  };
}

const longForm: Intl.DateTimeFormatOptions = {
  weekday: 'long',
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short',
};

/** "Thursday, September 25, 2025 at 12:00 PM EDT", with the end time when it is known; in `lang` ("es" for Spanish). */
export function formatMeetingTime(start: Date, end?: Date, timeZone?: string, lang = 'en-US'): string {
  const format = new Intl.DateTimeFormat(lang === 'en' ? 'en-US' : lang, { ...longForm, timeZone });
  if (end && end.getTime() > start.getTime()) return format.formatRange(start, end);
  return format.format(start);
}
