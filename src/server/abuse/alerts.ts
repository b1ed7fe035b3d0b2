/**
 * The owners' alert: when a network, an email domain or a school runs past its usual rate
 * (`isTrending` in watch.ts: TRENDING_FACTOR times its usual hourly rate with at least
 * TRENDING_MIN_REQUESTS requests in the hour), each owner gets one email, at most once per key per
 * clock hour. The email's id is made of the key, the hour and the owner, so that a run that dies
 * and runs again, or two runs at once, write it once (the mail layer keeps one email per id).
 */
import { createHash } from 'node:crypto';
import { sitePage } from '../links';
import { emailAbuseAlert } from '../mail/notify';
import { ownerAddresses } from '../staff/members';
import { watchRows, type WatchDimension, type WatchRow } from './watch';

/** The dimensions an alert watches (a form is never one sender). */
const alerted: WatchDimension[] = ['network', 'email_domain', 'school'];

const described: Record<WatchDimension, string> = {
  network: 'The network',
  email_domain: 'The email domain',
  school: 'The school',
  form: 'The form',
};

/** The id of one owner's alert about one key in one clock hour. */
export function alertId(row: Pick<WatchRow, 'dimension' | 'key'>, owner: string, now: Date): string {
  const hour = new Date(Math.floor(now.getTime() / 3600_000) * 3600_000).toISOString();
  const digest = createHash('sha256').update(`${row.dimension}|${row.key}|${hour}|${owner.trim().toLowerCase()}`).digest('hex').slice(0, 32);
  return `abuse-alert.${digest}`;
}

/** Writes the alerts the watch calls for now; returns how many keys trend and how many emails were new. */
export async function alertOwners(now = new Date()): Promise<{ trending: number; alerts: number }> {
  const trending = (await Promise.all(alerted.map((dimension) => watchRows(dimension, now)))).flat().filter((row) => row.trending);
  if (!trending.length) return { trending: 0, alerts: 0 };
  const owners = await ownerAddresses();
  let alerts = 0;
  for (const row of trending) {
    for (const owner of owners) {
      const written = await emailAbuseAlert(
        {
          to: owner,
          id: alertId(row, owner, now),
          what: `${described[row.dimension]} ${row.key}`,
          count: row.hour,
          usualPerHour: row.usualPerHour,
          ratio: row.ratio,
          link: sitePage('/webhook-config'),
        },
        now,
      );
      if (written.state !== 'exists') alerts++;
    }
  }
  return { trending: trending.length, alerts };
}
