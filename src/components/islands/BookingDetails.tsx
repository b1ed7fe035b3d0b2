import { useEffect, useRef, useState, type ReactNode } from 'react';
import { crmErrors } from '../../lib/shared/email/messages';
import { bookingParameters, formatMeetingTime, readBooking, safeHttpUrl, type Booking } from '../../lib/shared/booking';
import type { BookingWords } from '../../lib/shared/booking-words';
import { localeTags } from '../../config/locales';
import { buttonClass, cx } from '../../lib/shared/ui';

/** §9: the contact lookup starts 300 ms after load and gives up after 5 s. */
export const LOOKUP_DELAY_MS = 300;
export const LOOKUP_TIMEOUT_MS = 5000;
const CONFETTI_MS = 3000;
const CONFETTI_PIECES = 50;

/**
 * The meeting link of this booking, from the site's record of Calendly's signed delivery: the
 * server answers only for the invitee of the redirect (`invitee_uuid`) booked with this email.
 */
async function findMeetingLink(email: string, inviteeUuid: string, signal: AbortSignal): Promise<string | undefined> {
  const response = await fetch('/api/hubspot/search-contact', {
    method: 'POST',
    credentials: 'include',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, inviteeUuid }),
    signal,
  });
  if (!response.ok) throw new Error(crmErrors.search);
  const answer = (await response.json()) as { found?: boolean; meetingLink?: string | null };
  return answer.found ? safeHttpUrl(answer.meetingLink) : undefined;
}

function prefersReducedMotion(): boolean {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** One burst of 50 pieces that lives about 3 seconds (ticks are frames at 60 fps). */
async function celebrate(canvas: HTMLCanvasElement): Promise<void> {
  const { createConfetti } = await import('../../lib/browser/confetti');
  const fire = createConfetti(canvas, { resize: true, disableForReducedMotion: true });
  await fire({ particleCount: CONFETTI_PIECES, spread: 80, origin: { y: 0.6 }, ticks: (CONFETTI_MS / 1000) * 60 });
  fire.reset();
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 border-b border-line py-3 last:border-b-0 sm:grid-cols-[10rem_1fr] sm:gap-4">
      <dt className="text-sm font-semibold text-muted">{label}</dt>
      <dd className="break-words text-ink">{children}</dd>
    </div>
  );
}

/**
 * The booking confirmation on /thank-you, read from the scheduler's query string, in the page's
 * words (content/i18n/{locale}/thankYou.yaml, `bookingWordsOf`).
 */
export default function BookingDetails({ words }: { words: BookingWords }) {
  const [booking, setBooking] = useState<Booking | null>(null);
  const [lookingUp, setLookingUp] = useState(false);
  const [confettiOn, setConfettiOn] = useState(false);
  const canvas = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    if (!confettiOn || !canvas.current) return;
    const stop = setTimeout(() => setConfettiOn(false), CONFETTI_MS + 500);
    void celebrate(canvas.current).finally(() => setConfettiOn(false));
    return () => clearTimeout(stop);
  }, [confettiOn]);

  useEffect(() => {
    const read = readBooking(location.search);
    setBooking(read);
    // A visit without a booking is shown what to do next (thank-you.astro): nothing to celebrate.
    const booked = bookingParameters.some((name) => new URLSearchParams(location.search).get(name));
    if (booked && !prefersReducedMotion()) setConfettiOn(true);
    if (!read.email || !read.inviteeUuid) return;
    const controller = new AbortController();
    let timeout: ReturnType<typeof setTimeout> | undefined;
    const start = setTimeout(() => {
      setLookingUp(true);
      timeout = setTimeout(() => controller.abort(), LOOKUP_TIMEOUT_MS);
      findMeetingLink(read.email, read.inviteeUuid, controller.signal)
        .then((meetingLink) => {
          if (meetingLink) setBooking((current) => current && { ...current, meetingUrl: meetingLink });
        })
        // §8: thank-you lookup failures are only logged.
        .catch((error) => console.warn('Contact lookup failed', error instanceof Error ? error.message : error))
        .finally(() => {
          clearTimeout(timeout);
          setLookingUp(false);
        });
    }, LOOKUP_DELAY_MS);
    return () => {
      clearTimeout(start);
      clearTimeout(timeout);
      controller.abort();
    };
  }, []);

  // The prebuilt page (booking not read yet) already has the confirmation, so the page's largest
  // text never waits for this island. What follows the details appears with them rather than
  // being pushed down by them (no layout shift); without JavaScript it shows at once.
  const hasDetails = booking && (booking.attendee || booking.email || booking.start || booking.meetingType || booking.host || booking.meetingUrl);
  const withDetails = booking ? undefined : '[.js_&]:hidden';
  return (
    <div className="space-y-8">
      {/* biome-ignore lint/a11y/noAriaHiddenOnFocusable: a canvas is not focusable; the confetti is decoration */}
      {confettiOn && <canvas ref={canvas} aria-hidden="true" className="pointer-events-none fixed inset-0 z-[70] h-full w-full" />}
      <p className="text-center text-lg text-ink-soft" data-testid="booking-confirmation">
        {/* On a line of its own, so adding the name does not reflow (shift) the sentence, and shown
            once the name is known, so the centred line does not move either. */}
        <span className={cx('block font-semibold text-ink', booking ? undefined : '[.js_&]:invisible')}>
          {booking?.firstName ? words.thanksName.replace('{name}', booking.firstName) : words.thanks}
        </span>{' '}
        {words.confirmed}
      </p>

      <section aria-labelledby="booking-details-title" className="rounded-card border border-line bg-white p-6 shadow-card sm:p-8">
        <h2 id="booking-details-title" className="text-xl font-bold">
          {words.title}
        </h2>
        {!booking ? (
          <p className="mt-4 text-ink-soft" role="status">
            <span className="[.no-js_&]:hidden">{words.loading}</span>
            <span className="[.js_&]:hidden">{words.inEmail}</span>
          </p>
        ) : hasDetails ? (
          <dl className="mt-4">
            {booking.attendee && <Row label={words.attendee}>{booking.attendee}</Row>}
            {booking.email && <Row label={words.email}>{booking.email}</Row>}
            {booking.start && <Row label={words.time}>{formatMeetingTime(booking.start, booking.end, undefined, localeTags[words.locale].lang)}</Row>}
            {booking.meetingType && <Row label={words.type}>{booking.meetingType}</Row>}
            {booking.host && <Row label={words.host}>{booking.host}</Row>}
            {booking.meetingUrl && (
              <Row label={words.link}>
                <a className={buttonClass('primary', 'sm')} href={booking.meetingUrl} target="_blank" rel="noopener noreferrer">
                  {words.join}
                  <span className="sr-only"> {words.newTab}</span>
                </a>
              </Row>
            )}
          </dl>
        ) : (
          <p className="mt-4 text-ink-soft">{words.inEmail}</p>
        )}
        <p className={cx('mt-4 min-h-5 text-sm text-muted', withDetails)} role="status">
          {lookingUp ? words.lookingUp : ''}
        </p>
      </section>

      <section aria-labelledby="calendar-title" className={cx('rounded-card border border-brand-200 bg-brand-50 p-6 sm:p-8', withDetails)}>
        <h2 id="calendar-title" className="text-xl font-bold">
          {words.calendarTitle}
        </h2>
        <p className="mt-2 text-ink-soft">{words.calendarText}</p>
      </section>

      <p className={cx('text-center text-title font-extrabold tracking-tight text-brand-700', withDetails)}>{words.speakSoon}</p>
    </div>
  );
}
