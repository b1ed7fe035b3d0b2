/**
 * The emails the site sends to people (parents, staff, ambassadors): each composed from its words
 * (content/emails) and template, written to the mail layer under its purpose's allowance, and, for
 * the ones a person is waiting for, tried at once. Letters to schools are `letter-delivery.ts`.
 *
 * Every link an email carries goes only to the address it is about: the confirmation, follow-up,
 * update and "Your data" links all name the address the email is sent to.
 */
import { defaultLocale, type Locale } from '../../config/locales';
import { site } from '../../config/site';
import { dayInWords } from '../dates';
import { outcomeText, type PageOutcome } from '../../lib/shared/school-page-words';
import {
  dataLink,
  fixAddressLink,
  letterLink,
  REQUESTED_DATA_LINK_TTL_MS,
  sitePage,
  stopLink,
  answerLink,
  confirmationLink,
  EMAILED_DATA_LINK_TTL_MS,
} from '../links';
import { composeEmail, organisationSender, type Rendered } from './compose';
import { deliverEmail, enqueueCoalesced, enqueueEmail, type EmailContent, type Enqueued } from './queue';
import { mailboxKey } from '../identity';
import { query, sql } from '../db';
import { schoolNameOf, schoolOfLetter } from '../schools/letters';
import { schoolPageUrl, type SchoolPageAddress } from '../schools/pages';
import { mailSender } from './senders';
import type { EmailKind } from './states';
import type { EmailHandOver, OutboxMessage } from '../letter/outbox';
import { StoreUnavailableError } from '../http';

/** When a link stops working, as the emails say it ("30 November 2026", "30 de noviembre de 2026"). */
const until = (ms: number, locale: Locale = defaultLocale) => dayIn(new Date(ms), locale);

