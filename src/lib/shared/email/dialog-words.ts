/**
 * The email dialog's own words (content/i18n/{locale}/emailDialog.yaml), in the page's language:
 * the page reads them at build and hands them to the dialog in its `data-dialog-words`
 * (src/lib/browser/email/flow.ts), so the dialog fetches nothing and never shows a key.
 */
import { defaultLocale, locales, type Locale } from '../../../config/locales';
import type { Translate } from '../i18n/translator';

export { fillParts, fillWords } from '../i18n/translator';
import { emailMessages } from './messages';
import { shareWordKeys, shareWordsOf, type ShareWords } from '../share-words';

export const dialogWordKeys = [
  'title',
  'close',
  'panel.ready',
  'panel.awaiting',
  'panel.sent',
  'panel.view',
  'editDetails',
  'to',
  'subject',
  'note.label',
  'note.optional',
  'note.help',
  'note.count',
  'checkInbox.title',
  'checkInbox.text',
  'sentNote',
  'copy',
  'copied',
  'sendYourself.title',
  'sendYourself.openInApp',
  'sendYourself.newTab',
  'selfSent.thanks',
  'selfSent.checkTitle',
  'selfSent.check',
  'selfSent.yourAddress',
  'selfSent.ask',
  'selfSent.button',
  'selfSent.failed',
  'platform.title',
  'platform.send',
  'platform.sending',
  'platform.confirmFirst',
  'platform.refused',
  'platform.needAddresses',
  'platform.noToken',
  'yourData.link',
  'yourData.text',
  'toast.copied.title',
  'toast.copied.description',
  'toast.copyFailed.title',
  'toast.copyFailed.description',
  'toast.sent.title',
  'toast.sent.description',
  'toast.sendFailed.title',
  'toast.sendFailed.description',
] as const;

export type DialogWordKey = (typeof dialogWordKeys)[number];

/** What the dialog is given: its language (for `lang` and dates), its words by key, and its share block's. */
export interface DialogWords {
  locale: Locale;
  words: Record<DialogWordKey, string>;
  share: ShareWords;
}

/** The dialog's words in `locale`, read at build from the page's translator (a missing key stops the build). */
export function dialogWordsOf(t: Translate, locale: Locale): DialogWords {
  return {
    locale,
    words: Object.fromEntries(dialogWordKeys.map((key) => [key, t(`emailDialog.${key}`)])) as Record<DialogWordKey, string>,
    share: shareWordsOf(t),
  };
}

/** The dialog's words from the page's `data-dialog-words`; throws when the page gave none or some are missing. */
export function dialogWordsFrom(json: string | undefined): DialogWords {
  const value = JSON.parse(json || 'null') as Partial<DialogWords> | null;
  const words = value?.words;
  const missing = [
    ...dialogWordKeys.filter((key) => typeof words?.[key] !== 'string'),
    ...shareWordKeys.filter((key) => typeof value?.share?.[key] !== 'string').map((key) => `share.${key}`),
  ];
  if (!value || !locales.includes(value.locale as Locale) || missing.length) {
    throw new Error(`The page's data-dialog-words lacks ${missing.length ? missing.join(', ') : 'its locale'}`);
  }
  return value as DialogWords;
}

/** Dates in the dialog ("Open it by Monday, June 2, 3:00 PM"), in its language. */
export function dialogDate(iso: string, locale: Locale = defaultLocale): string {
  return new Date(iso).toLocaleString(locale === 'es' ? 'es-US' : 'en-US', {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });
}

/** The dialog's notices ("Copied!", "Email Sent Successfully!") in its words; how long and how they show is emailMessages'. */
export function toastsOf({ words }: DialogWords) {
  const toast = (name: 'copied' | 'copyFailed' | 'sent' | 'sendFailed') => ({
    ...emailMessages[name],
    title: words[`toast.${name}.title`],
    description: words[`toast.${name}.description`],
  });
  return { copied: toast('copied'), copyFailed: toast('copyFailed'), sent: toast('sent'), sendFailed: toast('sendFailed') };
}

export type DialogToasts = ReturnType<typeof toastsOf>;
