/**
 * A school's page in Spanish (issue 48): /es/schools/{key} is the same page as /schools/{key} in the
 * Spanish frame, with the same figures (numbers as Spanish writes them), the Spanish email form
 * (posting `_locale`), `hreflang` both ways and the language switch leading to the other; the school's
 * name as recorded and never its address. An unknown, odd or missing key is the Spanish 404. A
 * Spanish parent is given the Spanish page: their share link after a confirmation, their school
 * updates and their "sent with others" notice. The caching, the referral and the experiments are the
 * English page's, except that the call to action's experiment (English words) stays off Spanish pages.
 * The English page suggests the school's Spanish page to a browser that reads Spanish first.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import confirmSend from '../../netlify/functions/confirm-send.mts';
import experimentsAdmin from '../../netlify/functions/experiments-admin.mts';
import schoolAnswer from '../../netlify/functions/school-answer.mts';
import schoolPage from '../../netlify/functions/school-page.mts';
import sendEmail from '../../netlify/functions/send-email.mts';
import { countedPage } from '../../src/server/analytics/counted-pages';
import { outcomeText, schoolProgress } from '../../src/lib/shared/school-page-words';
import { query, sql } from '../../src/server/db';
import { runMail } from '../../src/server/letter/delivery';
import { createDraft, readDraft } from '../../src/server/letter/drafts';
import { readMessage } from '../../src/server/letter/outbox';
import { shareOf } from '../../src/server/letter/request';
import { answerLink, confirmationLink } from '../../src/server/links';
import { emailDigestNotice } from '../../src/server/mail/notify';
import { schoolPageCacheHeaders } from '../../src/server/pages/school';
import { recordAnswer } from '../../src/server/schools/impact';
import { referralCode } from '../../src/server/schools/pages';
import { proposeSchool } from '../../src/server/schools/records';
import { runSchoolUpdates } from '../../src/server/schools/updates';
import { decideReview } from '../../src/server/staff/review';
import { call as callAdmin, ORIGIN, setAdminEnv, signIn } from './helpers/admin';
import { startTestDatabase, type TestDatabase } from './helpers/database';
import { deliveredLetter } from './helpers/delivered';
import { emailFormValues, postForm, useFormDefinitions } from './helpers/forms';
import { linkIn, MAIL_FROM, useMail, type MailCatcher } from './helpers/mail';
import { call, jsonRequest } from './helpers/requests';
import { verifiedSchool } from './helpers/schools';
import { useSiteShell } from './helpers/site';

let database: TestDatabase;
let mail: MailCatcher;
let shell: ReturnType<typeof useSiteShell>;
let definitions: Awaited<ReturnType<typeof useFormDefinitions>>;
let seq = 0;
const SCHOOL = 'head@springfield.edu';
const NAME = 'Springfield Academy';
const AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';

beforeAll(async () => {
  database = await startTestDatabase();
  mail = await useMail();
  shell = useSiteShell();
  definitions = await useFormDefinitions();
  setAdminEnv();
  process.env.SITE_URL = ORIGIN;
  process.env.FORMS_MIN_FILL_MS = '0';
});
afterAll(async () => {
  await database.stop();
  await mail.close();
  shell.remove();
  definitions.remove();
  for (const name of ['SITE_URL', 'FORMS_MIN_FILL_MS', 'ADMIN_PASSWORD', 'CONFIG_ENCRYPTION_KEY']) delete process.env[name];
});
beforeEach(async () => {
  await database.truncate();
  mail.reset();
  process.env.MAIL_FROM_ADDRESS = MAIL_FROM;
});

/** The page as a browser opens it. */
async function open(path: string, headers: Record<string, string> = {}) {
  const response = await schoolPage(new Request(`${ORIGIN}${path}`, { headers }));
  return { status: response.status, headers: response.headers, html: await response.text() };
}

/** The page's text, tags and the form's hidden data aside. */
const textOf = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();

/** Springfield Academy with two delivered letters, one of whose parents reported a meeting staff accepted. */
async function publishedSchool() {
  const school = await verifiedSchool(SCHOOL, NAME);
  await deliveredLetter(`parent${++seq}@example.org`, SCHOOL, { schoolName: NAME });
  const second = await deliveredLetter(`parent${++seq}@example.org`, SCHOOL, { schoolName: NAME, locale: 'es' });
  await recordAnswer({ id: second.id, school: 'springfield.edu', kind: 'meeting', at: new Date().toISOString() });
  return { key: school.pageKey, slug: school.slug, path: `${school.slug}-${school.pageKey}`, message: second };
}