/** A day in the emails' words, in the parent's language. */
const dayIn = (iso: string | Date, locale: Locale = defaultLocale) =>
  locale === defaultLocale ? dayInWords(iso) : new Date(iso).toLocaleDateString('es-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

/** The words these emails add around their content words (the footer's reason and links), in each language a parent writes in. */
const notifyWords = {
  en: {
    yourData: 'Your data (see, download or delete it)',
    stop: 'Stop emails about your letter',
    yourSchool: 'your school',
    YourSchool: 'Your school',
    theSchool: 'the school',
    confirmReason: `Someone asked ${site.name} to send a letter to a school in the name of this address. Nothing is sent unless you confirm.`,
    askedReason: `You asked ${site.name} to send a letter to a school in your name.`,
    askedToReason: (school: string) => `You asked ${site.name} to send a letter to ${school} in your name.`,
    followUpReason: (school: string) => `You wrote to ${school} with ${site.name}, and we ask how it went.`,
    updateReason: (school: string) => `You wrote to ${school} with ${site.name}; we tell you once when another parent hears back.`,
    /** What the school did, in a school update: "Oakwood Academy agreed to meet, a parent who wrote to them tells us." */
    outcome: (school: string, kind: PageOutcome) => `${outcomeText(school, kind)}, a parent who wrote to them tells us.`,
    dataReason: `Someone asked ${site.name} for a link to the data it keeps about this address. It was sent to this address only.`,
    selfReportReason: `Someone told ${site.name} that this address sent a letter to a school. Nothing is recorded unless you confirm.`,
    /** The gathered confirmations of a mailbox over its day's ceiling: one link per letter. */
    gatheredLink: (index: number, school: string) => `Letter ${index}: confirm your letter to ${school}`,
    gatheredSchools: (count: number) => `${count} schools`,
    /** Whom the gathered letters go to: each letter's own contact, named beside its link. */
    gatheredContacts: 'the school contacts',
    /** Whom a letter goes to, a contact and their school: "Dr. Ruiz at Oakwood Academy". */
    contactAt: (contact: string, school: string) => `${contact} at ${school}`,
    gatheredReason: (count: number) =>
      `Someone asked ${site.name} to send ${count === 1 ? 'a letter' : `${count} letters`} to schools in the name of this address. Nothing is sent unless you confirm each one with its own link.`,
  },
  es: {
    yourData: 'Sus datos (verlos, descargarlos o eliminarlos)',
    stop: 'Dejar de recibir correos sobre su carta',
    yourSchool: 'su escuela',
    YourSchool: 'Su escuela',
    theSchool: 'la escuela',
    confirmReason: `Alguien pidió a ${site.name} enviar una carta a una escuela en nombre de este correo electrónico. No se envía nada a menos que usted confirme.`,
    askedReason: `Usted pidió a ${site.name} enviar una carta a una escuela en su nombre.`,
    askedToReason: (school: string) => `Usted pidió a ${site.name} enviar una carta a ${school} en su nombre.`,
    followUpReason: (school: string) => `Usted escribió a ${school} con ${site.name}, y le preguntamos cómo le fue.`,
    updateReason: (school: string) => `Usted escribió a ${school} con ${site.name}; le avisamos una vez cuando otro padre o madre recibe respuesta.`,
    outcome: (school: string, kind: PageOutcome) => `${outcomeText(school, kind, 'es')}, nos cuenta un padre o madre que le escribió.`,
    dataReason: `Alguien pidió a ${site.name} un enlace a los datos que guarda sobre este correo electrónico. Se envió solo a este correo.`,
    selfReportReason: `Alguien dijo a ${site.name} que este correo electrónico envió una carta a una escuela. No se registra nada a menos que usted confirme.`,
    gatheredLink: (index: number, school: string) => `Carta ${index}: confirme su carta a ${school}`,
    gatheredSchools: (count: number) => `${count} escuelas`,
    gatheredContacts: 'los contactos',
    contactAt: (contact: string, school: string) => `${contact} en ${school}`,
    gatheredReason: (count: number) =>
      `Alguien pidió a ${site.name} enviar ${count === 1 ? 'una carta' : `${count} cartas`} a escuelas en nombre de este correo electrónico. No se envía nada a menos que usted confirme cada una con su propio enlace.`,
  },
} satisfies Record<Locale, Record<string, unknown>>;

/** The language of the emails about a letter: the one its parent wrote in. */
const localeOf = (message: Pick<OutboxMessage, 'locale'>): Locale => message.locale ?? defaultLocale;

/** A school's page, as an email links it: in the language of the parent it goes to (/es/schools/… in Spanish). */
const pageLinkOf = (page: SchoolPageAddress, message: Pick<OutboxMessage, 'locale'>) => schoolPageUrl(page, localeOf(message)).toString();

const content = (rendered: Rendered, extra: Partial<EmailContent> = {}): EmailContent => ({
  subject: rendered.subject,
  text: rendered.text,
  html: rendered.html,
  from: organisationSender(),
  lang: rendered.lang ?? 'en',
  ...extra,
});

/** What a write to the mail layer means for the message that caused it. */
export const handOver = (enqueued: Enqueued): EmailHandOver =>
  enqueued.state === 'over_budget' || enqueued.state === 'over_ceiling' ? 'limit' : enqueued.state === 'suppressed' ? 'suppressed' : 'queued';

/**
 * The school's name an email about a letter may carry: the record's when the letter is on record,
 * never what was typed ("your school" otherwise): these emails go out from the organisation's own
 * address to an address someone typed.
 */
async function schoolName(message: Pick<OutboxMessage, 'schoolId' | 'to' | 'locale'>, fallback = notifyWords[localeOf(message)].yourSchool): Promise<string> {
  return schoolNameOf(await schoolOfLetter(message), fallback);
}

/** The contact's name as an email about a letter says it: the leader's on record, else "the school". */
async function contactName(message: Pick<OutboxMessage, 'schoolId' | 'to' | 'toName' | 'locale'>): Promise<string> {
  const place = await schoolOfLetter(message);
  const leader = place.onRecord ? place.school?.leaders.find((one) => one.address === message.to.trim().toLowerCase()) : undefined;
  return leader?.name || (place.onRecord ? place.school!.name : notifyWords[localeOf(message)].theSchool);
}

/**
 * Whom a letter goes to, in one phrase: the leader on record at their school, the school on record,
 * or "your school" (never a name or an address that was typed, as `schoolName`).
 */
async function recipientName(message: Pick<OutboxMessage, 'schoolId' | 'to' | 'toName' | 'locale'>): Promise<string> {
  const place = await schoolOfLetter(message);
  const words = notifyWords[localeOf(message)];
  if (!place.onRecord || !place.school) return words.yourSchool;
  const leader = place.school.leaders.find((one) => one.address === message.to.trim().toLowerCase());
  return leader?.name ? words.contactAt(leader.name, place.school.name) : place.school.name;
}

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
    if (!(error instanceof StoreUnavailableError))
      console.error('[mail] immediate send of', id, 'failed:', error instanceof Error ? error.message : 'unknown error');
  }
}

