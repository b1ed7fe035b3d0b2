/**
 * School pages (/schools/{name}-{key}): keys that cannot be listed or guessed (an HMAC of the
 * canonical contact address under a server secret), the milestones of the goal bar, the page and its
 * live figures (delivered letters only, never a name or address; a page waiting for its first letter
 * shows neither name nor count), the email form that names its school by the key, and the
 * attribution a share link's referral code gives the next parent's draft.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import confirmSend from '../../netlify/functions/confirm-send.mts';
import emailSentMyself from '../../netlify/functions/email-sent-myself.mts';
import sendEmail from '../../netlify/functions/send-email.mts';
import yourEmail from '../../netlify/functions/your-email.mts';
import forms from '../../netlify/functions/forms.mts';
import schoolPage from '../../netlify/functions/school-page.mts';
import { forms as formConfig } from '../../src/config/forms';
import { MILESTONES, nextMilestone, schoolProgress } from '../../src/lib/shared/school-page-words';
import { createDraft, readDraft } from '../../src/server/letter/drafts';
import { recordAnswer } from '../../src/server/schools/impact';
import { confirmationLink } from '../../src/server/links';
import { readMessage } from '../../src/server/letter/outbox';
import { attributionOf, readSchoolPage, referralCode, shareLink, slugOf } from '../../src/server/schools/pages';
import { editSchool, proposeSchool, retireSchool, verifySchool } from '../../src/server/schools/records';
import { countSchoolLetters } from '../../src/server/schools/publication';
import { query, sql } from '../../src/server/db';
import { confirmedSelfReport } from './helpers/delivered';
import { verifiedSchool } from './helpers/schools';
import { shareOf } from '../../src/server/letter/request';
import { addAmbassador } from '../../src/server/ambassadors';
import { startTestDatabase, type TestDatabase } from './helpers/database';
import { emailFormValues, useFormDefinitions } from './helpers/forms';
import { call, jsonRequest } from './helpers/requests';
import { useSiteShell } from './helpers/site';
import { deliveredLetter } from './helpers/delivered';
import { MAIL_FROM, useMail, type MailCatcher } from './helpers/mail';

let database: TestDatabase;
let mail: MailCatcher;
let shell: ReturnType<typeof useSiteShell>;
let definitions: Awaited<ReturnType<typeof useFormDefinitions>>;
let seq = 0;
const SECRET = Buffer.alloc(32, 7).toString('base64');

beforeAll(async () => {
  database = await startTestDatabase();
  mail = await useMail();
  shell = useSiteShell();
  definitions = await useFormDefinitions();
  process.env.CONFIG_ENCRYPTION_KEY = SECRET;
  process.env.SITE_URL = 'https://site.example';
  process.env.FORMS_MIN_FILL_MS = '0';
});
afterAll(async () => {
  await database.stop();
  await mail.close();
  shell.remove();
  definitions.remove();
  for (const name of ['CONFIG_ENCRYPTION_KEY', 'SCHOOL_PAGE_SECRET', 'SITE_URL', 'FORMS_MIN_FILL_MS']) delete process.env[name];
});
beforeEach(async () => {
  await database.truncate();
  process.env.MAIL_FROM_ADDRESS = MAIL_FROM;
  process.env.CONFIG_ENCRYPTION_KEY = SECRET;
  delete process.env.SCHOOL_PAGE_SECRET;
});

async function open(path: string) {
  const response = await schoolPage(new Request(`http://localhost${path}`));
  return { status: response.status, headers: response.headers, html: await response.text() };
}

/** The email form posted as the enhanced form posts it (JSON). */
async function postEmailForm(values: Record<string, string>) {
  const request = new Request(`http://localhost/api/forms/${formConfig.emailGenerator.formId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(values),
  });
  const response = await forms(request, { ip: `198.51.100.${++seq % 250}` } as never);
  return { status: response.status, body: await response.json() };
}

/** A letter the platform delivered to `to`, and its parent's share link (with the page's readable name). */
async function delivered(to: string, schoolName = 'Springfield Academy', attribution?: Parameters<typeof createDraft>[0]['attribution']) {
  const message = await deliveredLetter(`parent${++seq}@example.org`, to, { schoolName, attribution });
  return { id: message.id, message, share: (await shareOf(message))! };
}

/** A parent who says they sent their email to `to` themselves, as the dialog records it, confirmed from their inbox. */
async function selfSent(to: string, schoolName = 'Springfield Academy', attribution?: Parameters<typeof createDraft>[0]['attribution']) {
  const id = `sub-${Date.now()}-${++seq}`;
  const { token } = await createDraft({
    id,
    purpose: 'emailGenerator',
    values: emailFormValues({ school_name: schoolName, school_contact_email: to }),
    attribution,
  });
  const answer = await call(emailSentMyself, jsonRequest('/api/email-sent-myself', { submissionId: id, token }));
  expect(answer.status).toBe(202);
  // Nothing about any page in the answer before the parent confirms from their inbox.
  expect(answer.body.share).toBeUndefined();
  return { ...answer.body, message: await confirmedSelfReport(answer.body.id) };
}

describe('school page keys', () => {
  test('are a verified school’s own: random, 32 hex digits, one page for every address its record lists', async () => {
    const school = await verifiedSchool('head@springfield.edu', 'Springfield Academy');
    expect(school.pageKey).toMatch(/^[0-9a-f]{32}$/);
    const other = await verifiedSchool('head@elmwood.edu', 'Elmwood Academy');
    expect(other.pageKey).not.toBe(school.pageKey);
    // Two leaders of one school: their letters count on one page.
    const edited = await editSchool(school.id, {
      name: school.name,
      leaders: [...school.leaders, { name: 'Office', role: '', address: 'office@springfield.edu' }],
      emailDomains: [],
      timeZone: 'UTC',
      hours: school.hours,
      holidays: [],
    });
    expect(edited.pageKey).toBe(school.pageKey);
    await delivered('head@springfield.edu');
    await delivered('office@springfield.edu');
    expect((await readSchoolPage(school.pageKey))!.parents).toBe(2);
  });

  test('a school the site does not know has no page, whatever its letters; its proposal’s key opens nothing', async () => {
    const letter = await deliveredLetter('parent@example.org', 'head@unknown-academy.edu', { schoolName: 'Unknown Academy', verified: false });
    expect(letter.status).toBe('sent');
    expect(await shareOf(letter)).toBeUndefined();
    const proposal = await proposeSchool({ kind: 'letter', address: 'head@unknown-academy.edu', name: 'Unknown Academy', timeZone: 'UTC' });
    expect((await open(`/schools/${proposal.pageKey}`)).status).toBe(404);
    expect(await query(sql`SELECT 1 FROM impact_sends`)).toEqual([]);
  });
});

describe('milestones', () => {
  test.each([
    [0, 5],
    [4, 5],
    [5, 10],
    [9, 10],
    [10, 25],
    [24, 25],
    [25, 50],
    [50, 100],
    [99, 100],
    [100, 200],
    [250, 300],
  ])('%i parents aim for %i', (count, goal) => {
    expect(nextMilestone(count)).toBe(goal);
  });

  test('the bar and its words', () => {
    expect(MILESTONES).toEqual([5, 10, 25, 50, 100]);
    expect(schoolProgress(1)).toMatchObject({ percent: 20, countText: '1 parent has written', goalText: '4 more to reach 5' });
    expect(schoolProgress(6)).toMatchObject({ goal: 10, percent: 60, countText: '6 parents have written', goalText: '4 more to reach 10' });
  });
});

describe('the page', () => {
  test('shows its record’s name, the count of delivered letters, the goal and the latest outcome staff accepted; never an address or a typed name', async () => {
    const school = await verifiedSchool('head@springfield.edu', 'Springfield Academy');
    const first = await delivered('Head@Springfield.edu', 'Springfield Academy');
    const second = await delivered('head@springfield.edu', 'Springfield Academy CANCELLED');
    await selfSent('head@springfield.edu', 'Springfield closed, do not write'); // a claim nobody checked: never counted, never shown
    await recordAnswer({ id: second.message.id, school: 'springfield.edu', kind: 'meeting', at: new Date().toISOString() });
    const key = school.pageKey;
    const page = await open(`/schools/springfield-academy-${key}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('x-robots-tag')).toBe('noindex');
    expect(page.headers.get('netlify-cdn-cache-control')).toMatch(/max-age=60/);
    expect(page.html).toContain('<h1 id="school-title"');
    expect(page.html).toContain('Springfield Academy');
    expect(page.html).not.toMatch(/CANCELLED|closed, do not write/);
    expect(page.html).toContain('2 parents have written');
    expect(page.html).toContain('3 more to reach 5');
    expect(page.html).toContain('Springfield Academy agreed to meet');
    expect(page.html).not.toMatch(/springfield\.edu|Ana Lopez|example\.org/i);
    // The form: the school's name filled in, its contact named by the key, no address field.
    expect(page.html).not.toContain('data-build-form');
    expect(page.html).toContain(`name="_school" value="${key}"`);
    expect(page.html).not.toContain('name="school_contact_email"');
    expect(page.html).toMatch(/name="school_name"[^>]*value="Springfield Academy"/);
    expect(page.html).not.toContain('data-school-search');
    // The key alone finds it too, and the readable name is the record's.
    expect((await open(`/schools/${key}`)).status).toBe(200);
    expect(new URL(first.share.url).pathname).toBe(`/schools/springfield-academy-${key}`);

    const api = await call(schoolPage, new Request(`http://localhost/api/schools/${key}`));
    expect(api).toMatchObject({
      status: 200,
      body: { published: true, parents: 2, goal: 5, outcome: 'meeting', outcomeText: 'Springfield Academy agreed to meet' },
    });
  });

  test('verifying a proposed school opens its page with the letters it already has; retiring it closes the page', async () => {
    const letters = [];
    for (let n = 0; n < 3; n++)
      letters.push(
        await deliveredLetter(`proposal-parent${n}@example.org`, 'head@lincoln-high.example', { schoolName: 'Lincoln High School', verified: false }),
      );
    const proposal = await proposeSchool({ kind: 'letter', address: 'head@lincoln-high.example', name: 'Lincoln High School', timeZone: 'UTC' });
    expect(proposal.status).toBe('proposed');
    expect((await open(`/schools/${proposal.pageKey}`)).status).toBe(404);
    const verified = await verifySchool(proposal.id, { kind: 'website', detail: 'lincoln-high.example/contact lists head@' }, 'staff@example.org');
    expect(await countSchoolLetters(verified.id)).toBe(3);
    const page = await open(`/schools/${verified.pageKey}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('3 parents have written');
    expect(await shareOf(letters[0]!)).toMatchObject({ schoolName: 'Lincoln High School', others: 2 });
    await retireSchool(verified.id);
    expect((await open(`/schools/${verified.pageKey}`)).status).toBe(404);
  });

  test('a self-report alone makes no page count', async () => {
    const school = await verifiedSchool('head@maple.edu', 'Maple School');
    await selfSent('head@maple.edu', 'Maple School');
    expect((await readSchoolPage(school.pageKey))!.parents).toBe(0);
  });

  test.each([
    ['Springfield Academy', 'springfield-academy'],
    ['École Jean-Jacques Rousseau', 'ecole-jean-jacques-rousseau'],
    ["St. Mary's Academy", 'st-mary-s-academy'],
    ['李小龙学校', 'school'],
  ])('the readable name of %j is %j', (name, slug) => {
    expect(slugOf(name)).toBe(slug);
  });

  test.each([
    ['an unknown key', `/schools/${'0'.repeat(32)}`],
    ['a forged key', `/schools/${'f'.repeat(31)}x`],
    ['a short key', '/schools/abc'],
    ['a long key', `/schools/${'a'.repeat(300)}`],
  ])('%s: 404 that offers the email form', async (_name, path) => {
    const page = await open(path);
    expect(page.status).toBe(404);
    expect(page.html).toContain('We could not find this school’s page');
    expect(page.html).toContain('data-build-form');
    const api = await call(schoolPage, new Request(`http://localhost${path.replace('/schools/', '/api/schools/')}`));
    expect(api).toMatchObject({ status: 404, body: { error: { code: 'unknown_school' } } });
  });

  test('POST is refused with 405', async () => {
    const response = await schoolPage(new Request(`http://localhost/schools/${'0'.repeat(32)}`, { method: 'POST' }));
    expect(response.status).toBe(405);
  });
});

