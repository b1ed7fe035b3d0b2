/**
 * The pieces of the pages a parent opens from a link about their letter (/confirm-send,
 * /letter-address): the letter as it reads, and the letter to send by hand.
 */
import { composeLinks, emailAsText } from '../lib/email/template';
import { escapeHtml, helpClass, inputClass, labelClass } from '../lib/forms/render';
import { buttonClass } from '../lib/ui';
import type { OutboxMessage } from './outbox';

export const again = `<a class="${buttonClass('primary', 'md')}" href="/lead-the-change#email-form">Write your email again</a>`;
export const home = `<a class="${buttonClass('secondary', 'md')}" href="/">Go to the home page</a>`;
export const heading = (text: string) => `<h1 id="form-response-title" class="text-title font-extrabold tracking-tight">${escapeHtml(text)}</h1>`;
export const lead = (text: string) => `<p class="mt-4 text-lg text-ink-soft">${escapeHtml(text)}</p>`;
export const actions = (...buttons: string[]) => `<div class="mt-8 flex flex-wrap gap-3">${buttons.join('')}</div>`;

/** The letter as it reads, in the page's own flow. */
export function preview(message: OutboxMessage): string {
  const to = message.toName ? `${message.toName} <${message.to}>` : message.to;
  return `<div class="mt-6 space-y-3 rounded-card border border-line bg-white p-5 shadow-card"><dl class="space-y-1 text-sm"><div class="flex flex-wrap gap-x-2"><dt class="font-semibold">To:</dt><dd class="break-all">${escapeHtml(to)}</dd></div><div class="flex flex-wrap gap-x-2"><dt class="font-semibold">Subject:</dt><dd>${escapeHtml(message.subject)}</dd></div></dl><div class="whitespace-pre-wrap break-words border-t border-line pt-4 text-base leading-relaxed text-ink" role="region" aria-label="Your letter">${escapeHtml(message.body)}</div></div>`;
}

/** The letter to send by hand: copy-ready text and the mail-app, Gmail and Outlook links. */
export function sendYourself(message: OutboxMessage): string {
  const email = { to: message.to, toLine: message.toName ? `${message.toName} <${message.to}>` : message.to, subject: message.subject, body: message.body };
  const links = composeLinks(email);
  const external = (href: string, text: string) => `<a class="${buttonClass('secondary', 'sm')}" href="${escapeHtml(href)}" target="_blank" rel="noopener noreferrer">${text}<span class="sr-only"> (opens in a new tab)</span></a>`;
  return `<section aria-labelledby="send-yourself" class="mt-8 space-y-3"><h2 id="send-yourself" class="text-lg font-bold">Send it yourself</h2><div><label for="email-text" class="${labelClass}">Your letter</label><p class="${helpClass}">Select all of it and copy it into a new email.</p><textarea id="email-text" readonly rows="14" class="${inputClass} font-mono text-sm">${escapeHtml(emailAsText(email))}</textarea></div><div class="flex flex-wrap gap-2"><a class="${buttonClass('primary', 'sm')}" href="${escapeHtml(links.mailto)}">Open in my email app</a>${external(links.gmail, 'Gmail')}${external(links.outlook, 'Outlook')}</div></section>`;
}

