/**
 * The words of the booking details on /thank-you (BookingDetails), the page's (content/i18n/{locale}/thankYou.yaml),
 * handed to the island as props so the island reads no collection.
 */
import type { Locale } from '../../config/locales';
import { wordsUnder, type Translate } from './i18n/translator';

const keys = [
  'thanksName',
  'thanks',
  'confirmed',
  'title',
  'loading',
  'inEmail',
  'attendee',
  'email',
  'time',
  'type',
  'host',
  'link',
  'join',
  'newTab',
  'lookingUp',
  'calendarTitle',
  'calendarText',
  'speakSoon',
] as const;

export type BookingWords = Record<(typeof keys)[number], string> & { locale: Locale };

export function bookingWordsOf(t: Translate, locale: Locale): BookingWords {
  return { ...wordsUnder(t, 'thankYou.details', keys), locale };
}