describe('referrals', () => {
  const ambassador = 'amb-42';

  test.each<[string, (code: string) => { referral?: string | null; ambassadorId?: string | null }, string]>([
    ['a valid code', (code) => ({ referral: code }), 'parent'],
    ['a valid code and an ambassador', (code) => ({ referral: code, ambassadorId: ambassador }), 'parent+ambassador'],
    ['an ambassador only', () => ({ ambassadorId: ambassador }), 'ambassador'],
    ['nothing', () => ({}), 'direct'],
    ['a forged signature', (code) => ({ referral: `${code.slice(0, -2)}xx` }), 'direct'],
    ['a code for another message', (code) => ({ referral: `${'1'.repeat(13)}${code.slice(13)}` }), 'direct'],
    ['garbage', () => ({ referral: '<script>' }), 'direct'],
    ['an overlong ambassador id', () => ({ ambassadorId: 'x'.repeat(101) }), 'direct'],
  ])('%s gives %s', (_name, params, expected) => {
    const messageId = `${'0'.repeat(13)}-12345678-1234-1234-1234-123456789abc`;
    const attribution = attributionOf(params(referralCode(messageId)!));
    const via = attribution.via === 'parent' && attribution.ambassadorId ? 'parent+ambassador' : attribution.via;
    expect(via).toBe(expected);
    if (attribution.via === 'parent') expect(attribution.referrerMessageId).toBe(messageId);
  });

  test('a code signed under another secret is ignored', () => {
    const messageId = `${'0'.repeat(13)}-12345678-1234-1234-1234-123456789abc`;
    const code = referralCode(messageId)!;
    process.env.CONFIG_ENCRYPTION_KEY = Buffer.alloc(32, 1).toString('base64');
    expect(attributionOf({ referral: code })).toEqual({ via: 'direct' });
  });

  test('a share link brings the next parent, whose draft (and message) say who recruited them', async () => {
    await addAmbassador({ id: 'amb-7', name: 'Amy Ambassador', email: 'amy@example.org' }, 'test').catch(() => undefined);
    const sharer = await delivered('head@springfield.edu', 'Springfield Academy', { via: 'ambassador', ambassadorId: 'amb-7' });
    const key = (await verifiedSchool('head@springfield.edu')).pageKey;
    expect(sharer.share).toMatchObject({ schoolName: 'Springfield Academy' });
    const link = new URL(sharer.share.url);
    expect(link.origin).toBe('https://site.example');
    expect(link.pathname).toBe(`/schools/springfield-academy-${key}`);
    expect(link.searchParams.get('ambassadorId')).toBe('amb-7');
    expect(link).toEqual(new URL(shareLink(sharer.message, { key, slug: 'springfield-academy' })));

    // The page carries the code into its form; the form posts it back with the key.
    const page = await open(`${link.pathname}${link.search}`);
    const hidden = Object.fromEntries(
      [...page.html.matchAll(/<input type="hidden" name="(_school|_ref|_ambassador)" value="([^"]*)"/g)].map((m) => [m[1], m[2]]),
    );
    expect(hidden).toEqual({ _school: key, _ref: link.searchParams.get('ref'), _ambassador: 'amb-7' });
    const values = emailFormValues({ school_name: 'Springfield Academy', _page: link.pathname, _elapsed: '30000', ...hidden }) as Record<string, string>;
    delete values.school_contact_email;
    const posted = await postEmailForm(values);
    expect(posted.status).toBe(201);
    const draft = (await readDraft(posted.body.id))!.draft;
    expect(draft.data.schoolContactEmail).toBe('head@springfield.edu');
    expect(draft.attribution).toEqual({ via: 'parent', referrerMessageId: sharer.id, ambassadorId: 'amb-7' });

    const answer = await call(emailSentMyself, jsonRequest('/api/email-sent-myself', { submissionId: posted.body.id, token: posted.body.draft.token }));
    expect((await readMessage(answer.body.id))!.message.attribution).toEqual(draft.attribution);
    // The letter names its verified school: it is on record.
    expect((await readMessage(answer.body.id))!.message.schoolId).toBe((await verifiedSchool('head@springfield.edu')).id);
  });

  test('an ambassador id nobody was given is no credit: the draft says the parent came through the sharer alone', async () => {
    const sharer = await delivered('head@elmwood.edu', 'Elmwood Academy');
    const link = new URL(sharer.share.url);
    const values = emailFormValues({
      school_name: 'Elmwood Academy',
      _page: link.pathname,
      _elapsed: '30000',
      _school: (await verifiedSchool('head@elmwood.edu')).pageKey,
      _ref: link.searchParams.get('ref')!,
      _ambassador: 'made-up-ambassador',
    }) as Record<string, string>;
    delete values.school_contact_email;
    const posted = await postEmailForm(values);
    expect(posted.status).toBe(201);
    expect((await readDraft(posted.body.id))!.draft.attribution).toEqual({ via: 'parent', referrerMessageId: sharer.id });
  });

  test('a parent who comes through their own link came on their own', async () => {
    const sharer = await delivered('head@springfield.edu');
    const link = new URL(sharer.share.url);
    const key = (await verifiedSchool('head@springfield.edu')).pageKey;
    const values = emailFormValues({
      email: sharer.message.parentEmail.toUpperCase(),
      _page: link.pathname,
      _elapsed: '30000',
      _school: key,
      _ref: link.searchParams.get('ref')!,
    }) as Record<string, string>;
    delete values.school_contact_email;
    const posted = await postEmailForm(values);
    expect(posted.status).toBe(201);
    expect((await readDraft(posted.body.id))!.draft.attribution).toEqual({ via: 'direct' });
  });

  test('a bad code on the page is ignored: the page answers 200 and the draft is "direct"', async () => {
    const key = (await verifiedSchool('head@springfield.edu', 'Springfield Academy')).pageKey;
    const page = await open(`/schools/${key}?ref=nonsense&ambassadorId=`);
    expect(page.status).toBe(200);
    expect(page.html).not.toContain('name="_ref"');
    const values = emailFormValues({ _page: `/schools/${key}`, _elapsed: '30000', _school: key, _ref: 'nonsense' }) as Record<string, string>;
    delete values.school_contact_email;
    const posted = await postEmailForm(values);
    expect(posted.status).toBe(201);
    expect((await readDraft(posted.body.id))!.draft.attribution).toEqual({ via: 'direct' });
  });

  test('without JavaScript, a form with problems comes back without the address and with the key', async () => {
    const key = (await verifiedSchool('head@springfield.edu', 'Springfield Academy')).pageKey;
    const body = new URLSearchParams({ ...emailFormValues({ _page: `/schools/${key}`, _school: key, full_name: '' }), school_contact_email: '' });
    body.delete('school_contact_email');
    const response = await forms(
      new Request(`http://localhost/api/forms/${formConfig.emailGenerator.formId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
        body,
      }),
      { ip: '203.0.113.9' } as never,
    );
    const html = await response.text();
    expect(response.status).toBe(400);
    expect(html).not.toContain('springfield.edu');
    expect(html).toContain(`name="_school" value="${key}"`);
  });
});

describe('shared at the right moment', () => {
  test('the page after confirming a platform send offers the school page: link, WhatsApp, SMS, email', async () => {
    const lincoln = await verifiedSchool('head@lincoln.edu', 'Lincoln High');
    const id = `sub-${Date.now()}-${++seq}`;
    const { token } = await createDraft({
      id,
      purpose: 'emailGenerator',
      values: emailFormValues({
        school_contact_email: 'head@lincoln.edu',
        school_name: 'Lincoln High',
        choose_how_to_send_your_email: 'Send via our platform',
      }),
    });
    const requested = await call(sendEmail, jsonRequest('/api/send-email', { submissionId: id, token }));
    expect(requested.status).toBe(202);
    const link = confirmationLink((await readMessage(requested.body.id))!.message)!;
    const response = await confirmSend(
      new Request('http://localhost/confirm-send', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `token=${encodeURIComponent(new URL(link).searchParams.get('token')!)}`,
      }),
    );
    const html = await response.text();
    expect(response.status).toBe(200);
    const url = /data-share-url="([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, '&');
    expect(url).toBeDefined();
    const share = new URL(url!);
    expect(share.pathname).toBe(`/schools/lincoln-high-${lincoln.pageKey}`);
    expect(attributionOf({ referral: share.searchParams.get('ref') })).toEqual({ via: 'parent', referrerMessageId: requested.body.id });
    expect(html).toContain('Bring the other parents at Lincoln High');
    expect(html.replace(/&#39;/g, "'")).toContain("Your letter is on its way: you're the first parent of Lincoln High here");
    expect(html).toMatch(/href="https:\/\/wa\.me\/\?text=[^"]*schools/);
    expect(html).toMatch(/href="sms:\?&amp;body=/);
    expect(html).toMatch(/href="mailto:\?subject=/);
    expect((await open(share.pathname)).status).toBe(200);
  });

  test('a school the site does not know: its letter goes to the typed address, the page offers nothing to share, and staff see a proposal', async () => {
    const id = `sub-${Date.now()}-${++seq}`;
    const { token } = await createDraft({
      id,
      purpose: 'emailGenerator',
      values: emailFormValues({ school_contact_email: 'head@later.edu', school_name: 'Later High', choose_how_to_send_your_email: 'Send via our platform' }),
    });
    const requested = await call(sendEmail, jsonRequest('/api/send-email', { submissionId: id, token }));
    const link = confirmationLink((await readMessage(requested.body.id))!.message)!;
    const html = await (
      await confirmSend(
        new Request('http://localhost/confirm-send', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: `token=${encodeURIComponent(new URL(link).searchParams.get('token')!)}`,
        }),
      )
    ).text();
    expect(html).toContain('Your email has been sent');
    expect(html).not.toContain('data-share-url');
    expect(mail.to('head@later.edu')).toHaveLength(1);
    // The subject of a letter the platform sends never carries a typed school name.
    expect(mail.to('head@later.edu')[0]!.subject).toBe('How our school can unlock mastery learning for every student');
    const proposals = await query<{ name: string; status: string }>(sql`SELECT name, status FROM schools WHERE proposal_key = 'address:head@later.edu'`);
    expect(proposals).toEqual([{ name: 'Later High', status: 'proposed' }]);
  });

  test('without JavaScript, "I\'ve sent it myself" on /your-email asks the parent to confirm from their inbox, and says nothing about a page', async () => {
    await delivered('head@lincoln.edu', 'Lincoln High');
    const id = `sub-${Date.now()}-${++seq}`;
    const { token } = await createDraft({
      id,
      purpose: 'emailGenerator',
      values: emailFormValues({ school_contact_email: 'head@lincoln.edu', school_name: 'Lincoln High' }),
    });
    const response = await yourEmail(
      new Request('http://localhost/your-email', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ id, t: token, action: 'self' }),
      }),
    );
    const html = await response.text();
    expect(response.status).toBe(200);
    expect(html).toContain('Check your inbox');
    expect(html).not.toContain('/schools/');
  });

  test('without a secret, a share link has no referral code, and the page still works', async () => {
    const sharer = await delivered('head@lincoln.edu', 'Lincoln High');
    delete process.env.CONFIG_ENCRYPTION_KEY;
    const share = await shareOf(sharer.message);
    expect(new URL(share!.url).searchParams.get('ref')).toBeNull();
    expect((await open(new URL(share!.url).pathname)).status).toBe(200);
  });
});