async function write(
  kind: EmailKind,
  to: string,
  rendered: Rendered,
  options: { ref?: string; network?: string; id?: string; unsubscribeUrl?: string; now?: Date; soon?: boolean; notBefore?: Date },
): Promise<Enqueued> {
  const enqueued = await enqueueEmail(
    {
      ...(options.id ? { id: options.id } : {}),
      kind,
      to,
      content: content(rendered, options.unsubscribeUrl ? { unsubscribeUrl: options.unsubscribeUrl } : {}),
      ...(options.ref ? { ref: options.ref } : {}),
      ...(options.network ? { network: options.network } : {}),
      ...(options.notBefore ? { notBefore: options.notBefore } : {}),
    },
    options.now,
  );
  if (options.soon && enqueued.state === 'scheduled') await sendSoon(enqueued.id);
  return enqueued;
}

const yourDataLink = (email: string, now?: Date, locale: Locale = defaultLocale) => ({
  label: notifyWords[locale].yourData,
  url: dataLink(email, { now, ttlMs: EMAILED_DATA_LINK_TTL_MS, locale }),
});

/** The start of the next UTC day: when a mailbox over today's ceiling gets its one gathered email. */
const tomorrow = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1, 8));

/**
 * The link that asks the parent to confirm their letter, sent to them alone, tried at once (its
 * reminder under its own id, so two runs never send it twice). A mailbox over its daily ceiling
 * gets its waiting requests gathered into one email the next morning, updated as more wait.
 */
export async function emailConfirmation(message: OutboxMessage, kind: 'confirmation' | 'reminder' = 'confirmation', now = new Date()): Promise<EmailHandOver> {
  const link = confirmationLink(message)!;
  const school = await schoolName(message);
  const locale = localeOf(message);
  const rendered = await composeEmail(
    kind,
    {
      parent: message.parentName,
      school,
      contact: await contactName(message),
      recipient: await recipientName(message),
      expires: until(Date.parse(message.confirmation!.expiresAt), locale),
    },
    {
      actionUrl: link,
      reason: notifyWords[locale].confirmReason,
      footerLinks: [yourDataLink(message.parentEmail, now, locale)],
    },
    locale,
  );
  const enqueued = await write(kind, message.parentEmail, rendered, {
    id: `${message.id}.${kind}`,
    ref: message.id,
    network: message.confirmation?.network,
    now,
    soon: kind === 'confirmation',
  });
  if (enqueued.state === 'over_ceiling' && kind === 'confirmation') return gatherConfirmations(message.parentEmail, now);
  return handOver(enqueued);
}

/**
 * Every request waiting for this mailbox's confirmation, in one email for the next morning (the
 * mailbox had its emails for today): written once, and rewritten as more requests wait, never sent
 * twice. Each request keeps its own link, so a stranger's request never stands in for the parent's.
 */
export async function gatherConfirmations(address: string, now = new Date()): Promise<EmailHandOver> {
  const rows = await query<{ id: string; record: OutboxMessage }>(sql`
    SELECT id, record FROM outbox_messages
    WHERE status = 'awaiting_confirmation' AND channel = 'platform' AND erased_at IS NULL
      AND canonical_address(record->>'parentEmail') = canonical_address(${address})
      AND (record->'confirmation'->>'expiresAt')::timestamptz > ${now}
      AND NOT EXISTS (SELECT 1 FROM emails e WHERE e.id = outbox_messages.id || '.confirmation')
    ORDER BY id DESC LIMIT 10`);
  if (rows.length === 0) return 'queued';
  // In the language of the newest request's parent (one mailbox, one email).
  const first = rows[0]!.record;
  const locale = localeOf(first);
  const words = notifyWords[locale];
  const links = await Promise.all(
    rows.map(async ({ record }, index) => ({ label: words.gatheredLink(index + 1, await schoolName(record)), url: confirmationLink(record)! })),
  );
  const rendered = await composeEmail(
    'confirmation',
    {
      parent: first.parentName,
      school: rows.length === 1 ? await schoolName(first) : words.gatheredSchools(rows.length),
      // Several letters: not the newest letter's contact "at 4 schools".
      contact: rows.length === 1 ? await contactName(first) : words.gatheredContacts,
      recipient: rows.length === 1 ? await recipientName(first) : words.contactAt(words.gatheredContacts, words.gatheredSchools(rows.length)),
      expires: until(Date.parse(first.confirmation!.expiresAt), locale),
    },
    {
      actionUrl: confirmationLink(first),
      reason: words.gatheredReason(rows.length),
      footerLinks: [...links, yourDataLink(address, now, locale)],
    },
    locale,
  );
  const enqueued = await enqueueCoalesced(
    {
      kind: 'confirmation',
      to: address,
      content: content(rendered),
      notBefore: tomorrow(now),
      coalesceKey: `confirm:${mailboxKey(address)}`,
      network: 'system',
    },
    now,
  );
  return handOver(enqueued);
}

