/**
 * Part 3 of `npm run load`: "Send via our platform" under load. 500 parents' email forms for 200
 * distinct school addresses (a few schools asked far more than their daily cap, some parents
 * writing to more schools than theirs, some pairs twice), 500 send requests, then the 500
 * confirmations at once. Proves the caps (at most PLATFORM_SEND_SCHOOL_DAILY_LIMIT a day to one
 * school, PLATFORM_SEND_PARENT_DAILY_LIMIT from one parent, one per parent and school) and that
 * every email sent reached HubSpot exactly once, every other one was refused with its reason.
 */
const MESSAGES = Number(process.env.LOAD_PLATFORM_SENDS || 500);
const SCHOOLS = Number(process.env.LOAD_PLATFORM_SCHOOLS || 200);
const CONCURRENCY = Number(process.env.LOAD_CONCURRENCY || 50);
const SCHOOL_CAP = Number(process.env.PLATFORM_SEND_SCHOOL_DAILY_LIMIT || 5);
const PARENT_CAP = Number(process.env.PLATFORM_SEND_PARENT_DAILY_LIMIT || 3);

/** Who writes to whom: the first 20 schools are asked 8 times each, the rest share what is left. */
function plan(run) {
  return Array.from({ length: MESSAGES }, (_, n) => {
    const school = n < 160 ? n % 20 : 20 + ((n - 160) % (SCHOOLS - 20));
    // Parents 0-39 write four emails each (one over their cap); the others one or two.
    const parent = n < 160 ? Math.floor(n / 4) : 40 + Math.floor((n - 160) / 1.5);
    return { parent: `parent${parent}-${run}@example.org`, schoolEmail: `head@school${school}-${run}.edu`, schoolName: `School ${school}` };
  });
}

