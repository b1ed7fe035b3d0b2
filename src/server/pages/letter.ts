/**
 * The pieces of the pages a parent opens from a link about their letter (/confirm-send,
 * /letter-address): the letter as it reads, and the letter to send by hand.
 */
import { composeLinks, emailAsText } from '../../lib/shared/email/template';
import { escapeHtml, helpClass, inputClass, labelClass } from '../../lib/shared/forms/render';
import { buttonClass } from '../../lib/shared/ui';
import type { OutboxMessage } from '../letter/outbox';
import type { Locale } from '../../config/locales';
import type { Translate } from '../../lib/shared/i18n/translator';
import { whenLetterGoesIn } from '../mail/schedule';

export const again = `<a class="${buttonClass('primary', 'md')}" href="/lead-the-change#email-form">Write your email again</a>`;
export { homeLink as home } from './frame';

/** The letter as it reads, in the page's own flow. */
/** The preview's labels in each language a parent writes in. */
const previewWords = {
  en: { to: 'To:', subject: 'Subject:', letter: 'Your letter' },
  es: { to: 'Para:', subject: 'Asunto:', letter: 'Su carta' },
} as const;

export function preview(message: OutboxMessage, locale: 'en' | 'es' = 'en'): string {
  const words = previewWords[locale];
  const to = message.toName ? `${message.toName} <${message.to}>` : message.to;
  return `<div class="mt-6 space-y-3 rounded-card border border-line bg-white p-5 shadow-card"><dl class="space-y-1 text-sm"><div class="flex flex-wrap gap-x-2"><dt class="font-semibold">${words.to}</dt><dd class="break-all">${escapeHtml(to)}</dd></div><div class="flex flex-wrap gap-x-2"><dt class="font-semibold">${words.subject}</dt><dd>${escapeHtml(message.subject)}</dd></div></dl><div class="whitespace-pre-wrap break-words border-t border-line pt-4 text-base leading-relaxed text-ink" role="region" aria-label="${words.letter}"${message.letterLocale && message.letterLocale !== locale ? ` lang="${message.letterLocale}"` : !message.letterLocale && locale !== 'en' ? ' lang="en"' : ''}>${escapeHtml(message.body)}</div></div>`;
}

/** The words of "Send it yourself", in the page's language (English unless given). */
export interface SendYourselfWords {
  title: string;
  letter: string;
  help: string;
  openInApp: string;
  newTab: string;
}

const sendYourselfEn: SendYourselfWords = {
  title: 'Send it yourself',
  letter: 'Your letter',
  help: 'Select all of it and copy it into a new email.',
  openInApp: 'Open in my email app',
  newTab: '(opens in a new tab)',
};

/**
 * The letter to send by hand: copy-ready text and the mail-app, Gmail and Outlook links, in
 * `words` (the page's language, `locale`); the letter is marked with its own language where it differs.
 */
export function sendYourself(message: OutboxMessage, words: SendYourselfWords = sendYourselfEn, locale: Locale = 'en'): string {
  const email = { to: message.to, toLine: message.toName ? `${message.toName} <${message.to}>` : message.to, subject: message.subject, body: message.body };
  const links = composeLinks(email);
  const letterLang = message.letterLocale ?? 'en';
  const lang = letterLang !== locale ? ` lang="${letterLang}"` : '';
  const external = (href: string, text: string) =>
    `<a class="${buttonClass('secondary', 'sm')}" href="${escapeHtml(href)}" target="_blank" rel="noopener noreferrer">${text}<span class="sr-only"> ${escapeHtml(words.newTab)}</span></a>`;
  return `<section aria-labelledby="send-yourself" class="mt-8 space-y-3"><h2 id="send-yourself" class="text-lg font-bold">${escapeHtml(words.title)}</h2><div><label for="email-text" class="${labelClass}">${escapeHtml(words.letter)}</label><p class="${helpClass}">${escapeHtml(words.help)}</p><textarea id="email-text" readonly rows="14" class="${inputClass} font-mono text-sm"${lang}>${escapeHtml(emailAsText(email, letterLang))}</textarea></div><div class="flex flex-wrap gap-2"><a class="${buttonClass('primary', 'sm')}" href="${escapeHtml(links.mailto)}">${escapeHtml(words.openInApp)}</a>${external(links.gmail, 'Gmail')}${external(links.outlook, 'Outlook')}</div></section>`;
}

/** "Send it yourself" in a page's words (content/i18n/{locale}/confirmSend.yaml). */
export const sendYourselfWords = (t: Translate): SendYourselfWords => ({
  title: t('confirmSend.sendYourself.title'),
  letter: t('confirmSend.sendYourself.letter'),
  help: t('confirmSend.sendYourself.help'),
  openInApp: t('confirmSend.sendYourself.openInApp'),
  newTab: t('confirmSend.sendYourself.newTab'),
});

/** When a confirmed letter reaches the school, as its language writes it (the school's time); undefined for "in the next few minutes". */
export function goesAt(delivery: { at: string; timeZone?: string } | undefined, locale: Locale, now = new Date()): string | undefined {
  if (!delivery || Date.parse(delivery.at) <= now.getTime() + 60_000) return undefined;
  return whenLetterGoesIn(delivery, locale, now);
}
