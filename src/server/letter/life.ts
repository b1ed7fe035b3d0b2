/**
 * The life of a letter, in one place: every state a school letter passes through and every move
 * between them. This is the only module that changes a letter's status (`moveMessage` and the
 * statements of src/server/letter/outbox.ts that set it are called from here alone; a unit test holds the
 * rest of the code to it). What each move sets off — counting a letter, telling its parent — is
 * src/server/letter/delivery.ts and notices.ts; the request and confirmation pages are request.ts.
 *
 * | state                  | means                                                          | its parent reads (their page, an email)              |
 * | ---------------------- | -------------------------------------------------------------- | ---------------------------------------------------- |
 * | awaiting_confirmation  | asked for; nothing goes until the parent confirms from inbox   | "Waiting for you to confirm it from your inbox"      |
 * | queued                 | confirmed, its limits taken; waits for the school's hours      | "Goes to the school at 8:00 on Monday"               |
 * | sent                   | the mail provider took it (or the parent sent it themselves)   | "Sent"                                               |
 * | delivered              | the provider reported it arrived                               | "Delivered to the school"                            |
 * | bounced                | the school's mailbox does not exist                            | "Did not arrive" + a link to correct the address     |
 * | failed                 | refused for another reason, tries used up, or a limit          | "Not sent: why" + the letter to send themselves      |
 * | withdrawn              | stopped before it went (the school asked for no more mail…)    | "Not sent: why" + the letter to send themselves      |
 * | expired                | not confirmed in time; or confirmed but could not go in time   | "Not sent: why" (a confirmed one) + the letter       |
 * | replaced               | a newer request of the same parent to the school was confirmed | "Replaced by the letter you confirmed"                |
 * | voided                 | staff voided it with a burst of requests (src/server/abuse)    | "Not sent: why" + the letter to send themselves      |
 *
 * A letter the platform sends follows its email in the mail layer (src/server/mail): `follow` is the
 * one rule from an email's state to its letter's, used when a send is recorded, when a provider
 * reports, and by every run, which settles what a run that died left. Moves are compare-and-swap
 * on the letter's version: two runs never both make one.
 */
import { serverEnv } from '../env';
import { withdrawEmailsAbout } from '../mail/queue';
import type { EmailState } from '../mail/states';
import { query, sql } from '../db';
import { expireUnconfirmed, messageMoves, moveMessage, newFollowUp, readMessage, replaceWaitingRequests, type OutboxMessage } from './outbox';
import type { MessageStatus } from '../../lib/shared/schemas/admin';
import type { LimitRefusal } from './send-limits';

export type LetterState = MessageStatus;
export { messageMoves as letterMoves };

/** The states a letter ends in without reaching the school: each reaches its parent (an email and their page). */
export const deadEnds = ['bounced', 'failed', 'withdrawn', 'expired', 'voided'] as const satisfies readonly LetterState[];
export type DeadEnd = (typeof deadEnds)[number];
export const isDeadEnd = (state: LetterState): state is DeadEnd => (deadEnds as readonly string[]).includes(state);

/** Why a letter ended where it did, as kept on it (`lastError`), for its page and its notice. */
export type EndReason =
  | 'not_confirmed_in_time'
  | 'address_blocked'
  | 'school_complained'
  | 'refused'
  | 'tries_used_up'
  | 'too_long_waiting'
  | 'data_deleted'
  | 'request_failed'
  | 'staff'
  | 'voided'
  | LimitRefusal;

/** A confirmed letter still waiting for its school after this long has expired: its parent is told. */
export const LETTER_MAX_WAIT_MS = 14 * 24 * 3600_000;

const iso = (at: Date) => at.toISOString();

/** A move only when the letter's status allows it (the table above); `change` fills in the rest. */
function move(id: string, to: LetterState, change: (message: OutboxMessage) => Partial<OutboxMessage> | undefined) {
  return moveMessage(id, (current) => {
    if (current.status === to || !messageMoves[current.status].includes(to)) return undefined;
    const patch = change(current);
    return patch ? { ...current, ...patch, status: to } : undefined;
  });
}

// Requests -------------------------------------------------------------------------------------

/**
 * The parent confirmed from their inbox and the limits are taken: the letter waits for its school's
 * hours (`delivery`), on the record it was written to. Undefined when it had moved on meanwhile.
 */