/** Why the platform did not send a letter (PLATFORM_SEND_CONFIRMATION=off), with the page that shows the letter. */
export async function emailRefusal(message: OutboxMessage, reason: string, now = new Date()): Promise<EmailHandOver> {
  const locale = localeOf(message);
  const rendered = await composeEmail(
    'refusal',
    { parent: message.parentName, school: await schoolName(message), reason },
    {
      actionUrl: confirmationLink(message),
      reason: notifyWords[locale].askedReason,
      footerLinks: [yourDataLink(message.parentEmail, now, locale)],
    },
    locale,
  );
  return handOver(await write('refusal', message.parentEmail, rendered, { ref: message.id, network: message.confirmation?.network, now, soon: true }));
}

/** "Did your school answer?", the first time or the second. */
export async function emailFollowUp(message: OutboxMessage, which: 'follow_up' | 'second_follow_up', dueAt: string, now = new Date()): Promise<EmailHandOver> {
  const stop = stopLink(message.parentEmail, now, localeOf(message));
  const school = await schoolName(message);
  const locale = localeOf(message);
  const words = notifyWords[locale];
  const rendered = await composeEmail(
    which,
    { parent: message.parentName, school, sent: dayIn(message.sentAt ?? message.createdAt, locale) },
    {
      actionUrl: answerLink(message.id, dueAt, locale),
      reason: words.followUpReason(school),
      footerLinks: [yourDataLink(message.parentEmail, now, locale), { label: words.stop, url: stop }],
    },
    locale,
  );
  return handOver(await write(which, message.parentEmail, rendered, { id: `${message.id}.${which}`, ref: message.id, unsubscribeUrl: stop, now }));
}

/** Another parent's news from the school, to a parent who wrote to it too. */
export async function emailSchoolUpdate(
  message: OutboxMessage,
  kind: PageOutcome,
  updateId: string,
  page: SchoolPageAddress | undefined,
  now = new Date(),
): Promise<EmailHandOver> {
  const locale = localeOf(message);
  const words = notifyWords[locale];
  const school = await schoolName(message, words.YourSchool);
  const stop = stopLink(message.parentEmail, now, localeOf(message));
  const rendered = await composeEmail(
    'school_update',
    { parent: message.parentName, school, outcome: words.outcome(school, kind) },
    {
      ...(page ? { actionUrl: pageLinkOf(page, message) } : {}),
      reason: words.updateReason(school),
      footerLinks: [yourDataLink(message.parentEmail, now, locale), { label: words.stop, url: stop }],
    },
    locale,
  );
  return handOver(await write('school_update', message.parentEmail, rendered, { id: updateId, ref: message.id, unsubscribeUrl: stop, now }));
}

/** A "Your data" link asked for by address: to that address only, under its own allowance. */
export async function emailDataLink(address: string, network: string, now = new Date(), locale: Locale = defaultLocale): Promise<EmailHandOver> {
  const rendered = await composeEmail(
    'data_link',
    { expires: until(now.getTime() + REQUESTED_DATA_LINK_TTL_MS, locale) },
    {
      actionUrl: dataLink(address, { now, ttlMs: REQUESTED_DATA_LINK_TTL_MS, locale }),
      reason: notifyWords[locale].dataReason,
    },
    locale,
  );
  return handOver(await write('data_link', address, rendered, { network, now, soon: true }));
}

/** A letter the school's mailbox refused for good: the parent is told once (its own id), with a way to correct the address. */
export async function emailDeliveryFailure(message: OutboxMessage, now = new Date()): Promise<EmailHandOver> {
  const school = await schoolName(message);
  const rendered = await composeEmail(
    'delivery_failure',
    { parent: message.parentName, school, contact: await contactName(message), address: message.to },
    {
      actionUrl: fixAddressLink(message.id, now, localeOf(message)),
      reason: notifyWords[localeOf(message)].askedToReason(school),
      footerLinks: [yourDataLink(message.parentEmail, now, localeOf(message))],
    },
    localeOf(message),
  );
  return handOver(await write('delivery_failure', message.parentEmail, rendered, { id: `${message.id}.bounced`, ref: message.id, now }));
}

