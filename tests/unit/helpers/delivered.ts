/**
 * A letter the platform delivered after its parent confirmed it, made as the real path makes it: a
 * draft from the form's values, the confirmed message, and the mail layer's report that it went
 * (`letterSent`), so that it counts, publishes its school's page and has its follow-up. The form and
 * the mail are the subjects of other tests; these tests need the letter that counts.
 */
import { createDraft } from '../../../src/server/email-drafts';
import { letterSent } from '../../../src/server/letter-delivery';
import { createMessage, newMessageId, type OutboxMessage } from '../../../src/server/outbox';
import type { Attribution } from '../../../src/server/school-pages';

let seq = 0;

export async function deliveredLetter(email: string, school: string, options: { schoolName?: string; attribution?: Attribution; delivered?: boolean } = {}): Promise<OutboxMessage> {
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
  };
  await createMessage(message);
  if (options.delivered === false) return message;
  return (await letterSent(message.id, now))!;
}
