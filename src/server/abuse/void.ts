/**
 * Voiding what a burst left behind: the letters a network, an email domain or a school asked for
 * in a time window that did not go out (waiting for their parent's confirmation, or confirmed and
 * waiting for the school's hours), and the self-reports, which then no longer count. Each letter
 * moves through its life (`voidLetter` in src/server/letter/life.ts) and its parent is told as at
 * every dead end; the public figures are recounted without them (src/server/schools/impact.ts).
 * Voiding a network also deletes the page views, form starts, shares and experiment exposures it
 * counted while they can still be told apart (src/server/analytics/void.ts).
 * A letter the platform already sent is left alone: it reached the school.
 */
import type { VoidSelection } from '../../lib/shared/schemas/abuse-watch';
import { countNetworkEvents, voidNetworkEvents } from '../analytics/void';
import { query, sql } from '../db';
import { voidLetter } from '../letter/life';
import { tellParent } from '../letter/notices';
import { uncountLetters } from '../schools/impact';
import { rejectPendingFor } from '../staff/review-items';
import { dimensionColumn } from './watch';

type Selection = Pick<VoidSelection, 'dimension' | 'key' | 'from' | 'to'>;

/** The letters a selection may void, oldest first, with their channel. */
export async function voidableLetters(selection: Selection): Promise<{ id: string; channel: 'platform' | 'self' }[]> {
  const column = dimensionColumn(selection.dimension);
  const key = selection.key.trim().toLowerCase();
  return query<{ id: string; channel: 'platform' | 'self' }>(sql`
    SELECT DISTINCT o.id, o.channel FROM abuse_requests r JOIN outbox_messages o ON o.id = r.subject
    WHERE r.kind IN ('send', 'self_report') AND r.${column} = ${key}
      AND r.created_at >= ${new Date(selection.from)} AND r.created_at < ${new Date(selection.to)}
      AND o.erased_at IS NULL
      AND (o.status IN ('awaiting_confirmation', 'queued') OR (o.channel = 'self' AND o.status = 'sent'))
    ORDER BY o.id LIMIT 5000`);
}

/** A network's counted events and exposures in the window (analytics/void.ts); none for the other dimensions. */
const networkEvents = (selection: Selection, remove: boolean) =>
  selection.dimension === 'network'
    ? (remove ? voidNetworkEvents : countNetworkEvents)(selection.key.trim().toLowerCase(), new Date(selection.from), new Date(selection.to))
    : Promise.resolve({ events: 0, exposures: 0 });

/** What voiding would take: letters not sent yet, self-reports, and a network's counted events. */
export async function previewVoid(selection: Selection): Promise<{ letters: number; selfReports: number; events: number }> {
  const [found, counted] = await Promise.all([voidableLetters(selection), networkEvents(selection, false)]);
  return {
    letters: found.filter((one) => one.channel === 'platform').length,
    selfReports: found.filter((one) => one.channel === 'self').length,
    events: counted.events + counted.exposures,
  };
}

/**
 * Voids the selection: every letter moved (each told to its parent where a dead end is), their
 * claims in the review queue rejected, and the ones that counted taken out of the figures.
 */
export async function voidSet(
  selection: Selection,
  by: string,
  now = new Date(),
): Promise<{ letters: number; selfReports: number; uncounted: number; events: number }> {
  const voided: { id: string; channel: 'platform' | 'self' }[] = [];
  for (const candidate of await voidableLetters(selection)) {
    const moved = await voidLetter(candidate.id, now);
    if (!moved) continue;
    voided.push({ id: moved.id, channel: moved.channel });
    await tellParent(moved, now);
  }
  const ids = voided.map((one) => one.id);
  await rejectPendingFor(ids, `${by} (voided)`, now);
  const uncounted = await uncountLetters(ids);
  const counted = await networkEvents(selection, true);
  return {
    letters: voided.filter((one) => one.channel === 'platform').length,
    selfReports: voided.filter((one) => one.channel === 'self').length,
    uncounted,
    events: counted.events + counted.exposures,
  };
}