/** The `hreflang` alternates of a page, by language. */
const alternatesOf = (html: string) =>
  Object.fromEntries([...html.matchAll(/<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">/g)].map((m) => [m[1], m[2]]));
/** Where the page's language switches lead. */
const switchesOf = (html: string) =>
  [...html.matchAll(/<a [^>]*data-language-switch[^>]*>/g)].map((m) => /href="([^"]*)"/.exec(m[0])![1]!.replace(/&amp;/g, '&'));

describe('the Spanish page of a published school', () => {
  test('is the school’s page wholly in Spanish, with the English page’s figures, and the school’s name as recorded', async () => {
    const school = await publishedSchool();
    const es = await open(`/es/schools/${school.path}`);
    const en = await open(`/schools/${school.path}`);
    expect(es.status).toBe(200);
    // The Spanish frame (dist/es/school-page.html).
    expect(es.html).toContain('<html lang="es">');
    expect(en.html).toContain('<html lang="en">');
    expect(es.html).toContain(`<title>Sume su voz en ${NAME} | Mastery Parents</title>`);
    const text = textOf(es.html);
    for (const words of [
      'Padres que escriben a su escuela',
      NAME,
      '2 padres y madres han escrito',
      'Faltan 3 para llegar a 5',
      `${NAME} aceptó reunirse`,
      'Se cuentan los padres y madres cuya carta llegó a la escuela',
      `Sume su voz. Escriba a ${NAME} en dos minutos, con sus propias palabras. Escriba su correo`,
    ])
      expect(text).toContain(words);
    expect(text).not.toMatch(/parents have written|more to reach|agreed to meet|Parents writing|Counted:|Write your email|Add your voice/);
    expect(es.html).toContain('aria-label="Padres y madres que escribieron, hacia la próxima meta"');
    expect(es.html).toContain('data-locale="es"');
    // The same figures as the English page's.
    const figures = (html: string) => /aria-valuemax="(\d+)" aria-valuenow="(\d+)"/.exec(html)?.slice(1);
    expect(figures(es.html)).toEqual(['5', '2']);
    expect(figures(es.html)).toEqual(figures(en.html));
    expect(textOf(en.html)).toContain('2 parents have written');
    // No contact address, and the key of no other school.
    for (const html of [es.html, en.html]) expect(html).not.toMatch(/springfield\.edu|example\.org/i);
    // Cached as the English page is.
    for (const [name, value] of Object.entries(schoolPageCacheHeaders)) {
      expect(es.headers.get(name), name).toBe(value);
      expect(en.headers.get(name), name).toBe(value);
    }
    expect(es.headers.get('x-robots-tag')).toBe('noindex');
  });

  test('hreflang both ways, its own canonical address, and the language switch leading to the other page', async () => {
    const school = await publishedSchool();
    const es = await open(`/es/schools/${school.path}`);
    const en = await open(`/schools/${school.path}`);
    const alternates = {
      en: `${ORIGIN}/schools/${school.path}`,
      es: `${ORIGIN}/es/schools/${school.path}`,
      'x-default': `${ORIGIN}/schools/${school.path}`,
    };
    expect(alternatesOf(es.html)).toEqual(alternates);
    expect(alternatesOf(en.html)).toEqual(alternates);
    expect(es.html).toContain(`<link rel="canonical" href="${ORIGIN}/es/schools/${school.path}">`);
    expect(en.html).toContain(`<link rel="canonical" href="${ORIGIN}/schools/${school.path}">`);
    expect(es.html).toContain(`<meta property="og:url" content="${ORIGIN}/es/schools/${school.path}">`);
    // The header's and the footer's switch.
    expect(switchesOf(es.html)).toEqual([`/schools/${school.path}`, `/schools/${school.path}`]);
    expect(switchesOf(en.html)).toEqual([`/es/schools/${school.path}`, `/es/schools/${school.path}`]);
    // The bare key: the page's own address names the school as its record does.
    expect(alternatesOf((await open(`/es/schools/${school.key}`)).html).es).toBe(alternates.es);
  });

  test('the form to add your voice is the Spanish email form, the school filled in and its address left on the server', async () => {
    const school = await publishedSchool();
    const { html } = await open(`/es/schools/${school.path}`);
    expect(html).not.toContain('data-build-form');
    expect(html).toContain('<input type="hidden" name="_locale" value="es">');
    expect(html).toContain(`name="_page" value="/es/schools/${school.path}"`);
    expect(html).toContain(`name="_school" value="${school.key}"`);
    expect(html).toMatch(new RegExp(`name="school_name"[^>]*value="${NAME}"`));
    expect(html).not.toContain('name="school_contact_email"');
    expect(html).not.toContain('data-school-search');
    const text = textOf(html);
    for (const words of ['Su nombre completo', 'Nombre de la escuela', 'Elija cómo enviar su correo', 'Idioma de su carta', 'Preparar mi correo'])
      expect(text).toContain(words);
    expect(html).toContain('name="_letter_locale"');
  });

  test('a parent’s words starred for the school: the block’s heading, terms and caption in Spanish, the words as written', async () => {
    const school = await publishedSchool();
    await query(sql`
      INSERT INTO starred_words (message_id, field, school_page, parent, first_name, words, starred_at, starred_by)
      VALUES (${school.message.id}, 'own_words', ${school.key}, 'p1', 'Ana', 'Leo would love school again.', now(), 'staff@example.org')`);
    const text = textOf((await open(`/es/schools/${school.path}`)).html);
    expect(text).toContain('En palabras de los propios padres');
    expect(text).toContain('Citadas con el acuerdo de cada padre o madre; solo con su nombre de pila.');
    expect(text).toContain(`“Leo would love school again.” Ana, padre o madre en ${NAME}`);
    expect(text).not.toMatch(/In parents’ own words|a parent at/);
  });

  test('the figures as Spanish writes them (Intl), and the outcome sentences', () => {
    expect(schoolProgress(1, 'es')).toMatchObject({ countText: '1 padre o madre ha escrito', goalText: 'Faltan 4 para llegar a 5' });
    expect(schoolProgress(4, 'es')).toMatchObject({ countText: '4 padres y madres han escrito', goalText: 'Falta 1 para llegar a 5' });
    expect(schoolProgress(12_345, 'es')).toMatchObject({ countText: '12.345 padres y madres han escrito', goalText: 'Faltan 55 para llegar a 12.400' });
    expect(schoolProgress(12_345, 'en')).toMatchObject({ countText: '12,345 parents have written', goalText: '55 more to reach 12,400' });
    expect(schoolProgress(0, 'es').countText).toBe('0 padres y madres han escrito');
    expect(outcomeText(NAME, 'replied', 'es')).toBe(`${NAME} respondió`);
    expect(outcomeText(NAME, 'meeting', 'en')).toBe(`${NAME} agreed to meet`);
  });

  test('a share link’s referral and ambassador go with the Spanish form and the switch, as on the English page; a forged code goes nowhere, markup never as markup', async () => {
    const school = await publishedSchool();
    const code = referralCode(school.message.id)!;
    const page = await open(`/es/schools/${school.path}?ref=${encodeURIComponent(code)}`);
    expect(page.html).toContain(`name="_ref" value="${code}"`);
    expect(switchesOf(page.html)[0]).toBe(`/schools/${school.path}?ref=${encodeURIComponent(code)}`);
    expect(page.headers.get('netlify-vary')).toBe('query=ref|ambassadorId');
    const forged = await open(`/es/schools/${school.path}?ref=${encodeURIComponent(`${code.slice(0, -2)}xx`)}&ambassadorId=${encodeURIComponent('"><b>')}`);
    expect(forged.status).toBe(200);
    expect(forged.html).not.toContain('name="_ref"');
    expect(forged.html).not.toContain('<b>');
    // The ambassador id goes on as the form carries it (the form's server credits only a known one), never as markup.
    expect(forged.html).toContain('name="_ambassador" value="&quot;&gt;&lt;b&gt;"');
    expect(switchesOf(forged.html)[0]).toBe(`/schools/${school.path}?ambassadorId=%22%3E%3Cb%3E`);

    // The next parent writes from the Spanish page: attributed, in Spanish, to the record's address.
    const { school_contact_email: _address, ...values } = emailFormValues({
      school_name: NAME,
      _page: `/es/schools/${school.path}`,
      _locale: 'es',
      _school: school.key,
      _ref: code,
    });
    const response = await postForm('emailGenerator', values, { ip: '198.51.100.7' });
    expect(response.status).toBe(201);
    const draft = (await readDraft(((await response.json()) as { id: string }).id))!.draft;
    expect(draft.data.schoolContactEmail).toBe(SCHOOL);
    expect(draft.attribution).toEqual({ via: 'parent', referrerMessageId: school.message.id });
    expect(draft.locale).toBe('es');
  });

  test('without JavaScript, the Spanish form with problems comes back in Spanish, with the key and without the address', async () => {
    const school = await publishedSchool();
    const { school_contact_email: _address, ...values } = emailFormValues({
      _page: `/es/schools/${school.path}`,
      _locale: 'es',
      _school: school.key,
      full_name: '',
    });
    const response = await postForm('emailGenerator', values, { ip: '203.0.113.9', browser: true });
    const html = await response.text();
    expect(response.status).toBe(400);
    expect(html).toContain('<html lang="es">');
    expect(html).toContain(`name="_school" value="${school.key}"`);
    expect(html).toContain(`href="/es/schools/${school.path}"`);
    expect(html).not.toMatch(/springfield\.edu|name="school_contact_email"/);
  });
});

/** Where the page's suggestion of its other language leads, or undefined when it has none. */
const suggestionOf = (html: string) => {
  const tag = /<language-suggestion\b[\s\S]*?<\/language-suggestion>/.exec(html)?.[0];
  return tag && /<a [^>]*href="([^"]*)"[^>]*data-suggestion-link/.exec(tag)?.[1]?.replace(/&amp;/g, '&');
};

