/**
 * The pages of a parent's links about their letter, in the language they wrote in (issue 48): the
 * address correction after a bounce (/letter-address), and what /confirm-send and /letter-address
 * say when the link names no letter (cut short, forged), when it is opened the wrong way, or when
 * the request cannot be read. A letter's stored language decides; a link's `lang` is only a hint
 * for a page with no letter, and never changes what happens.
 */
import { beforeEach, describe, expect, test } from 'vitest';
import confirmSend from '../../netlify/functions/confirm-send.mts';
import letterAddress from '../../netlify/functions/letter-address.mts';
import mailDeliver from '../../netlify/functions/mail-deliver.mts';
import sendEmail from '../../netlify/functions/send-email.mts';
import { createDraft } from '../../src/server/letter/drafts';
import { readMessage } from '../../src/server/letter/outbox';
import { linkIn, tokenOf } from './helpers/mail';
import { MAILGUN_KEY, mailgunReport, permanentFailure, postMailgunReport } from './helpers/mailgun';
import { useMailedSite } from './helpers/mailed-site';
import { jsonRequest } from './helpers/requests';
import { regionText } from './helpers/site';

const site = useMailedSite();
let seq = 0;

beforeEach(() => {
  process.env.MAILGUN_WEBHOOK_SIGNING_KEY = MAILGUN_KEY;
  return () => {
    delete process.env.MAILGUN_WEBHOOK_SIGNING_KEY;
  };
});

/** What a function answered: status, the page's `lang`, its title and the text of its region. */
async function pageOf(response: Response) {
  const html = await response.text();
  return {
    status: response.status,
    lang: html.match(/<html[^>]*\blang="([^"]+)"/)?.[1],
    title: html.match(/<title>([^<]*)<\/title>/)?.[1],
    text: regionText(html),
    html,
  };
}

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

/** A letter a parent wrote from a Spanish page, confirmed and sent to `school`, then refused by its mail server for good. */
async function bouncedLetter(locale: 'en' | 'es') {
  const id = `sub-links-${Date.now()}-${++seq}`;
  const school = `gone-head${seq}@school.edu`;
  const made = await createDraft({
    id,
    purpose: 'emailGenerator',
    values: {
      full_name: 'Ana López',
      email: `ana.links${seq}@example.org`,
      child_full_name: 'Leo López',
      child_grade: '5',
      school_name: 'Oakwood Academy',
      school_contact_name: 'Dr. Patel',
      school_contact_email: school,
      choose_how_to_send_your_email: 'Send via our platform',
    },
    locale,
    letterLocale: 'en',
  });
  const asked = await sendEmail(jsonRequest('/api/send-email', { submissionId: id, token: made.token }), { ip: `198.51.100.${seq}` } as never);
  const { id: messageId } = (await asked.json()) as { id: string };
  const parent = made.draft.data.parentEmail;
  const confirmLink = linkIn(site.mail.last(parent)!, '/confirm-send');
  await confirmSend(new Request('https://site.example/confirm-send', form({ token: tokenOf(confirmLink), tz: 'Europe/London' })));
  await mailDeliver();
  const sent = site.mail.to(school).at(-1)!;
  await postMailgunReport(mailgunReport(sent.messageId.replace(/^<|>$/g, ''), permanentFailure('bounce', 550, '5.1.1 No such user')));
  await mailDeliver();
  expect((await readMessage(messageId))!.message.status).toBe('bounced');
  return { messageId, parent, school, confirmLink };
}

