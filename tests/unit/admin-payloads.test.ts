/**
 * The admin islands read the endpoints' answers through the shared schemas of
 * `src/lib/shared/schemas/admin.ts` (issue 20, part 7). Each endpoint's real answer, with records in every
 * list (a school email answered by its parent, a held form submission, a Calendly delivery, a
 * parent's HubSpot deletion, a HubSpot configuration, a self-reported letter waiting for review and
 * the same decided, every email preview, an email that bounced), must parse with the schema its
 * island uses.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { z } from 'zod';
import calendlyWebhooks from '../../netlify/functions/calendly-webhooks.mts';
import receiver from '../../netlify/functions/calendly-webhook.mts';
import emailSentMyself from '../../netlify/functions/email-sent-myself.mts';
import schoolsAdmin from '../../netlify/functions/schools-admin.mts';
import { confirmedSelfReport } from './helpers/delivered';
import dataDeletionsAdmin from '../../netlify/functions/data-deletions-admin.mts';
import formsAdmin from '../../netlify/functions/form-submissions-admin.mts';
import hubspotConfig from '../../netlify/functions/hubspot-config.mts';
import mailAdmin from '../../netlify/functions/mail-admin.mts';
import impactAdmin from '../../netlify/functions/impact-admin.mts';
import campaignAdmin from '../../netlify/functions/impact-schools-admin.mts';
import outboxAdmin from '../../netlify/functions/outbox.mts';
import reviewAdmin from '../../netlify/functions/review-admin.mts';
import schoolAnswer from '../../netlify/functions/school-answer.mts';
import webhookLogs from '../../netlify/functions/webhook-logs.mts';
import { forms as formConfig } from '../../src/config/forms';
import {
  campaignSchema,
  campaignSchoolsPageSchema,
  deletionsSchema,
  hubSpotConfigAnswerSchema,
  impactRowsSchema,
  mailEmailsPageSchema,
  mailPreviewsSchema,
  outboxPageSchema,
  reviewDecisionSchema,
  reviewPageSchema,
  schoolFlagsSchema,
  schoolsPageSchema,
  suppressionsSchema,
  submissionsPageSchema,
  webhookLogsPageSchema,
  webhooksSchema,
} from '../../src/lib/shared/schemas/admin';
import { signPayload } from '../../src/server/calendly-webhook';
import { erasePersonalData } from '../../src/server/data-rights';
import { createDraft } from '../../src/server/letter/drafts';
import { claimEmail, enqueueEmail, recordSendResult } from '../../src/server/mail/queue';
import { newSubmissionId, storeSubmission } from '../../src/server/forms/submissions';
import { readMessage } from '../../src/server/letter/outbox';
import { answerLink } from '../../src/server/links';
import { FAKE_CALENDLY_ORGANIZATION } from '../fakes/calendly';
import { startHubSpotFake, type HubSpotFake } from '../fakes/hubspot';
import { call, ORIGIN, setAdminEnv, signIn } from './helpers/admin';
import { startTestDatabase, type TestDatabase } from './helpers/database';
import { deliveredLetter } from './helpers/delivered';
import { call as callFunction, jsonRequest } from './helpers/requests';
import { useSiteShell } from './helpers/site';
import { allowed } from './helpers/time';

type Handler = (req: Request, context: unknown) => Promise<Response>;
const KEY = 'payload-test-signing-key-0123456789abcdef';

let database: TestDatabase;
let hubspot: HubSpotFake;
let shell: ReturnType<typeof useSiteShell>;
let cookie: string;
let campaignKey: string;

/** Parses an answer with its schema, naming each field that does not fit. */
function expectParses(schema: z.ZodType, body: unknown): void {
  const result = schema.safeParse(body);
  expect(result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)).toEqual([]);
}