describe('the English page suggests the Spanish one', () => {
  test('“Esta página también está en español” leads to the school’s own Spanish page, never the frame’s; the Spanish page suggests nothing', async () => {
    const school = await publishedSchool();
    const en = await open(`/schools/${school.path}`);
    expect(en.html).toContain('Esta página también está en español.');
    expect(suggestionOf(en.html)).toBe(`/es/schools/${school.path}`);
    expect(en.html).not.toContain('/es/school-page');
    // By the bare key too: the page's own address, with its name.
    expect(suggestionOf((await open(`/schools/${school.key}`)).html)).toBe(`/es/schools/${school.path}`);
    expect(suggestionOf((await open(`/es/schools/${school.path}`)).html)).toBeUndefined();
  });

  test('a share link’s verified referral goes with it, as with the switch; a forged one does not, nor markup', async () => {
    const school = await publishedSchool();
    const code = referralCode(school.message.id)!;
    const shared = await open(`/schools/${school.path}?ref=${encodeURIComponent(code)}`);
    expect(suggestionOf(shared.html)).toBe(`/es/schools/${school.path}?ref=${encodeURIComponent(code)}`);
    const forged = await open(`/schools/${school.path}?ref=${encodeURIComponent(`${code.slice(0, -2)}xx`)}&ambassadorId=${encodeURIComponent('"><b>')}`);
    expect(suggestionOf(forged.html)).toBe(`/es/schools/${school.path}?ambassadorId=%22%3E%3Cb%3E`);
    expect(forged.html).not.toContain('<b>');
  });

  test('a school waiting for its first letter suggests its Spanish page too', async () => {
    const school = await verifiedSchool('office@pending.edu', 'Pending Prep');
    const en = await open(`/schools/${school.pageKey}`);
    expect(en.status).toBe(200);
    expect(suggestionOf(en.html)).toBe(`/es/schools/${school.slug}-${school.pageKey}`);
  });

  test.each([
    ['an unknown key', `/schools/${'0'.repeat(32)}`],
    ['a forged key', `/schools/springfield-academy-${'f'.repeat(31)}x`],
  ])('%s: no school, so no Spanish page to suggest', async (_name, path) => {
    const page = await open(path);
    expect(page.status).toBe(404);
    expect(page.html).not.toContain('<language-suggestion');
    expect(page.html).not.toContain('/es/school-page');
  });
});