export function confirm(
  id: string,
  patch: { delivery: NonNullable<OutboxMessage['delivery']>; schoolId?: string },
  now: Date,
): Promise<OutboxMessage | undefined> {
  return move(id, 'queued', (current) =>
    current.status === 'awaiting_confirmation' || current.status === 'failed'
      ? {
          delivery: patch.delivery,
          ...(patch.schoolId ? { schoolId: patch.schoolId } : {}),
          confirmation: { ...current.confirmation!, confirmedAt: current.confirmation?.confirmedAt ?? iso(now) },
          nextAttemptAt: patch.delivery.at,
          lastError: undefined,
          updatedAt: iso(now),
        }
      : undefined,
  );
}

/** A limit refused the letter at its confirmation: nothing goes, and its page says why. */
export function refuse(id: string, refusal: LimitRefusal | 'address_blocked', earlier: { earlierAt?: string }, now: Date): Promise<OutboxMessage | undefined> {
  return move(id, 'failed', (current) =>
    current.status === 'awaiting_confirmation'
      ? {
          lastError: refusal,
          confirmation: { ...current.confirmation!, refusal: refusal === 'address_blocked' ? 'address_blocked' : refusal, ...earlier },
          updatedAt: iso(now),
        }
      : undefined,
  );
}

/**
 * A newer request of the same parent to the same school was confirmed: the older ones still waiting
 * are replaced (their links then send nothing). Only a confirmation from the inbox replaces: a
 * stranger's request naming a parent never touches the parent's own. Returns their ids.
 */
export function replaceOlder(confirmed: Pick<OutboxMessage, 'id' | 'parentEmail' | 'to'>, now: Date): Promise<string[]> {
  return replaceWaitingRequests(confirmed.parentEmail, confirmed.to, confirmed.id, now);
}

/** Requests whose confirmation link expired end (their page says so; nobody is emailed: they never confirmed). */
export function expireRequests(now: Date): Promise<string[]> {
  return expireUnconfirmed(now);
}

/** One request whose link was opened after it expired ends now. */
export function expireRequest(id: string, now: Date): Promise<OutboxMessage | undefined> {
  return move(id, 'expired', (current) =>
    current.status === 'awaiting_confirmation' ? { lastError: 'not_confirmed_in_time', updatedAt: iso(now) } : undefined,
  );
}

/**
 * The parent confirmed from their inbox that they sent the letter themselves: it is a self-report
 * now (it counts only once staff approve it), and its follow-up is due in some days.
 */
export function confirmSelfReport(id: string, now: Date): Promise<OutboxMessage | undefined> {
  return move(id, 'sent', (current) =>
    current.channel === 'self' && current.status === 'awaiting_confirmation'
      ? {
          sentAt: iso(now),
          followUp: newFollowUp(now),
          review: 'pending',
          confirmation: { ...current.confirmation!, confirmedAt: iso(now) },
          updatedAt: iso(now),
        }
      : undefined,
  );
}

// Delivery -------------------------------------------------------------------------------------

/**
 * The one rule from an email's state to its letter's: the letter (or each letter of a digest)
 * follows what became of the email that carried it. Returns the letter as moved, or undefined when
 * it had moved there already (or cannot: a late report after a bounce).
 */
export function follow(id: string, email: { state: EmailState; lastError?: string | null }, at: Date, detail = ''): Promise<OutboxMessage | undefined> {
  const delivery = (current: OutboxMessage, state: NonNullable<OutboxMessage['delivery']>['state']) => ({
    ...(current.delivery ?? { at: iso(at), timeZone: serverEnv.schoolTimeZone }),
    state,
    ...(detail ? { detail } : {}),
  });
  switch (email.state) {
    case 'sent':
    case 'complained':
      // A complaint after it went: the letter still arrived; the address gets no more.
      return move(id, 'sent', (current) =>
        current.channel === 'platform'
          ? {
              sentAt: current.sentAt ?? iso(at),
              followUp: current.followUp ?? newFollowUp(at),
              delivery: delivery(current, 'sent'),
              lastError: undefined,
              updatedAt: iso(at),
            }
          : undefined,
      );
    case 'delivered':
      return move(id, 'delivered', (current) =>
        current.channel === 'platform'
          ? {
              sentAt: current.sentAt ?? iso(at),
              followUp: current.followUp ?? newFollowUp(at),
              delivery: delivery(current, 'sent'),
              lastError: undefined,
              updatedAt: iso(at),
            }
          : undefined,
      );
    case 'bounced':
      return move(id, 'bounced', (current) => ({
        delivery: delivery(current, 'bounced'),
        lastError: 'bounced',
        bounce: current.bounce ?? { at: iso(at), told: 'pending' },
        updatedAt: iso(at),
      }));
    case 'suppressed':
      // Its address was blocked before it went: a mailbox that does not exist, or a school that asked for no more mail.
      return email.lastError === 'suppressed:complained'
        ? move(id, 'withdrawn', (current) => ({ delivery: delivery(current, 'failed'), lastError: 'school_complained', updatedAt: iso(at) }))
        : move(id, 'bounced', (current) => ({
            delivery: delivery(current, 'bounced'),
            lastError: 'address_blocked',
            bounce: current.bounce ?? { at: iso(at), told: 'pending' },
            updatedAt: iso(at),
          }));
    case 'failed':
      // Refused for good (a policy, a spam filter), or given up after its tries: that letter only.
      return move(id, 'failed', (current) =>
        current.status === 'queued' || current.status === 'sent'
          ? {
              delivery: delivery(current, 'failed'),
              lastError: /refused|rejected|5\.7\.|denied|spam|block/i.test(detail) ? 'refused' : 'tries_used_up',
              updatedAt: iso(at),
            }
          : undefined,
      );
    case 'withdrawn':
      return move(id, 'withdrawn', (current) => ({
        delivery: delivery(current, 'failed'),
        lastError: email.lastError === 'suppressed:complained' ? 'school_complained' : (current.lastError ?? 'staff'),
        updatedAt: iso(at),
      }));
    default:
      return Promise.resolve(undefined);
  }
}