export async function runPlatformSendLoad(base, { pool, percentile, table, hubspot }) {
  const run = Date.now().toString(36);
  const sameSite = { origin: base, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' };
  const definitions = await (await fetch(`${base}/api/form-definitions.json`)).json().catch(() => null);
  const formId = definitions ? Object.entries(definitions).find(([, definition]) => definition.purpose === 'emailGenerator')?.[0] : undefined;
  if (!formId) throw new Error('the build has no email-generation form definition');

  // 1. The parents' forms: each accepted one gives a draft and its one-time token.
  const messages = plan(run);
  const drafts = [];
  const formLatencies = await pool(MESSAGES, CONCURRENCY, async (i) => {
    const m = messages[i];
    const response = await fetch(`${base}/api/forms/${formId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        full_name: `Parent ${i}`,
        email: m.parent,
        child_full_name: `Child ${i}`,
        child_grade: '5',
        school_name: m.schoolName,
        school_contact_name: 'Head of School',
        school_contact_email: m.schoolEmail,
        choose_how_to_send_your_email: 'I will send it myself',
        _page: '/lead-the-change',
      }),
    });
    const body = await response.json();
    if (response.status !== 201) throw new Error(`form ${i}: ${response.status} ${JSON.stringify(body)}`);
    drafts[i] = body.draft;
  });

  // 2. "Send via our platform" for every one: stored, awaiting the parent's confirmation.
  const requested = new Map();
  await pool(MESSAGES, CONCURRENCY, async (i) => {
    const response = await fetch(`${base}/api/send-email`, {
      method: 'POST',
      headers: sameSite,
      body: JSON.stringify({ submissionId: drafts[i].id, token: drafts[i].token }),
    });
    const body = await response.json();
    requested.set(i, { status: response.status, id: body.id, code: body.error?.code });
  });

  // 3. The confirmation links, as HubSpot's workflow would email them: each one set on the
  // parent's contact (a parent with several emails has had several), or, not handed to HubSpot,
  // listed on the admin page.
  const username = process.env.ADMIN_USERNAME || 'admin';
  const password = process.env.ADMIN_PASSWORD || 'bench-admin-password';
  const signIn = await fetch(`${base}/api/admin/session`, { method: 'POST', headers: sameSite, body: JSON.stringify({ username, password }) });
  const cookie = signIn.headers.get('set-cookie')?.split(';')[0];
  const outbox = async () => {
    const all = [];
    for (let cursor; ; ) {
      const page = await (await fetch(`${base}/api/admin/outbox?limit=100${cursor ? `&cursor=${cursor}` : ''}`, { headers: { cookie } })).json();
      all.push(...(page.messages ?? []).filter((message) => message.parentEmail.includes(run)));
      if (!page.nextCursor) return all;
      cursor = page.nextCursor;
    }
  };
  const links = (await hubspot.calls()).map((call) => call.method === 'PATCH' && call.body?.properties?.platform_send_confirmation_url).filter(Boolean);
  for (const message of await outbox()) if (message.confirmationLink) links.push(message.confirmationLink);
  const tokens = [...new Set(links.filter(Boolean).map((link) => new URL(link).searchParams.get('token')))];
  const awaiting = [...requested.values()].filter((r) => r.status === 202).length;

  // 4. Every confirmation at once.
  const outcomes = new Map();
  const started = performance.now();
  const confirmLatencies = await pool(tokens.length, CONCURRENCY, async (i) => {
    const response = await fetch(`${base}/confirm-send`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
      body: new URLSearchParams({ token: tokens[i] }).toString(),
    });
    const page = await response.text();
    const outcome = /Your email has been sent|Your email is confirmed/.test(page)
      ? 'sent'
      : /already|most emails/.test(page)
        ? 'limit'
        : `other ${response.status}`;
    outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
  });
  const seconds = (performance.now() - started) / 1000;

  // 5. What was sent, from the outbox, against what HubSpot received.
  const sent = (await outbox()).filter((message) => message.channel === 'platform' && message.status === 'sent');
  // HubSpot sends one email per sendId (the outbox id): each message must have exactly one, to its school.
  const emails = await hubspot.transactionalSends();
  const matched = sent.filter((m) => emails.filter((e) => e.message.sendId === m.id && e.message.to === m.to).length === 1).length;
  const count = (key) => sent.reduce((map, m) => map.set(m[key], (map.get(m[key]) ?? 0) + 1), new Map());
  const perSchool = count('to');
  const perParent = count('parentEmail');
  const pairs = new Set(sent.map((m) => `${m.parentEmail}|${m.to}`));

  table(
    ['step', 'count', 'detail'],
    [
      ['email forms accepted', drafts.filter(Boolean).length, `p50 ${percentile(formLatencies, 50).toFixed(0)} ms`],
      [
        'send requests',
        requested.size,
        [...[...requested.values()].reduce((map, r) => map.set(r.code ?? r.status, (map.get(r.code ?? r.status) ?? 0) + 1), new Map())]
          .map(([k, n]) => `${k}×${n}`)
          .join(' '),
      ],
      ['awaiting confirmation', awaiting, `${tokens.length} links`],
      [
        'confirmations',
        tokens.length,
        `${[...outcomes].map(([k, n]) => `${k}×${n}`).join(' ')}; p50 ${percentile(confirmLatencies, 50).toFixed(0)} ms, p99 ${percentile(confirmLatencies, 99).toFixed(0)} ms, ${(tokens.length / seconds).toFixed(1)}/s`,
      ],
      ['sent (outbox)', sent.length, `${perSchool.size} schools, ${perParent.size} parents`],
      ['most to one school', Math.max(0, ...perSchool.values()), `cap ${SCHOOL_CAP}`],
      ['most from one parent', Math.max(0, ...perParent.values()), `cap ${PARENT_CAP}`],
      ['HubSpot single-sends', emails.length, `${matched} matched to their message (sendId, school)`],
    ],
  );
  const exact =
    tokens.length === awaiting &&
    (outcomes.get('sent') ?? 0) === sent.length &&
    (outcomes.get('sent') ?? 0) + (outcomes.get('limit') ?? 0) === tokens.length &&
    Math.max(0, ...perSchool.values()) <= SCHOOL_CAP &&
    Math.max(0, ...perParent.values()) <= PARENT_CAP &&
    pairs.size === sent.length &&
    emails.length === sent.length &&
    matched === sent.length;
  console.log(
    exact
      ? `\nEvery cap held and every email sent reached HubSpot exactly once (${sent.length} sent, ${tokens.length - sent.length} refused by a limit).`
      : '\nMISMATCH: see the table above.',
  );
  return exact;
}
