/**
 * The emails the site sends to people (parents, staff, ambassadors): each composed from its words
 * (content/emails) and template, written to the mail layer under its purpose's allowance, and, for
 * the ones a person is waiting for, tried at once. Letters to schools are `letter-delivery.ts`.
 *
 * Every link an email carries goes only to the address it is about: the confirmation, follow-up,
 * update and "Your data" links all name the address the email is sent to.
 */
import { site } from '../config/site';
import { dayInWords } from '../lib/dates';
import { outcomeText, type PageOutcome } from '../lib/school-pages';
import { dataLink, fixAddressLink, REQUESTED_DATA_LINK_TTL_MS, sitePage, stopLink, answerLink, confirmationLink, EMAILED_DATA_LINK_TTL_MS } from './links';
import { composeEmail, organisationSender, type Rendered } from './mail/compose';
import { deliverEmail, enqueueEmail, type EmailContent, type Enqueued } from './mail/queue';
import { mailSender } from './mail/senders';
import type { EmailKind } from './mail/states';
import type { EmailHandOver, OutboxMessage } from './outbox';
import { StoreUnavailableError } from './http';

/** When a link stops working, as the emails say it ("30 November 2026"). */
const until = (ms: number) => dayInWords(new Date(ms));

const content = (rendered: Rendered, extra: Partial<EmailContent> = {}): EmailContent => ({
  subject: rendered.subject,
  text: rendered.text,
  html: rendered.html,
  from: organisationSender(),
  lang: 'en',
  ...extra,
});

/** What a write to the mail layer means for the message that caused it. */
export const handOver = (enqueued: Enqueued): EmailHandOver => (enqueued.state === 'over_budget' ? 'limit' : enqueued.state === 'suppressed' ? 'suppressed' : 'queued');

/**
 * Tries a just-written email at once (a person is waiting for it), within the sender's own time
 * limit. Whatever happens, the email stays in the mail layer and the scheduled run sends it.
 */
export async function sendSoon(id: string): Promise<void> {
  const sender = mailSender();
  if (!sender) return;
  try {
    await deliverEmail(id, sender);
  } catch (error) {
    if (!(error instanceof StoreUnavailableError)) console.error('[mail] immediate send of', id, 'failed:', error instanceof Error ? error.message : 'unknown error');
  }
}

async function write(kind: EmailKind, to: string, rendered: Rendered, options: { ref?: string; network?: string; id?: string; unsubscribeUrl?: string; now?: Date; soon?: boolean }): Promise<Enqueued> {
  const enqueued = await enqueueEmail(
    {
      ...(options.id ? { id: options.id } : {}),
      kind,
      to,
      content: content(rendered, options.unsubscribeUrl ? { unsubscribeUrl: options.unsubscribeUrl } : {}),
      ...(options.ref ? { ref: options.ref } : {}),
      ...(options.network ? { network: options.network } : {}),
    },
    options.now,
  );
  if (options.soon && enqueued.state === 'scheduled') await sendSoon(enqueued.id);
  return enqueued;
}

const yourDataLink = (email: string, now?: Date) => ({ label: 'Your data (see, download or delete it)', url: dataLink(email, { now, ttlMs: EMAILED_DATA_LINK_TTL_MS }) });

/** The link that asks the parent to confirm their letter, sent to them alone, tried at once. */
export async function emailConfirmation(message: OutboxMessage, kind: 'confirmation' | 'reminder' = 'confirmation', now = new Date()): Promise<EmailHandOver> {
  const link = confirmationLink(message)!;
  const rendered = await composeEmail(
    kind,
    { parent: message.parentName, school: message.schoolName || 'your school', contact: message.toName || message.to, expires: until(Date.parse(message.confirmation!.expiresAt)) },
    {
      actionUrl: link,
      reason: `Someone asked ${site.name} to send a letter to a school in the name of this address. Nothing is sent unless you confirm.`,
      footerLinks: [yourDataLink(message.parentEmail, now)],
    },
  );
  return handOver(await write(kind, message.parentEmail, rendered, { ref: message.id, network: message.confirmation?.network, now, soon: kind === 'confirmation' }));
}

/** Why the platform did not send a letter (PLATFORM_SEND_CONFIRMATION=off), with the page that shows the letter. */
export async function emailRefusal(message: OutboxMessage, reason: string, now = new Date()): Promise<EmailHandOver> {
  const rendered = await composeEmail('refusal', { parent: message.parentName, school: message.schoolName || 'your school', reason }, {
    actionUrl: confirmationLink(message),
    reason: `You asked ${site.name} to send a letter to a school in your name.`,
    footerLinks: [yourDataLink(message.parentEmail, now)],
  });
  return handOver(await write('refusal', message.parentEmail, rendered, { ref: message.id, network: message.confirmation?.network, now, soon: true }));
}

