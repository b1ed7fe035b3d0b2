/**
 * Part 2 of `npm run load`: 500 signed Calendly deliveries, a quarter of them re-sends of an
 * earlier event (as Calendly retries), against the receiver (CALENDLY_RATE_LIMIT lifted: they all
 * come from one address). Exactly one log per distinct event.
 */
import { createHmac, randomUUID } from 'node:crypto';

const DELIVERIES = Number(process.env.LOAD_CALENDLY || 500);
const CONCURRENCY = Number(process.env.LOAD_CONCURRENCY || 50);

export async function runCalendlyLoad(base, { storedRecords, pool, percentile, table }) {
  const username = process.env.ADMIN_USERNAME || 'admin';
  const password = process.env.ADMIN_PASSWORD || 'bench-admin-password';
  const sameSite = { origin: base, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' };
  const signIn = await fetch(`${base}/api/admin/session`, { method: 'POST', headers: sameSite, body: JSON.stringify({ username, password }) });
  if (!signIn.ok) throw new Error(`admin sign-in failed: ${signIn.status} ${await signIn.text()}`);
  const cookie = signIn.headers.get('set-cookie').split(';')[0];
  const signingKey = `load-${randomUUID()}`;
  const created = await fetch(`${base}/api/calendly-webhooks`, {
    method: 'POST',
    headers: { ...sameSite, cookie },
    body: JSON.stringify({
      name: 'Load test',
      calendlyWebhookUrl: `${base}/api/calendly/webhook`,
      events: ['invitee_no_show.created'],
      scope: 'organization',
      organization: 'https://api.calendly.com/organizations/LOAD',
      signingKey,
      isActive: true,
    }),
  });
  if (!created.ok) throw new Error(`creating the webhook failed: ${created.status} ${await created.text()}`);

  const distinct = Math.round(DELIVERIES * 0.75);
  const events = Array.from({ length: distinct }, (_, i) => ({
    event: 'invitee_no_show.created',
    created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    payload: { uri: `https://api.calendly.com/invitee_no_shows/load-${i}`, email: `invitee${i}@example.org` },
  }));
  const statuses = new Map();
  const latencies = await pool(DELIVERIES, CONCURRENCY, async (i) => {
    // Every fourth delivery re-sends an earlier event, signed afresh as Calendly's retries are.
    const body = JSON.stringify(i < distinct ? events[i] : events[(i * 7) % distinct]);
    const t = Math.floor(Date.now() / 1000);
    const v1 = createHmac('sha256', signingKey).update(`${t}.${body}`).digest('hex');
    const response = await fetch(`${base}/api/calendly/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'calendly-webhook-signature': `t=${t},v1=${v1}` },
      body,
    }).catch(() => undefined);
    statuses.set(response?.status ?? 0, (statuses.get(response?.status ?? 0) ?? 0) + 1);
    await response?.arrayBuffer();
  });
  const logs = (await storedRecords('webhook_logs')).filter((record) => record && typeof record === 'object' && record.eventType === 'invitee_no_show.created');
  table(
    ['test', 'deliveries', 'distinct events', 'answers', 'logs', 'p50', 'p99'],
    [
      [
        'POST /api/calendly/webhook',
        DELIVERIES,
        distinct,
        [...statuses].map(([s, n]) => `${s}×${n}`).join(' '),
        logs.length,
        `${percentile(latencies, 50).toFixed(1)} ms`,
        `${percentile(latencies, 99).toFixed(1)} ms`,
      ],
    ],
  );
  const exact = logs.length === distinct;
  console.log(exact ? `\nExactly one log per distinct event (${distinct}).` : `\nMISMATCH: ${logs.length} logs for ${distinct} distinct events.`);
  if (!exact) process.exitCode = 1;
}
