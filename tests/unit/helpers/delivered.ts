/**
 * A letter the platform delivered after its parent confirmed it, made as the real path makes it: a
 * draft from the form's values, the confirmed message to a school staff verified (unless
 * `verified: false`: a school the site does not know), and the mail layer's word that it went
 * (life.ts's `follow`, then what a move sets off), so that it counts on its school's page and has
 * its follow-up. The form and the mail are the subjects of other tests; these need the letter.
 */
import { createDraft } from '../../../src/server/letter/drafts';
import { afterMove } from '../../../src/server/letter/delivery';
import { follow } from '../../../src/server/letter/life';
import { createMessage, newMessageId, type OutboxMessage } from '../../../src/server/letter/outbox';
import type { Locale } from '../../../src/config/locales';
import type { Attribution } from '../../../src/server/schools/pages';
import { verifiedSchool } from './schools';

let seq = 0;

export async function deliveredLetter(
  email: string,
  school: string,
  options: { schoolName?: string; attribution?: Attribution; delivered?: boolean; verified?: boolean; locale?: Locale; letterLocale?: Locale } = {},
): Promise<OutboxMessage> {
  const record = options.verified === false ? undefined : await verifiedSchool(school, options.schoolName ?? 'Oakwood Academy');
  const id = `sub-delivered-${Date.now()}-${++seq}`;
  const values = {
    full_name: 'Ana Lopez',
    email,
    child_full_name: 'Leo Lopez',
    child_grade: '5th grade',
    school_name: options.schoolName ?? 'Oakwood Academy',
    school_contact_name: 'Dr. Patel',
    school_contact_email: school,
    choose_how_to_send_your_email: 'Send via our platform',
  };
  const made = await createDraft({ id, purpose: 'emailGenerator', values, attribution: options.attribution });
  const now = new Date();
  const message: OutboxMessage = {
    id: newMessageId(now),
    draftId: id,
    channel: 'platform',
    status: 'queued',
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    parentEmail: email.toLowerCase(),
    parentName: 'Ana Lopez',
    schoolName: values.school_name,
    ...(record ? { schoolId: record.id } : {}),
    to: school,
    toName: 'Dr. Patel',
    subject: made.email.subject,
    body: made.email.body,
    note: '',
    letterId: made.draft.letter.id,
    attempts: 0,
    nextAttemptAt: now.toISOString(),
    confirmation: { expiresAt: now.toISOString(), confirmedAt: now.toISOString() },
    delivery: { at: now.toISOString(), timeZone: 'UTC', state: 'scheduled' },
    ...(made.draft.attribution ? { attribution: made.draft.attribution } : {}),
    // The language the parent wrote in (their emails and the pages their links open); English when not given.
    ...(options.locale ? { locale: options.locale } : {}),
    // The letter's own language (a Spanish page lets the parent choose); English when not given.
    ...(options.letterLocale ? { letterLocale: options.letterLocale } : {}),
  };
  await createMessage(message);
  if (options.delivered === false) return message;
  const sent = (await follow(message.id, { state: 'sent' }, now))!;
  await afterMove(sent, now);
  return sent;
}

/**
 * A self-report its parent confirmed from their inbox, as the link in the "Did you send your
 * letter?" email confirms it (the token that email carries, POSTed to /confirm-send's logic).
 */
export async function confirmedSelfReport(id: string): Promise<OutboxMessage> {
  const { readMessage } = await import('../../../src/server/letter/outbox');
  const { confirmationLink } = await import('../../../src/server/links');
  const { confirmPlatformSend } = await import('../../../src/server/letter/request');
  const found = await readMessage(id);
  if (!found) throw new Error(`no self-report ${id}`);
  const token = new URL(confirmationLink(found.message)!).searchParams.get('token')!;
  const outcome = await confirmPlatformSend(token);
  if (outcome.kind !== 'self_done') throw new Error(`self-report ${id} not confirmed: ${outcome.kind}`);
  return outcome.message;
}