/** A confirmed letter that did not go and will not: the parent is told why, once, with their letter to send themselves. */
export async function emailLetterNotSent(message: OutboxMessage, reason: string, now = new Date()): Promise<EmailHandOver> {
  const school = await schoolName(message);
  const rendered = await composeEmail(
    'letter_not_sent',
    { parent: message.parentName, school, contact: await contactName(message), reason },
    {
      actionUrl: letterLink(message.id, now, localeOf(message)),
      reason: notifyWords[localeOf(message)].askedToReason(school),
      footerLinks: [yourDataLink(message.parentEmail, now, localeOf(message))],
    },
    localeOf(message),
  );
  return handOver(await write('letter_not_sent', message.parentEmail, rendered, { id: `${message.id}.ended`, ref: message.id, now }));
}

/** "Did you send your letter?": the one email a self-report causes before its parent confirms it. */
export async function emailSelfReport(message: OutboxMessage, network: string, now = new Date()): Promise<EmailHandOver> {
  const rendered = await composeEmail(
    'self_report',
    {
      parent: message.parentName,
      school: await schoolName(message),
      contact: await contactName(message),
      expires: until(Date.parse(message.confirmation!.expiresAt), localeOf(message)),
    },
    {
      actionUrl: confirmationLink(message),
      reason: notifyWords[localeOf(message)].selfReportReason,
    },
    localeOf(message),
  );
  return handOver(await write('self_report', message.parentEmail, rendered, { id: `${message.id}.self_report`, ref: message.id, network, now, soon: true }));
}

/** A letter went inside the school's digest: its parent is told (once, its own id). */
export async function emailDigestNotice(message: OutboxMessage, count: number, page: SchoolPageAddress | undefined, now = new Date()): Promise<EmailHandOver> {
  const school = await schoolName(message);
  const stop = stopLink(message.parentEmail, now, localeOf(message));
  const rendered = await composeEmail(
    'digest_notice',
    { parent: message.parentName, school, contact: await contactName(message), count: String(count) },
    {
      actionUrl: page
        ? pageLinkOf(page, message)
        : sitePage(localeOf(message) === defaultLocale ? '/lead-the-change' : `/${localeOf(message)}/lead-the-change`),
      reason: notifyWords[localeOf(message)].askedToReason(school),
      footerLinks: [yourDataLink(message.parentEmail, now, localeOf(message)), { label: notifyWords[localeOf(message)].stop, url: stop }],
    },
    localeOf(message),
  );
  return handOver(await write('digest_notice', message.parentEmail, rendered, { id: `${message.id}.digested`, ref: message.id, unsubscribeUrl: stop, now }));
}

/** An invitation to the admin page, to the address invited only, tried at once. */
export async function emailStaffInvitation(
  input: { email: string; role: 'owner' | 'staff'; inviter: string; link: string; expiresAt: Date; ref: string; network: string },
  now = new Date(),
): Promise<EmailHandOver> {
  const rendered = await composeEmail(
    'staff_invitation',
    { role: input.role === 'owner' ? 'an owner' : 'staff', inviter: input.inviter, expires: until(input.expiresAt.getTime()) },
    {
      actionUrl: input.link,
      reason: `Someone on the ${site.name} team invited this address to the admin page.`,
    },
  );
  return handOver(await write('staff_invitation', input.email, rendered, { ref: input.ref, network: input.network, now, soon: true }));
}

/** An ambassador's own page, to their address only. */
export async function emailAmbassadorLink(
  input: { email: string; name: string; link: string; ref: string; network: string },
  now = new Date(),
): Promise<EmailHandOver> {
  const rendered = await composeEmail(
    'ambassador_link',
    { name: input.name },
    {
      actionUrl: input.link,
      reason: `You are a ${site.name} Parent Ambassador.`,
    },
  );
  return handOver(await write('ambassador_link', input.email, rendered, { ref: input.ref, network: input.network, now, soon: true }));
}

/** Why an owner gets the abuse watch's alert (its footer). */
export const abuseAlertReason = `You are an owner of the ${site.name} site, and its abuse watch saw a burst of requests.`;

/**
 * The abuse watch's alert to one owner (src/server/abuse/alerts.ts), under the id the caller makes
 * of the key, the hour and the owner: a second run in the hour finds it written and sends nothing.
 */
export async function emailAbuseAlert(
  input: { to: string; id: string; what: string; count: number; usualPerHour: number; ratio: number; link: string },
  now = new Date(),
): Promise<Enqueued> {
  const rendered = await composeEmail(
    'abuse_alert',
    { what: input.what, count: String(input.count), usual: input.usualPerHour.toFixed(1), ratio: String(Math.round(input.ratio)) },
    { actionUrl: input.link, reason: abuseAlertReason },
  );
  return write('abuse_alert', input.to, rendered, { id: input.id, now, soon: true });
}