/** "Did your school answer?", the first time or the second. */
export async function emailFollowUp(message: OutboxMessage, which: 'follow_up' | 'second_follow_up', dueAt: string, now = new Date()): Promise<EmailHandOver> {
  const stop = stopLink(message.parentEmail, now);
  const rendered = await composeEmail(which, { parent: message.parentName, school: message.schoolName || 'your school', sent: dayInWords(message.sentAt ?? message.createdAt) }, {
    actionUrl: answerLink(message.id, dueAt),
    reason: `You wrote to ${message.schoolName || 'your school'} with ${site.name}, and we ask how it went.`,
    footerLinks: [yourDataLink(message.parentEmail, now), { label: 'Stop emails about your letter', url: stop }],
  });
  return handOver(await write(which, message.parentEmail, rendered, { ref: message.id, unsubscribeUrl: stop, now }));
}

/** Another parent's news from the school, to a parent who wrote to it too. */
export async function emailSchoolUpdate(message: OutboxMessage, kind: PageOutcome, updateId: string, pageUrl: string | undefined, now = new Date()): Promise<EmailHandOver> {
  const school = message.schoolName || 'Your school';
  const stop = stopLink(message.parentEmail, now);
  const rendered = await composeEmail('school_update', { parent: message.parentName, school, outcome: `${outcomeText(school, kind)}, a parent who wrote to them tells us.` }, {
    ...(pageUrl ? { actionUrl: pageUrl } : {}),
    reason: `You wrote to ${school} with ${site.name}; we tell you once when another parent hears back.`,
    footerLinks: [yourDataLink(message.parentEmail, now), { label: 'Stop emails about your letter', url: stop }],
  });
  return handOver(await write('school_update', message.parentEmail, rendered, { id: updateId, ref: message.id, unsubscribeUrl: stop, now }));
}

/** A "Your data" link asked for by address: to that address only, under its own allowance. */
export async function emailDataLink(address: string, network: string, now = new Date()): Promise<EmailHandOver> {
  const rendered = await composeEmail('data_link', { expires: until(now.getTime() + REQUESTED_DATA_LINK_TTL_MS) }, {
    actionUrl: dataLink(address, { now, ttlMs: REQUESTED_DATA_LINK_TTL_MS }),
    reason: `Someone asked ${site.name} for a link to the data it keeps about this address. It was sent to this address only.`,
  });
  return handOver(await write('data_link', address, rendered, { network, now, soon: true }));
}

/** A letter the school's server refused: the parent is told once, with a way to correct the address. */
export async function emailDeliveryFailure(message: OutboxMessage, now = new Date()): Promise<EmailHandOver> {
  const rendered = await composeEmail('delivery_failure', { parent: message.parentName, school: message.schoolName || 'your school', contact: message.toName || message.to, address: message.to }, {
    actionUrl: fixAddressLink(message.id, now),
    reason: `You asked ${site.name} to send a letter to ${message.schoolName || 'your school'} in your name.`,
    footerLinks: [yourDataLink(message.parentEmail, now)],
  });
  return handOver(await write('delivery_failure', message.parentEmail, rendered, { ref: message.id, now }));
}

/** A letter went inside the school's digest: its parent is told. */
export async function emailDigestNotice(message: OutboxMessage, count: number, pageUrl: string | undefined, now = new Date()): Promise<EmailHandOver> {
  const stop = stopLink(message.parentEmail, now);
  const rendered = await composeEmail('digest_notice', { parent: message.parentName, school: message.schoolName || 'your school', contact: message.toName || message.to, count: String(count) }, {
    actionUrl: pageUrl ?? sitePage('/lead-the-change'),
    reason: `You asked ${site.name} to send a letter to ${message.schoolName || 'your school'} in your name.`,
    footerLinks: [yourDataLink(message.parentEmail, now), { label: 'Stop emails about your letter', url: stop }],
  });
  return handOver(await write('digest_notice', message.parentEmail, rendered, { ref: message.id, unsubscribeUrl: stop, now }));
}

/** An invitation to the admin page, to the address invited only, tried at once. */
export async function emailStaffInvitation(input: { email: string; role: 'owner' | 'staff'; inviter: string; link: string; expiresAt: Date; ref: string; network: string }, now = new Date()): Promise<EmailHandOver> {
  const rendered = await composeEmail('staff_invitation', { role: input.role === 'owner' ? 'an owner' : 'staff', inviter: input.inviter, expires: until(input.expiresAt.getTime()) }, {
    actionUrl: input.link,
    reason: `Someone on the ${site.name} team invited this address to the admin page.`,
  });
  return handOver(await write('staff_invitation', input.email, rendered, { ref: input.ref, network: input.network, now, soon: true }));
}

/** An ambassador's own page, to their address only. */
export async function emailAmbassadorLink(input: { email: string; name: string; link: string; ref: string; network: string }, now = new Date()): Promise<EmailHandOver> {
  const rendered = await composeEmail('ambassador_link', { name: input.name }, {
    actionUrl: input.link,
    reason: `You are a ${site.name} Parent Ambassador.`,
  });
  return handOver(await write('ambassador_link', input.email, rendered, { ref: input.ref, network: input.network, now, soon: true }));
}
