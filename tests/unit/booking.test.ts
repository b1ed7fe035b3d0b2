import { describe, expect, test } from 'vitest';
import { formatMeetingTime, readBooking, safeHttpUrl } from '../../src/lib/shared/booking';
import { ambassadorIdOf, formTypeOf } from '../../src/lib/browser/form-page';

describe('readBooking', () => {
  test('reads every parameter of the scheduler redirect', () => {
    const booking = readBooking(
      '?assigned_to=Jordan%20Lee&event_type_name=Intro%20Call&event_start_time=2025-09-25T16:00:00Z&event_end_time=2025-09-25T16:30:00Z' +
        '&invitee_full_name=Ana%20Lopez&invitee_email=ana%40example.org&invitee_first_name=Ana&invitee_last_name=Lopez' +
        '&meeting_url=https%3A%2F%2Fus02web.zoom.us%2Fj%2F123&event_uuid=ev-1&invitee_uuid=INV-0123456789',
    );
    expect(booking).toEqual({
      attendee: 'Ana Lopez',
      email: 'ana@example.org',
      firstName: 'Ana',
      start: new Date('2025-09-25T16:00:00Z'),
      end: new Date('2025-09-25T16:30:00Z'),
      meetingType: 'Intro Call',
      host: 'Jordan Lee',
      meetingUrl: 'https://us02web.zoom.us/j/123',
      eventId: 'ev-1',
      inviteeUuid: 'INV-0123456789',
    });
  });

  test.each([
    ['join_url when meeting_url is missing', '?join_url=https://meet.google.com/abc-defg-hij', 'meetingUrl', 'https://meet.google.com/abc-defg-hij'],
    // Issue 21: anyone can write the query string, so only known meeting providers' links are kept.
    ['no link to another host', '?meeting_url=https://evil.example/login', 'meetingUrl', undefined],
    ['no look-alike of a provider', '?meeting_url=https://zoom.us.evil.example/j/1', 'meetingUrl', undefined],
    ['no host that merely ends like one', '?meeting_url=https://evilzoom.us/j/1', 'meetingUrl', undefined],
    ['no plain http', '?meeting_url=http://zoom.us/j/1', 'meetingUrl', undefined],
    ['no credentials in the link', '?meeting_url=https://zoom.us@evil.example/j/1', 'meetingUrl', undefined],
    ['no malformed invitee uuid', '?invitee_uuid=%3Cx%3E', 'inviteeUuid', ''],
    ['first and last name when the full name is missing', '?invitee_first_name=Ana&invitee_last_name=Lopez', 'attendee', 'Ana Lopez'],
    ['event_type_uuid when event_uuid is missing', '?event_type_uuid=type-9', 'eventId', 'type-9'],
    ['no javascript: link', '?meeting_url=javascript:alert(1)', 'meetingUrl', undefined],
    ['no data: link', '?meeting_url=data:text/html,<script>alert(1)</script>', 'meetingUrl', undefined],
    ['no relative link', '?meeting_url=/admin', 'meetingUrl', undefined],
    ['no invalid date', '?event_start_time=yesterday', 'start', undefined],
    ['no invalid email', '?invitee_email=%3Cscript%3E', 'email', ''],
    ['markup kept as text', '?invitee_full_name=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E', 'attendee', '<img src=x onerror=alert(1)>'],
    ['control characters removed', '?assigned_to=Jo%00rdan', 'host', 'Jo rdan'],
  ])('%s', (_label, search, field, expected) => {
    expect(readBooking(search)[field as keyof ReturnType<typeof readBooking>]).toEqual(expected);
  });

  test('no parameters give an empty booking', () => {
    expect(readBooking('')).toMatchObject({ attendee: '', email: '', meetingType: '', host: '', meetingUrl: undefined, start: undefined });
  });
});

describe('safeHttpUrl', () => {
  test.each([
    ['https://meet.example.org/x', 'https://meet.example.org/x'],
    ['http://meet.example.org/x', 'http://meet.example.org/x'],
    ['  https://meet.example.org/x  ', 'https://meet.example.org/x'],
    ['JAVASCRIPT:alert(1)', undefined],
    ['vbscript:msgbox', undefined],
    ['//evil.example.org', undefined],
    ['', undefined],
    [null, undefined],
  ])('%j → %j', (input, expected) => expect(safeHttpUrl(input)).toBe(expected));
});

describe('formatMeetingTime', () => {
  test.each([
    ['2025-09-25T16:00:00Z', undefined, 'America/New_York', /^Thursday, September 25, 2025 at 12:00\sPM EDT$/],
    ['2025-09-25T16:00:00Z', '2025-09-25T16:30:00Z', 'America/New_York', /^Thursday, September 25, 2025, 12:00\s–\s12:30\sPM EDT$/],
    ['2025-12-01T15:00:00Z', undefined, 'America/Los_Angeles', /^Monday, December 1, 2025 at 7:00\sAM PST$/],
  ])('%s → %s (%s)', (start, end, timeZone, expected) => {
    expect(formatMeetingTime(new Date(start), end ? new Date(end) : undefined, timeZone)).toMatch(expected);
  });

  test('in Spanish on /es/thank-you', () => {
    expect(formatMeetingTime(new Date('2025-09-25T16:00:00Z'), undefined, 'America/New_York', 'es')).toMatch(/^jueves, 25 de septiembre de 2025, 12:00/);
  });
});

describe('/form query parameters', () => {
  test.each([
    ['referSchool', 'referSchool'],
    ['toolkit', 'toolkit'],
    ['newsletter', 'newsletter'],
    ['Newsletter', undefined],
    ['__proto__', undefined],
    ['constructor', undefined],
    ['', undefined],
    [null, undefined],
  ])('type %j → %j', (input, expected) => expect(formTypeOf(input)).toBe(expected));

  test.each([
    ['amb-42', 'amb-42'],
    ['  amb-42 ', 'amb-42'],
    ['\u0000', undefined],
    ['x'.repeat(101), undefined],
    [null, undefined],
  ])('ambassadorId %j → %j', (input, expected) => expect(ambassadorIdOf(input)).toBe(expected));
});
