/**
 * Every dead end reaches the parent: a letter that bounced, failed, was withdrawn or expired after
 * its parent confirmed it is said to them, by an email (under an id of its own, so a run that dies
 * or runs twice never sends it twice) and on their letter's page (/confirm-send). A notice the mail
 * layer could not take (the mailbox's allowance for today) is tried again by the next runs, for a
 * week. A request nobody confirmed is not emailed about: its address never showed it was theirs.
 */
import { query, sql } from '../db';
import { emailDeliveryFailure, emailLetterNotSent } from '../mail/notify';
import { readMessage, type OutboxMessage } from './outbox';
import { schoolNameOf, schoolOfLetter } from '../schools/letters';
import { isDeadEnd } from './life';

/** How long a notice the mail layer could not take is tried again. */
const NOTICE_RETRY_MS = 7 * 24 * 3600_000;

/** The id of the notice a dead end sends (a bounce has its own: it carries the link to correct the address). */
export const noticeId = (message: Pick<OutboxMessage, 'id' | 'status'>) => `${message.id}.${message.status === 'bounced' ? 'bounced' : 'ended'}`;

/** What happened to a letter that did not go, and what its parent can do, in a sentence or two. */
export async function endText(message: OutboxMessage): Promise<string> {
  const school = schoolNameOf(await schoolOfLetter(message));
  const detail = message.delivery?.detail ? ` (its answer: “${message.delivery.detail.slice(0, 120)}”)` : '';
  if (message.locale === 'es') return endTextEs(message, school, detail);
  switch (message.lastError) {
    case 'school_complained':
      return `${school === 'your school' ? 'The school' : school} asked its email provider to stop our emails, so we did not send your letter. It reaches them if you send it from your own email address.`;
    case 'refused':
      return `The mail server at ${message.to} refused your letter${detail}. This is its rule for this message (often a spam filter), not a wrong address. Sending it from your own email address usually gets through.`;
    case 'tries_used_up':
      return `We tried for several days, but the mail server at ${message.to} did not take your letter${detail}.`;
    case 'too_long_waiting':
      return `Your letter waited two weeks and the school’s mail server still did not take it, so we stopped trying.`;
    case 'staff':
      return 'Our team stopped your letter before it went.';
    case 'voided':
      if (message.channel === 'self')
        return 'Our team did not record your report: it came among a burst of automated requests from one connection or email domain, so it counts on no page. The letter you sent yourself is not affected.';
      return 'Our team stopped your letter before it went: it was asked for among a burst of automated requests from one connection or email domain. If you wrote it, it reaches your school when you send it from your own email address.';
    default:
      return `We could not send your letter to ${message.to}.`;
  }
}

/** Tells a letter's parent where it ended, once (nothing for a request they never confirmed, or data they deleted). */
export async function tellParent(message: OutboxMessage, now = new Date()): Promise<void> {
  if (message.channel !== 'platform' || !isDeadEnd(message.status)) return;
  if (!message.confirmation?.confirmedAt || ['data_deleted', 'not_confirmed_in_time', 'request_failed'].includes(message.lastError ?? '')) return;
  if (message.status === 'bounced') await emailDeliveryFailure(message, now);
  else await emailLetterNotSent(message, await endText(message), now);
}

/**
 * Dead ends of the last week whose notice is not written yet (a run died before it, or the mailbox
 * had its emails for the day): told now. Returns how many were written.
 */
export async function tellUntold(now = new Date()): Promise<number> {
  const rows = await query<{ id: string }>(sql`
    SELECT o.id FROM outbox_messages o
    WHERE o.channel = 'platform' AND o.erased_at IS NULL AND o.status IN ('bounced', 'failed', 'withdrawn', 'expired', 'voided')
      AND o.updated_at > ${new Date(now.getTime() - NOTICE_RETRY_MS)}
      AND o.record->'confirmation'->>'confirmedAt' IS NOT NULL
      AND coalesce(o.record->>'lastError', '') NOT IN ('data_deleted', 'not_confirmed_in_time')
      AND NOT EXISTS (SELECT 1 FROM emails e WHERE e.id IN (o.id || '.bounced', o.id || '.ended'))
    ORDER BY o.id LIMIT 100`);
  let told = 0;
  for (const { id } of rows) {
    const found = await readMessage(id);
    if (!found) continue;
    await tellParent(found.message, now);
    told++;
  }
  return told;
}

/** `endText` for a parent who wrote in Spanish (usted, plain words). */
function endTextEs(message: OutboxMessage, school: string, detail: string): string {
  const named = school === 'your school' ? 'La escuela' : school;
  const answer = detail ? ` (su respuesta: “${message.delivery!.detail!.slice(0, 120)}”)` : '';
  switch (message.lastError) {
    case 'school_complained':
      return `${named} pidió a su proveedor de correo que detuviera nuestros correos, así que no enviamos su carta. Les llega si usted la envía desde su propio correo electrónico.`;
    case 'refused':
      return `El servidor de correo de ${message.to} rechazó su carta${answer}. Es su regla para este mensaje (a menudo un filtro de correo no deseado), no una dirección equivocada. Si la envía desde su propio correo electrónico, normalmente llega.`;
    case 'tries_used_up':
      return `Lo intentamos durante varios días, pero el servidor de correo de ${message.to} no aceptó su carta${answer}.`;
    case 'too_long_waiting':
      return 'Su carta esperó dos semanas y el servidor de correo de la escuela aún no la aceptó, así que dejamos de intentarlo.';
    case 'staff':
      return 'Nuestro equipo detuvo su carta antes de que saliera.';
    case 'voided':
      if (message.channel === 'self')
        return 'Nuestro equipo no registró su aviso: llegó en medio de una ola de solicitudes automáticas desde una misma conexión o dominio de correo, así que no cuenta en ninguna página. La carta que usted envió por su cuenta no se ve afectada.';
      return 'Nuestro equipo detuvo su carta antes de que saliera: se pidió en medio de una ola de solicitudes automáticas desde una misma conexión o dominio de correo. Si usted la escribió, llega a su escuela cuando la envía desde su propio correo electrónico.';
    default:
      return `No pudimos enviar su carta a ${message.to}.`;
  }
}
