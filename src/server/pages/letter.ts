/**
 * The pieces of the pages a parent opens from a link about their letter (/confirm-send,
 * /letter-address): the letter as it reads, and the letter to send by hand.
 */
import { composeLinks, emailAsText } from '../../lib/email/template';
import { escapeHtml, helpClass, inputClass, labelClass } from '../../lib/forms/render';
import { buttonClass } from '../../lib/ui';
import { whenLetterGoes } from '../mail/schedule';
import type { OutboxMessage } from '../letter/outbox';
import type { Locale } from '../../config/locales';

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
  return `<section aria-labelledby="send-yourself" class="mt-8 space-y-3"><h2 id="send-yourself" class="text-lg font-bold">${escapeHtml(words.title)}</h2><div><label for="email-text" class="${labelClass}">${escapeHtml(words.letter)}</label><p class="${helpClass}">${escapeHtml(words.help)}</p><textarea id="email-text" readonly rows="14" class="${inputClass} font-mono text-sm"${lang}>${escapeHtml(emailAsText(email))}</textarea></div><div class="flex flex-wrap gap-2"><a class="${buttonClass('primary', 'sm')}" href="${escapeHtml(links.mailto)}">${escapeHtml(words.openInApp)}</a>${external(links.gmail, 'Gmail')}${external(links.outlook, 'Outlook')}</div></section>`;
}

/** Where a parent's letter stands, as a sentence for their own pages (/your-data): never a stored state's name. */
export function letterStateText(
  message: Pick<OutboxMessage, 'channel' | 'status' | 'review' | 'confirmation' | 'delivery' | 'lastError'>,
  now = new Date(),
): string {
  if (message.channel === 'self') {
    if (message.status === 'awaiting_confirmation') return 'Waiting for you to confirm from your inbox that you sent it';
    if (message.status === 'voided') return 'Not counted: our team voided it with a burst of automated requests';
    if (message.status !== 'sent') return 'Not confirmed in time; nothing was recorded';
    return message.review === 'approved' ? 'Sent by you; counted on your school’s page' : 'Sent by you';
  }
  switch (message.status) {
    case 'awaiting_confirmation':
      return message.confirmation?.refusal ? 'Not sent: our platform’s limits stopped it' : 'Waiting for you to confirm it from your inbox';
    case 'queued':
      return message.delivery ? `Confirmed; going to the school at ${whenLetterGoes(message.delivery, now)}` : 'Confirmed; going to the school soon';
    case 'sent':
      return 'Sent by our platform';
    case 'delivered':
      return 'Delivered to the school’s mail server';
    case 'bounced':
      return 'Not delivered: the school’s mailbox does not exist';
    case 'replaced':
      return 'Replaced by a newer letter you confirmed; never sent';
    case 'failed':
      return message.confirmation?.refusal ? 'Not sent: our platform’s limits stopped it' : 'Not sent: the school’s mail server refused it';
    case 'withdrawn':
      return message.lastError === 'school_complained' ? 'Not sent: the school asked its provider to stop our emails' : 'Not sent: stopped before it went';
    case 'expired':
      return message.lastError === 'not_confirmed_in_time' ? 'Never sent: not confirmed in time' : 'Not sent: the school’s mail server did not take it in time';
    case 'voided':
      return 'Not sent: our team stopped it with a burst of automated requests';
  }
}