/**
 * Confirmed letters still waiting for their school after LETTER_MAX_WAIT_MS (a school whose
 * mailbox deferred them for weeks, a backlog that never cleared) expire: their email is withdrawn
 * first, so it cannot go after its parent was told it did not. Returns the letters moved.
 */
export async function expireLetters(now: Date): Promise<OutboxMessage[]> {
  const rows = await query<{ id: string }>(sql`
    SELECT o.id FROM outbox_messages o JOIN emails e ON e.id = o.id
    WHERE o.status = 'queued' AND o.erased_at IS NULL AND e.state = 'scheduled'
      AND (o.record->'confirmation'->>'confirmedAt')::timestamptz < ${new Date(now.getTime() - LETTER_MAX_WAIT_MS)}
    ORDER BY o.id LIMIT 100`);
  const moved: OutboxMessage[] = [];
  for (const { id } of rows) {
    if ((await withdrawEmailsAbout(id, ['school_letter'], now)) === 0) continue;
    const expired = await move(id, 'expired', () => ({ lastError: 'too_long_waiting', updatedAt: iso(now) }));
    if (expired) moved.push(expired);
  }
  return moved;
}

/** A letter stopped before it went (staff, a deletion): its email is withdrawn first. */
export async function withdraw(id: string, reason: EndReason, now: Date): Promise<OutboxMessage | undefined> {
  await withdrawEmailsAbout(id, ['school_letter'], now);
  return move(id, 'withdrawn', (current) =>
    current.status === 'queued' || current.status === 'awaiting_confirmation' ? { lastError: reason, updatedAt: iso(now) } : undefined,
  );
}

/**
 * Staff void a letter a burst left behind (src/server/abuse/void.ts): one not sent yet (its email
 * withdrawn first, so it cannot go after it was voided), or a self-report, which then no longer
 * counts. A letter that went out from the platform stays what it is: it reached the school.
 */
export async function voidLetter(id: string, now: Date): Promise<OutboxMessage | undefined> {
  const current = await letter(id);
  if (!current) return undefined;
  // A confirmed letter whose email could not be withdrawn is on its way (a run holds it): it stays.
  if (current.channel === 'platform' && current.status === 'queued' && (await withdrawEmailsAbout(id, ['school_letter'], now)) === 0) return undefined;
  return move(id, 'voided', (current) =>
    current.status === 'queued' || current.status === 'awaiting_confirmation' || (current.channel === 'self' && current.status === 'sent')
      ? { lastError: 'voided', updatedAt: iso(now) }
      : undefined,
  );
}

/** Staff send a failed letter again: it waits for its school's hours once more. */
export function retry(id: string, delivery: NonNullable<OutboxMessage['delivery']>, now: Date): Promise<OutboxMessage | undefined> {
  return move(id, 'queued', (current) =>
    current.status === 'failed'
      ? { lastError: undefined, delivery: { ...delivery, state: 'scheduled' }, nextAttemptAt: delivery.at, updatedAt: iso(now) }
      : undefined,
  );
}

/** A letter as it stands now. */
export async function letter(id: string): Promise<OutboxMessage | undefined> {
  return (await readMessage(id))?.message;
}