beforeAll(async () => {
  database = await startTestDatabase();
  hubspot = await startHubSpotFake();
  shell = useSiteShell();
  setAdminEnv();
  process.env.HUBSPOT_BASE_PATH = hubspot.url;
  process.env.HUBSPOT_FORMS_BASE_PATH = hubspot.url;
  process.env.HUBSPOT_ACCESS_TOKEN = hubspot.token;
  process.env.SITE_URL = 'https://site.example';
  cookie = await signIn();

  // A school letter the platform delivered (it counts), answered "We have a meeting".
  const parent = 'payload-parent@example.org';
  hubspot.addContact(parent);
  const letter = await deliveredLetter(parent, 'head@oakwood-payload.edu');
  const message = (await readMessage(letter.id))!.message;
  const answerToken = new URL(answerLink(message.id, message.followUp!.dueAt)).searchParams.get('token')!;
  const answered = await schoolAnswer(
    new Request('http://localhost/school-answer', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: answerToken, seen: '', comment: 'They will meet us', answer: 'meeting' }),
    }),
  );
  expect(answered.status).toBe(200);

  // A form submission held as automated.
  const now = new Date();
  await storeSubmission({
    id: newSubmissionId(now),
    purpose: 'newsletter',
    formId: formConfig.newsletter.formId,
    formName: 'Newsletter',
    createdAt: now.toISOString(),
    submittedAt: now.getTime(),
    values: { email: 'payload-held@example.org' },
    labels: { email: 'Email' },
    context: { pageUri: 'https://example.org/faqs', pageName: 'FAQs' },
    delivery: { state: 'held', attempts: 0, nextAttemptAt: now.toISOString(), heldReason: 'honeypot' },
  });

  // A Calendly webhook configuration and one delivery to it.
  const created = await call(calendlyWebhooks as Handler, '/api/calendly-webhooks', {
    method: 'POST',
    cookie,
    body: {
      name: 'Bookings',
      calendlyWebhookUrl: 'https://example.org/api/calendly/webhook',
      events: ['invitee.created'],
      scope: 'organization',
      organization: FAKE_CALENDLY_ORGANIZATION,
      signingKey: KEY,
    },
  });
  expect(created.status).toBe(201);
  const body = JSON.stringify({
    event: 'invitee.created',
    created_at: now.toISOString(),
    payload: {
      uri: 'https://api.calendly.com/scheduled_events/PAYLOAD/invitees/PAYLOAD1',
      email: 'payload-booking@example.org',
      name: 'Dana Parent',
      scheduled_event: { start_time: '2026-12-03T15:00:00.000000Z' },
    },
  });
  const t = Math.floor(Date.now() / 1000);
  const delivered = await (receiver as Handler)(
    new Request(`${ORIGIN}/api/calendly/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'calendly-webhook-signature': `t=${t},v1=${signPayload(KEY, t, body)}` },
      body,
    }),
    { ip: '192.0.2.50' },
  );
  expect(delivered.status).toBeLessThan(300);

  // A parent who took their data back: their HubSpot contact's deletion is queued.
  hubspot.addContact('payload-erased@example.org');
  await deliveredLetter('payload-erased@example.org', 'head@erased-payload.edu');
  await erasePersonalData('payload-erased@example.org');

  // A HubSpot configuration saved on the admin page.
  const saved = await call(hubspotConfig as Handler, '/api/hubspot-config', {
    method: 'POST',
    cookie,
    body: { name: 'Main portal', description: 'Payload test', accessToken: 'pat-na1-payload-token-0123456789', refreshToken: '' },
  });
  expect(saved.status).toBe(201);

  // A letter its parent says they sent themselves: it waits in the review queue.
  hubspot.addContact('payload-self@example.org');
  const draftId = `sub-payload-self-${Date.now()}`;
  const { token } = await createDraft({
    id: draftId,
    purpose: 'emailGenerator',
    values: {
      full_name: 'Ana Lopez',
      email: 'payload-self@example.org',
      child_full_name: 'Leo Lopez',
      child_grade: '5th grade',
      school_name: 'Birch Academy',
      school_contact_name: 'Dr. Chen',
      school_contact_email: 'head@birch-payload.edu',
      choose_how_to_send_your_email: 'I will send it myself',
    },
  });
  const reported = await callFunction(emailSentMyself as Handler, jsonRequest('/api/email-sent-myself', { submissionId: draftId, token }));
  expect(reported.status).toBe(202);
  await confirmedSelfReport(reported.body.id);

  // An email whose address refused it for good: the address is suppressed.
  const bouncing = await enqueueEmail({
    kind: 'data_link',
    to: 'gone@bounce-payload.edu',
    content: { subject: 'Your data', text: 'Your data', from: { address: 'hello@site.example' } },
  });
  const claimed = await claimEmail(bouncing.id);
  await recordSendResult(claimed!, 'smtp', { outcome: 'bounced', providerStatus: '550', detail: '550 5.1.1 no such user' });
}, allowed(60_000));

afterAll(async () => {
  await Promise.all([database.stop(), hubspot.close()]);
  shell.remove();
  for (const name of ['HUBSPOT_BASE_PATH', 'HUBSPOT_FORMS_BASE_PATH', 'HUBSPOT_ACCESS_TOKEN', 'SITE_URL']) delete process.env[name];
});

describe('every admin answer parses with the schema its island reads it through', () => {
  test('Outbox tab: the message with its answer', async () => {
    const page = await call(outboxAdmin as Handler, '/api/admin/outbox', { cookie });
    expect(page.status).toBe(200);
    expect(page.body.messages.length).toBeGreaterThan(0);
    expect(page.body.messages.find((message: { to: string }) => message.to === 'head@oakwood-payload.edu')?.answer?.kind).toBe('meeting');
    expectParses(outboxPageSchema, page.body);
  });

  test('Form Submissions tab: the held submission', async () => {
    const page = await call(formsAdmin as Handler, '/api/admin/form-submissions?form=newsletter', { cookie });
    expect(page.status).toBe(200);
    expect(page.body.submissions.map((s: { delivery: { state: string } }) => s.delivery.state)).toContain('held');
    expectParses(submissionsPageSchema, page.body);
  });

  test('Impact tab: the school row, the campaign list and the campaign', async () => {
    const impact = await call(impactAdmin as Handler, '/api/admin/impact', { cookie });
    expect(impact.status).toBe(200);
    expect(impact.body.rows.length).toBeGreaterThan(0);
    expectParses(impactRowsSchema, impact.body);
    const schools = await call(campaignAdmin as Handler, '/api/admin/impact/schools', { cookie });
    expect(schools.status).toBe(200);
    expect(schools.body.schools.length).toBeGreaterThan(0);
    expectParses(campaignSchoolsPageSchema, schools.body);
    campaignKey = schools.body.schools[0].key;
    const campaign = await call(campaignAdmin as Handler, `/api/admin/impact/schools?key=${campaignKey}`, { cookie });
    expect(campaign.status).toBe(200);
    expect(campaign.body.parents.length).toBeGreaterThan(0);
    expectParses(campaignSchema, campaign.body);
  });

  test("Outbox tab: the parents' HubSpot deletions", async () => {
    const deletions = await call(dataDeletionsAdmin as Handler, '/api/admin/data-deletions', { cookie });
    expect(deletions.status).toBe(200);
    expect(deletions.body.deletions.length).toBeGreaterThan(0);
    expectParses(deletionsSchema, deletions.body);
  });

  test('Webhooks and Activity Logs tabs', async () => {
    const webhooks = await call(calendlyWebhooks as Handler, '/api/calendly-webhooks', { cookie });
    expect(webhooks.status).toBe(200);
    expect(webhooks.body.webhooks.length).toBe(1);
    expectParses(webhooksSchema, webhooks.body);
    const logs = await call(webhookLogs as Handler, '/api/webhook-logs', { cookie });
    expect(logs.status).toBe(200);
    expect(logs.body.logs.length).toBe(1);
    expectParses(webhookLogsPageSchema, logs.body);
  });

  test('CRM Config tab', async () => {
    const config = await call(hubspotConfig as Handler, '/api/hubspot-config', { cookie });
    expect(config.status).toBe(200);
    expect(config.body.config?.name).toBe('Main portal');
    expectParses(hubSpotConfigAnswerSchema, config.body);
  });

  test('Review tab: the queue and a decision', async () => {
    const queue = await call(reviewAdmin as Handler, '/api/admin/review?state=pending', { cookie });
    expect(queue.status).toBe(200);
    expect(queue.body.items.length).toBeGreaterThan(0);
    expectParses(reviewPageSchema, queue.body);
    const item = queue.body.items.find((entry: { letter: { schoolName: string } }) => entry.letter.schoolName === 'Birch Academy');
    const decided = await call(reviewAdmin as Handler, `/api/admin/review/${item.id}`, { method: 'POST', cookie, body: { decision: 'approved' } });
    expect(decided.status).toBe(200);
    expect(decided.body.item.state).toBe('approved');
    expectParses(reviewDecisionSchema, decided.body);
    // A decision names no school: the old "rename a page" is the Schools tab's record now.
    expect(
      (await call(reviewAdmin as Handler, `/api/admin/review/${item.id}`, { method: 'POST', cookie, body: { decision: 'approved', schoolName: 'Birch' } }))
        .status,
    ).toBe(400);
    const approved = await call(reviewAdmin as Handler, '/api/admin/review?state=approved', { cookie });
    expect(approved.body.items.map((entry: { id: string }) => entry.id)).toContain(item.id);
    expectParses(reviewPageSchema, approved.body);
  });

  test('Schools tab: the proposals (the self-reported school is one), the verified schools, and the flagged addresses', async () => {
    const proposed = await call(schoolsAdmin as Handler, '/api/admin/schools?status=proposed', { cookie });
    expect(proposed.status).toBe(200);
    expectParses(schoolsPageSchema, proposed.body);
    expect(proposed.body.schools.map((school: { name: string }) => school.name)).toContain('Birch Academy');
    const verified = await call(schoolsAdmin as Handler, '/api/admin/schools?status=verified', { cookie });
    expectParses(schoolsPageSchema, verified.body);
    const flags = await call(schoolsAdmin as Handler, '/api/admin/schools/flags', { cookie });
    expectParses(schoolFlagsSchema, flags.body);
  });

  test('Mail tab: every preview, the emails and the bounced addresses', async () => {
    const previews = await call(mailAdmin as Handler, '/api/admin/mail/previews', { cookie });
    expect(previews.status).toBe(200);
    expect(previews.body.previews.length).toBeGreaterThan(0);
    expectParses(mailPreviewsSchema, previews.body);
    const emails = await call(mailAdmin as Handler, '/api/admin/mail/emails?limit=200', { cookie });
    expect(emails.status).toBe(200);
    expect(emails.body.emails.map((email: { state: string }) => email.state)).toContain('bounced');
    expectParses(mailEmailsPageSchema, emails.body);
    const suppressions = await call(mailAdmin as Handler, '/api/admin/mail/suppressions', { cookie });
    expect(suppressions.status).toBe(200);
    expect(suppressions.body.suppressions).toHaveLength(1);
    expectParses(suppressionsSchema, suppressions.body);
  });

  test('a schema that does not fit the answer is caught (the check can fail)', async () => {
    const page = await call(outboxAdmin as Handler, '/api/admin/outbox', { cookie });
    const renamed = { messages: page.body.messages.map(({ status, ...rest }: { status: string }) => ({ ...rest, state: status })) };
    expect(outboxPageSchema.safeParse(renamed).success).toBe(false);
  });
});
