/** Two or more parents writing to one school through the site's own endpoints, and the emails they got. */
import type { APIRequestContext, Locator } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { baseURL, e2eAdminPassword } from '../../playwright.config';
import { expect as baseExpect } from './fixtures';
import { emailsTo, followUpLink, linkTo, runMail, waitForEmail, type ReceivedEmail } from './mail';

const expect = baseExpect.configure({ timeout: 15_000 });

const emailFormId = () => {
  const definitions = JSON.parse(readFileSync('dist/api/form-definitions.json', 'utf8')) as Record<string, { purpose: string }>;
  return Object.entries(definitions).find(([, definition]) => definition.purpose === 'emailGenerator')![0];
};

/** The school updates ("News from …") in a parent's inbox, oldest first. */
export const updatesTo = async (email: string): Promise<ReceivedEmail[]> =>
  (await emailsTo(email)).filter((received) => received.subject.startsWith('News from '));

/** The email form sent through its endpoint as a parent fills it; returns the draft and its token. */
async function submitEmailForm(
  request: APIRequestContext,
  parent: string,
  school: { name: string; email: string },
  choice: string,
  ref?: string,
): Promise<{ id: string; token: string }> {
  const submitted = await request.post(`/api/forms/${emailFormId()}`, {
    data: {
      full_name: 'Ana Lopez',
      email: parent,
      child_full_name: 'Maya Lopez',
      child_grade: '5',
      school_name: school.name,
      school_contact_name: 'Dr. Patel',
      school_contact_email: school.email,
      choose_how_to_send_your_email: choice,
      _page: '/lead-the-change',
      ...(ref ? { _ref: ref } : {}),
    },
  });
  expect(submitted.status()).toBe(201);
  return ((await submitted.json()) as { draft: { id: string; token: string } }).draft;
}

/**
 * An email the parent sent themselves, through the site's own endpoints, confirmed from their inbox
 * (the "Did you send your letter?" email in MailDev) as only its parent can. Returns the message id.
 */
export async function sentByParent(request: APIRequestContext, parent: string, school: { name: string; email: string }, ref?: string): Promise<string> {
  const draft = await submitEmailForm(request, parent, school, 'I will send it myself', ref);
  const sent = await request.post('/api/email-sent-myself', { data: { submissionId: draft.id, token: draft.token } });
  expect(sent.status()).toBe(202);
  const link = linkTo(await waitForEmail(parent, { subject: /^Did you send your letter/, timeout: 20_000 }), '/confirm-send');
  const confirmed = await request.post('/confirm-send', { form: { token: new URL(link, 'http://localhost').searchParams.get('token')!, tz: '' } });
  expect(confirmed.status()).toBe(200);
  return ((await sent.json()) as { id: string }).id;
}

/** The request contexts signed in already (a sign-in is a slow password check; the cookie stays). */
const signedInContexts = new WeakSet<APIRequestContext>();

/** Signs this request context in as the e2e admin (the session cookie stays with it). */
export async function signInApi(request: APIRequestContext): Promise<void> {
  if (signedInContexts.has(request)) return;
  signedInContexts.add(request);
  const signedIn = await request.post('/api/admin/session', { data: { username: 'admin', password: e2eAdminPassword }, headers: { origin: baseURL } });
  expect(signedIn.ok(), await signedIn.text()).toBe(true);
}

/**
 * A school staff verified, added through the Schools tab's API with their evidence: letters to its
 * address count on its page. Each test makes its own (a school takes 5 platform letters a day).
 */
export async function knownSchool(
  request: APIRequestContext,
  school: { name: string; email: string },
  leader = 'Dr. Patel',
): Promise<{ id: string; pageKey: string; slug: string }> {
  await signInApi(request);
  const made = await request.post('/api/admin/schools', {
    headers: { origin: baseURL },
    data: {
      school: { name: school.name, leaders: [{ name: leader, role: 'Head of School', address: school.email }], timeZone: 'America/New_York' },
      evidence: { kind: 'website', detail: `Listed on the school's website (${school.email})` },
    },
  });
  expect(made.status(), await made.text()).toBe(201);
  return ((await made.json()) as { school: { id: string; pageKey: string; slug: string } }).school;
}

/** Staff approve what parents reported about a school (the Review tab's API): outcomes, self-reports. */
export async function approveClaims(request: APIRequestContext, schoolName: string, claims: string[] = ['replied', 'meeting']): Promise<number> {
  await signInApi(request);
  const { items } = (await (await request.get('/api/admin/review?state=pending&limit=100')).json()) as {
    items: Array<{ id: string; claim: string; school: { name: string } | null }>;
  };
  const mine = items.filter((item) => item.school?.name === schoolName && claims.includes(item.claim));
  for (const item of mine)
    expect((await request.post(`/api/admin/review/${item.id}`, { data: { decision: 'approved' }, headers: { origin: baseURL } })).status()).toBe(200);
  return mine.length;
}

/** Runs the hourly follow-up now and returns the token of the link it emailed the parent. */
export async function followUpToken(parent: string): Promise<string> {
  return new URL(await followUpLink(parent), 'http://localhost').searchParams.get('token')!;
}

/**
 * A letter the platform sent for the parent, the real way: the form, "Send via our platform", the
 * confirmation link from their inbox (MailDev), confirmed, and the mail run; returns the share link
 * the confirmation page offers (the school's page, with the parent's referral code).
 */
export async function platformSentByParent(request: APIRequestContext, parent: string, school: { name: string; email: string }, ref?: string): Promise<string> {
  const draft = await submitEmailForm(request, parent, school, 'Send via our platform', ref);
  const asked = await request.post('/api/send-email', { data: { submissionId: draft.id, token: draft.token } });
  expect(asked.status()).toBe(202);
  const link = linkTo(await waitForEmail(parent, { subject: /^Please confirm your email to /, timeout: 20_000 }), '/confirm-send');
  const confirmed = await request.post('/confirm-send', { form: { token: new URL(link, 'http://localhost').searchParams.get('token')!, tz: '' } });
  expect(confirmed.status()).toBe(200);
  await runMail();
  await waitForEmail(school.email, { runs: true, timeout: 20_000 });
  const share = /data-share-url="([^"]+)"/.exec(await confirmed.text())?.[1] ?? '';
  return share.replace(/&amp;/g, '&');
}

/**
 * Opens a school's campaign from the Impact tab's list. The list is newest-written first, fifty
 * at a time, and other specs write to schools meanwhile: load more until the school shows. The
 * list may render again as its figures arrive, and on a busy machine the campaign takes a while to
 * open (its button is gone by then): each round first looks whether it is open already.
 */
export async function openSchoolCampaign(panel: Locator, schoolName: string): Promise<void> {
  const heading = panel.getByTestId('school-campaign').getByRole('heading', { name: schoolName });
  const open = panel.getByRole('button', { name: `Open ${schoolName}` });
  const more = panel.getByRole('button', { name: 'Load more schools' });
  await expect(async () => {
    if (await heading.isVisible()) return;
    if (await open.isVisible()) await open.click({ timeout: 2000 });
    else if (await more.isVisible()) await more.click({ timeout: 2000 });
    await expect(heading).toBeVisible({ timeout: 5000 });
  }).toPass({ timeout: 60_000 });
}