describe('a Spanish page that is no school’s', () => {
  test.each([
    ['an unknown key', `/es/schools/${'0'.repeat(32)}`],
    ['a forged key', `/es/schools/springfield-academy-${'f'.repeat(31)}x`],
    ['a key with odd characters', `/es/schools/${'%3Cb%3E'.repeat(6)}-%E0%0D%0A`],
    ['a 10 KB key', `/es/schools/${'a'.repeat(10_240)}`],
    ['nothing after /es/schools/', '/es/schools/'],
  ])('%s: the Spanish 404 that offers the Spanish form, echoing nothing', async (_name, path) => {
    const page = await open(path);
    expect(page.status).toBe(404);
    expect(page.html).toContain('<html lang="es">');
    expect(page.html).toContain('<title>Página de escuela no encontrada | Mastery Parents</title>');
    const text = textOf(page.html);
    expect(text).toContain('No encontramos la página de esta escuela');
    expect(text).toContain('Puede que el enlace se haya cortado al copiarlo.');
    expect(text).not.toMatch(/We could not find|cut short/);
    // The frame's own (Spanish) form.
    expect(page.html).toContain('<input type="hidden" name="_locale" value="es">');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.html).not.toMatch(/<b>|%3Cb|aaaaaaaaaaaaaaaaaaaa|fffffffffffffff/i);
    expect(page.html).not.toMatch(/\bat .+\.(?:ts|mts|js):\d+|Error:|stack/i);
    expect(alternatesOf(page.html)).toEqual({});
  });

  test('a proposed (unverified) school’s key opens nothing in Spanish either', async () => {
    const proposal = await proposeSchool({ kind: 'letter', address: 'head@typed-academy.example', name: 'Typed Academy', timeZone: 'UTC' });
    expect((await open(`/es/schools/${proposal.pageKey}`)).status).toBe(404);
  });

  test('POST is refused with 405, as on the English page', async () => {
    const response = await schoolPage(new Request(`${ORIGIN}/es/schools/${'0'.repeat(32)}`, { method: 'POST' }));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
  });

  test('an English-only school (as every school is: its name and letters English) still has its Spanish page in the Spanish frame', async () => {
    // A school whose every letter was English, and whose name is English.
    const school = await verifiedSchool('office@elmwood.edu', 'Elmwood Day School');
    await deliveredLetter('english-parent@example.org', 'office@elmwood.edu', { schoolName: 'Elmwood Day School' });
    const page = await open(`/es/schools/${school.pageKey}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('<html lang="es">');
    expect(textOf(page.html)).toContain('1 padre o madre ha escrito');
    expect(textOf(page.html)).toContain('Elmwood Day School todavía no ha respondido');
  });
});

describe('a Spanish parent is given the Spanish page', () => {
  test('the share link of a Spanish parent’s letter is /es/schools/…; an English parent’s stays /schools/…', async () => {
    const school = await verifiedSchool(SCHOOL, NAME);
    const es = await deliveredLetter(`ana${++seq}@example.org`, SCHOOL, { schoolName: NAME, locale: 'es' });
    const en = await deliveredLetter(`ben${++seq}@example.org`, SCHOOL, { schoolName: NAME });
    const spanish = new URL((await shareOf(es))!.url);
    expect(spanish.pathname).toBe(`/es/schools/${school.slug}-${school.pageKey}`);
    expect(spanish.searchParams.get('ref')).toBe(referralCode(es.id));
    expect(new URL((await shareOf(en))!.url).pathname).toBe(`/schools/${school.slug}-${school.pageKey}`);
    // Whatever language the letter itself is in: the parent's is the page's.
    const englishLetter = await deliveredLetter(`cam${++seq}@example.org`, SCHOOL, { schoolName: NAME, locale: 'es', letterLocale: 'en' });
    expect(new URL((await shareOf(englishLetter))!.url).pathname).toMatch(/^\/es\/schools\//);
    expect((await open(spanish.pathname + spanish.search)).status).toBe(200);
  });

  test('/confirm-send after a Spanish draft offers the Spanish page to share, in Spanish words', async () => {
    const school = await verifiedSchool('head@lincoln.edu', 'Lincoln High');
    const id = `sub-es-${Date.now()}-${++seq}`;
    const { token } = await createDraft({
      id,
      purpose: 'emailGenerator',
      values: emailFormValues({
        school_contact_email: 'head@lincoln.edu',
        school_name: 'Lincoln High',
        choose_how_to_send_your_email: 'Send via our platform',
      }),
      locale: 'es',
    });
    const requested = await call(sendEmail, jsonRequest('/api/send-email', { submissionId: id, token }));
    expect(requested.status).toBe(202);
    const link = confirmationLink((await readMessage(requested.body.id))!.message)!;
    const response = await confirmSend(
      new Request(`${ORIGIN}/confirm-send`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `token=${encodeURIComponent(new URL(link).searchParams.get('token')!)}`,
      }),
    );
    const html = await response.text();
    expect(response.status).toBe(200);
    const url = new URL(/data-share-url="([^"]+)"/.exec(html)![1]!.replace(/&amp;/g, '&'));
    expect(url.pathname).toBe(`/es/schools/lincoln-high-${school.pageKey}`);
    expect(html).toContain('Sume a los otros padres de Lincoln High');
    // The message no longer says the page is English: it is Spanish now.
    expect(html).not.toMatch(/en inglés/);
    expect(html).toMatch(/href="https:\/\/wa\.me\/\?text=[^"]*%2Fes%2Fschools%2F/);
  });

  test('a school update to a Spanish parent links the Spanish page; an English parent’s the English one', async () => {
    const school = await verifiedSchool(SCHOOL, NAME);
    const reporter = await deliveredLetter(`reporter${++seq}@example.org`, SCHOOL, { schoolName: NAME });
    const spanish = await deliveredLetter(`ana${++seq}@example.org`, SCHOOL, { schoolName: NAME, locale: 'es' });
    const english = await deliveredLetter(`ben${++seq}@example.org`, SCHOOL, { schoolName: NAME });
    // The reporter says the school agreed to meet; staff approve it; the others hear it.
    const token = new URL(answerLink(reporter.id, reporter.followUp!.dueAt)).searchParams.get('token')!;
    const answered = await schoolAnswer(
      new Request(`${ORIGIN}/school-answer`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token, seen: '', comment: '', answer: 'meeting' }),
      }),
    );
    expect(answered.status).toBe(200);
    for (const item of await query<{ id: string }>(sql`SELECT id FROM review_items WHERE message_id = ${reporter.id} AND state = 'pending'`))
      await decideReview(item.id, 'approved', 'staff@example.org');
    await runSchoolUpdates();
    await runMail();
    const page = `${school.slug}-${school.pageKey}`;
    const news = mail.last(spanish.parentEmail, /^Noticias de /);
    expect(news?.text).toContain(`${NAME} aceptó reunirse`);
    expect(linkIn(news, '/es/schools/')).toBe(`${ORIGIN}/es/schools/${page}`);
    const englishNews = mail.last(english.parentEmail, /^News from /);
    expect(linkIn(englishNews, '/schools/')).toBe(`${ORIGIN}/schools/${page}`);
    expect(englishNews?.text).not.toContain('/es/schools/');
  });

  test('the notice that a Spanish letter went with others links the Spanish page', async () => {
    const school = await verifiedSchool(SCHOOL, NAME);
    const spanish = await deliveredLetter(`ana${++seq}@example.org`, SCHOOL, { schoolName: NAME, locale: 'es' });
    await emailDigestNotice(spanish, 3, { key: school.pageKey, slug: school.slug });
    await runMail();
    const notice = mail.last(spanish.parentEmail, /^Su carta llegó a /);
    expect(linkIn(notice, '/es/schools/')).toBe(`${ORIGIN}/es/schools/${school.slug}-${school.pageKey}`);
  });
});

describe('figures and experiments as on the English page', () => {
  test('a visit to a Spanish school page counts for its school, under its language', () => {
    const key = '0123456789abcdef0123456789abcdef';
    expect(countedPage(`/es/schools/springfield-academy-${key}`)).toEqual({ page: '/es/schools/*', school: key });
    expect(countedPage(`/es/schools/${key}`)).toEqual({ page: '/es/schools/*', school: key });
    expect(countedPage(`/schools/${key}`)).toEqual({ page: '/schools/*', school: key });
    expect(countedPage('/es/schools/not-a-key')).toEqual({ page: 'other' });
  });

  test('the call to action’s experiment (English words) is kept off the Spanish page: its own words, no variant, no exposure, cached', async () => {
    const school = await publishedSchool();
    const cookie = await signIn();
    expect(
      (await callAdmin(experimentsAdmin, '/api/admin/experiments', { method: 'POST', cookie, body: { place: 'school-page-cta', name: 'CTA' } })).status,
    ).toBe(201);
    const browser = {
      'user-agent': AGENT,
      'x-nf-client-connection-ip': '198.51.100.4',
      'sec-fetch-site': 'none',
      'sec-fetch-mode': 'navigate',
      'accept-language': 'es-US',
    };
    const exposures = async () => (await query<{ n: number }>(sql`SELECT count(*)::int AS n FROM experiment_exposures`))[0]!.n;
    const es = await open(`/es/schools/${school.path}`, browser);
    expect(es.html).not.toContain('data-experiment');
    expect(textOf(es.html)).toContain(`Sume su voz. Escriba a ${NAME} en dos minutos`);
    expect(es.headers.get('cache-control')).toBe(schoolPageCacheHeaders['Cache-Control']);
    expect(await exposures()).toBe(0);
    // The English page is in the experiment as before.
    const en = await open(`/schools/${school.path}`, browser);
    expect(en.html).toMatch(/data-experiment="[^"]+" data-variant="[a-z]+"/);
    expect(en.headers.get('cache-control')).toBe('no-store');
    expect(await exposures()).toBe(1);
  });
});
