/**
 * School pages, tried as an abuser would: keys that are forged, cut short, another site's, or carry
 * line breaks, NULs, broken escapes or 10 KB; referral codes and ambassador ids that are forged,
 * another site's, or hostile; wrong methods. Every answer is a 404 page (or the JSON error shape on
 * /api/schools), never a 500, and never echoes what was sent or attributes anything to a forgery.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import emailSentMyself from '../../netlify/functions/email-sent-myself.mts';
import schoolPage, { config } from '../../netlify/functions/school-page.mts';
import { createDraft } from '../../src/server/email-drafts';
import { referralCode, schoolPageKey } from '../../src/server/school-pages';
import { startTestDatabase, type TestDatabase } from './helpers/database';
import { emailFormValues } from './helpers/forms';
import { call, jsonRequest } from './helpers/requests';
import { useSiteShell } from './helpers/site';

let database: TestDatabase;
let shell: ReturnType<typeof useSiteShell>;
let seq = 0;
const SECRET = Buffer.alloc(32, 7).toString('base64');
const OTHER_SITE = Buffer.alloc(32, 9).toString('base64');
const school = 'head@springfield.edu';
let key = '';
let messageId = '';

beforeAll(async () => {
  database = await startTestDatabase();
  shell = useSiteShell();
  process.env.CONFIG_ENCRYPTION_KEY = SECRET;
  process.env.SITE_URL = 'https://site.example';
});
afterAll(async () => {
  await database.stop();
  shell.remove();
  for (const name of ['CONFIG_ENCRYPTION_KEY', 'SITE_URL']) delete process.env[name];
});
beforeEach(async () => {
  await database.truncate();
  process.env.CONFIG_ENCRYPTION_KEY = SECRET;
  // One real page, made as a parent's "I've sent it myself" makes it.
  const id = `sub-${Date.now()}-${++seq}`;
  const { token } = await createDraft({ id, purpose: 'emailGenerator', values: emailFormValues({ school_name: 'Springfield Academy', school_contact_email: school }) });
  const answer = await call(emailSentMyself, jsonRequest('/api/email-sent-myself', { submissionId: id, token }));
  expect(answer.status).toBe(201);
  messageId = answer.body.id;
  key = schoolPageKey(school);
});

async function open(path: string, method = 'GET') {
  const response = await schoolPage(new Request(`http://localhost${path}`, { method }));
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** Nothing a stranger sent comes back, and nothing of the server's insides goes out. */
function tellsNothing(text: string, sent: string) {
  if (sent.length >= 8) expect(text).not.toContain(sent);
  expect(text).not.toMatch(/\bat .+\.(?:ts|mts|js):\d+|Error:|stack/i);
}

const anotherSitesKey = () => {
  process.env.CONFIG_ENCRYPTION_KEY = OTHER_SITE;
  const forged = schoolPageKey(school);
  process.env.CONFIG_ENCRYPTION_KEY = SECRET;
  return forged;
};

describe('keys', () => {
  test('the real key opens the page (the cases below differ only in their key)', async () => {
    expect((await open(`/schools/${key}`)).status).toBe(200);
    expect((await open(`/api/schools/${key}`)).status).toBe(200);
  });

  test.each<[string, () => string]>([
    ['a key of the right shape nobody was given', () => 'f'.repeat(32)],
    ['another site’s key for the same school', anotherSitesKey],
    ['the key cut short', () => key.slice(0, 31)],
    ['the key and one more digit', () => `${key}0`],
    ['a line break in the key', () => `${key.slice(0, 16)}%0D%0A${key.slice(16)}`],
    ['a line break after the key', () => `${key}%0A`],
    ['a NUL after the key', () => `${key}%00`],
    ['a broken escape', () => `${key.slice(0, 30)}%E0`],
    ['a 10 KB key', () => 'a'.repeat(10_240)],
    ['a path that climbs', () => `..%2F..%2F${key}`],
    ['fullwidth digits', () => key.replace(/[0-9]/g, (d) => String.fromCharCode(0xff10 + Number(d)))],
  ])('%s: a 404 page that offers the form, and the JSON error shape', async (_name, make) => {
    const sent = make();
    const page = await open(`/schools/${sent}`);
    expect(page.status).toBe(404);
    expect(page.text).toContain('We could not find this school’s page');
    tellsNothing(page.text, sent);
    const api = await open(`/api/schools/${sent}`);
    expect(api.status).toBe(404);
    expect(JSON.parse(api.text)).toEqual({ error: { code: 'unknown_school', message: expect.any(String) } });
    tellsNothing(api.text, sent);
  });
});