describe('the address correction of a letter written in Spanish', () => {
  test('the "did not arrive" email leads to a Spanish page, whose form, problems and outcome are Spanish', async () => {
    const { parent, school } = await bouncedLetter('es');
    const email = site.mail.last(parent)!;
    const link = linkIn(email, '/letter-address');
    expect(link).toMatch(/&lang=es$/);

    const shown = await pageOf(await letterAddress(new Request(link)));
    expect([shown.status, shown.lang]).toEqual([200, 'es']);
    expect(shown.text).toContain('Su carta no llegó');
    expect(shown.text).toContain(`El servidor de correo de ${school} rechazó su carta a Oakwood Academy.`);
    expect(shown.html).toContain('El correo electrónico correcto del contacto de la escuela');
    expect(shown.html).toContain('action="/letter-address?lang=es"');
    expect(shown.text).not.toMatch(/did not arrive|Enter the right address|Send my letter/);

    const post = (address: string, token = tokenOf(link)) =>
      letterAddress(new Request('https://site.example/letter-address?lang=es', form({ token, address, tz: 'Europe/London' }))).then(pageOf);
    const malformed = await post('no es una dirección');
    expect([malformed.status, malformed.lang]).toEqual([400, 'es']);
    expect(malformed.text).toContain('Escriba el correo electrónico de la escuela');
    expect(malformed.html).toContain('aria-invalid="true"');
    expect((await post(school.toUpperCase())).text).toContain('Esta es la dirección de la que rebotó la carta');

    const sent = await post(`new-head${seq}@school.edu`);
    expect([sent.status, sent.lang]).toEqual([200, 'es']);
    expect(sent.text).toContain('Su carta va en camino otra vez');
    expect(sent.text).toMatch(/(Nuestra plataforma envió su carta a|Su carta (sale hacia|llega a)) new-head\d+@school\.edu/);

    const again = await post(`other-head${seq}@school.edu`);
    expect([again.status, again.lang]).toEqual([409, 'es']);
    expect(again.text).toContain(`Su carta salió de nuevo, a new-head${seq}@school.edu`);
  });

  test('the letter decides, not the link: an English letter opened with lang=es is English, a Spanish one without lang is Spanish', async () => {
    const english = await bouncedLetter('en');
    const englishLink = linkIn(site.mail.last(english.parent)!, '/letter-address');
    expect(englishLink).not.toContain('lang=');
    const forcedSpanish = await pageOf(await letterAddress(new Request(`${englishLink}&lang=es`)));
    expect([forcedSpanish.lang, forcedSpanish.text.includes('Your letter did not arrive')]).toEqual(['en', true]);

    const spanish = await bouncedLetter('es');
    const bare = linkIn(site.mail.last(spanish.parent)!, '/letter-address').replace(/&lang=es$/, '');
    const shown = await pageOf(await letterAddress(new Request(bare)));
    expect([shown.lang, shown.text.includes('Su carta no llegó')]).toEqual(['es', true]);
  });

  test('a confirmation link of a Spanish letter carries lang=es', async () => {
    const { confirmLink } = await bouncedLetter('es');
    expect(confirmLink).toMatch(/&lang=es$/);
  });
});

describe('a link that names no letter follows its lang', () => {
  test.each([
    ['/letter-address', letterAddress, 'Este enlace no es válido', 'This link is not valid'],
    ['/confirm-send', confirmSend, 'Este enlace no es válido', 'This link is not valid'],
  ])('%s with a token cut short: 404 in Spanish with lang=es, in English without, and an unknown lang is English', async (path, handler, spanish, english) => {
    const cut = `https://site.example${path}?token=abc.def`;
    const es = await pageOf(await handler(new Request(`${cut}&lang=es`)));
    expect([es.status, es.lang, es.title]).toEqual([404, 'es', `${spanish} | Mastery Parents`]);
    expect(es.html).toContain('href="/es"');
    const en = await pageOf(await handler(new Request(cut)));
    expect([en.status, en.lang, en.title]).toEqual([404, 'en', `${english} | Mastery Parents`]);
    for (const odd of ['fr', 'ES', 'es%00', '<script>']) {
      const page = await pageOf(await handler(new Request(`${cut}&lang=${odd}`)));
      expect([page.status, page.lang], odd).toEqual([404, 'en']);
    }
  });

  test.each([
    ['/letter-address', letterAddress, 'Abra el enlace de su correo para corregir la dirección.'],
    ['/confirm-send', confirmSend, 'Abra el enlace de su correo para confirmar su correo.'],
  ])('%s: another method is a Spanish 405 naming what it allows; an unreadable post a Spanish 4xx', async (path, handler, notAvailable) => {
    const put = await handler(new Request(`https://site.example${path}?lang=es`, { method: 'PUT' }));
    expect(put.headers.get('allow')).toBe('GET, POST');
    const shown = await pageOf(put);
    expect([shown.status, shown.lang, shown.text.includes(notAvailable)]).toEqual([405, 'es', true]);

    const huge = await pageOf(
      await handler(new Request(`https://site.example${path}?lang=es`, form({ token: 'x', address: 'a@b.org', pad: 'x'.repeat(20_000) }))),
    );
    expect(huge.status).toBeGreaterThanOrEqual(400);
    expect(huge.status).toBeLessThan(500);
    expect(huge.lang).toBe('es');
    expect(huge.text).not.toMatch(/[A-Z][a-z]+Error|at .+\.ts:\d+/);
  });
});