describe('referral codes and ambassador ids', () => {
  const attributed = (text: string) => /name="_ref"|name="_ambassador"|data-referral/.test(text);

  test('a genuine code is carried by the form (the cases below differ only in their code)', async () => {
    const page = await open(`/schools/${key}?ref=${encodeURIComponent(referralCode(messageId)!)}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(referralCode(messageId)!);
  });

  test.each<[string, () => string]>([
    ['a forged mac', () => `${messageId}.${'A'.repeat(16)}`],
    ['another site’s code', () => {
      process.env.CONFIG_ENCRYPTION_KEY = OTHER_SITE;
      const code = referralCode(messageId)!;
      process.env.CONFIG_ENCRYPTION_KEY = SECRET;
      return code;
    }],
    ['a code cut short', () => referralCode(messageId)!.slice(0, -2)],
    ['a code with a line break', () => referralCode(messageId)!.replace('.', '\r\n.')],
    ['a code with a NUL', () => `${referralCode(messageId)!}\u0000`],
    ['a 10 KB code', () => 'r'.repeat(10_240)],
    ['markup', () => '"><script>alert(1)</script>'],
  ])('%s: the page opens, and the code is ignored, never an error', async (_name, make) => {
    const code = make();
    const page = await open(`/schools/${key}?ref=${encodeURIComponent(code)}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Springfield Academy');
    expect(page.text).not.toContain(encodeURIComponent(code).slice(0, 60));
    expect(page.text).not.toContain('<script>alert(1)');
    if (code.length > 8) expect(page.text).not.toContain(code.slice(0, 60));
  });

  test.each([
    ['a broken escape', '%E0'],
    ['a NUL', '%00'],
    ['a 10 KB value', 'x'.repeat(10_240)],
  ])('an ambassador id with %s: the page opens, nothing of it on the page', async (_name, raw) => {
    const page = await open(`/schools/${key}?ambassadorId=${raw}&ref=${raw}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('x'.repeat(201));
    expect(page.text).not.toContain('\u0000');
    expect(page.text).not.toContain('\ufffd');
  });

  test('markup in an ambassador id is never markup on the page', async () => {
    const page = await open(`/schools/${key}?ambassadorId=${encodeURIComponent('"><img src=x onerror=alert(1)>')}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('<img src=x');
    expect(attributed(page.text) ? page.text : '').not.toContain('onerror=alert(1)>');
  });
});

describe('methods and floods', () => {
  test.each(['POST', 'PUT', 'DELETE', 'PATCH'])('%s is a 405 with Allow and the error shape, on the page and the API', async (method) => {
    for (const path of [`/schools/${key}`, `/api/schools/${key}`]) {
      const answer = await open(path, method);
      expect(answer.status).toBe(405);
      expect(answer.headers.get('allow')).toBe('GET, HEAD');
      expect(JSON.parse(answer.text)).toEqual({ error: { code: 'method_not_allowed', message: expect.any(String) } });
    }
  });

  test('a flood from one address is cut off by the platform’s rate limit', () => {
    expect(config.rateLimit).toMatchObject({ windowLimit: expect.any(Number), windowSize: 60, aggregateBy: expect.arrayContaining(['ip']) });
    expect(config.rateLimit!.windowLimit).toBeLessThanOrEqual(120);
  });
});
