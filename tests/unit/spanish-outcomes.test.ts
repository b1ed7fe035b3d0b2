/**
 * Every page a parent's letter link opens, in the language they wrote in (issue 48): each
 * /confirm-send outcome and /your-email are Spanish for a parent whose stored letter (or draft) is
 * Spanish, English for the others as before, decided by the record and never by the address (a
 * `lang` someone adds to another parent's link changes nothing), and no page ever shows a key.
 */
import { describe, expect, test } from 'vitest';
import confirmSend from '../../netlify/functions/confirm-send.mts';
import sendEmail from '../../netlify/functions/send-email.mts';
import yourEmail from '../../netlify/functions/your-email.mts';
import type { Locale } from '../../src/config/locales';
import { query, sql } from '../../src/server/db';
import { createDraft } from '../../src/server/letter/drafts';
import type { OutboxMessage } from '../../src/server/letter/outbox';
import type { ConfirmOutcome } from '../../src/server/letter/request';
import { confirmSendPage } from '../../src/server/pages/confirm-send';
import { linkIn, tokenOf } from './helpers/mail';
import { jsonRequest } from './helpers/requests';
import { regionText } from './helpers/site';
import { useMailedSite } from './helpers/mailed-site';

const site = useMailedSite();
let seq = 0;

/** Words an English page has and a Spanish one must not (the letter, names and addresses aside). */
const english = /\b(the|your|you|letter|email|send|sent|link|thank)\b/i;
/** A key or a placeholder left in a page. */
const unfilled = /confirmSend\.|yourEmail\.|emailDialog\.|\{\w+\}/;

const textOf = (html: string) =>
  html
    .replace(/<textarea[^>]*>[\s\S]*?<\/textarea>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&[a-z#0-9]+;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** A stored letter of a parent who wrote in `locale` (their letter in the same language). */
function letter(locale: Locale, patch: Partial<OutboxMessage> = {}): OutboxMessage {
  return {
    id: 'msg-outcomes-1',
    draftId: 'draft-outcomes-1',
    channel: 'platform',
    status: 'expired',
    createdAt: '2026-05-01T10:00:00.000Z',
    updatedAt: '2026-05-01T10:00:00.000Z',
    parentEmail: 'ana@example.org',
    parentName: 'Ana López',
    schoolName: 'Oakwood Academy',
    to: 'head@oakwood.edu',
    toName: 'Dr. Patel',
    subject: locale === 'es' ? 'Cómo Oakwood Academy puede ofrecer el aprendizaje por dominio' : 'How Oakwood Academy can offer mastery learning',
    body: locale === 'es' ? 'Estimado/a Dr. Patel:\n\nMe llamo Ana López.' : 'Dear Dr. Patel,\n\nMy name is Ana López.',
    note: '',
    attempts: 0,
    nextAttemptAt: '2026-05-01T10:00:00.000Z',
    ...(locale === 'es' ? { locale: 'es' as const, letterLocale: 'es' as const } : {}),
    ...patch,
  };
}

const future = new Date(Date.now() + 3 * 24 * 3600_000).toISOString();
const past = '2026-01-15T10:00:00.000Z';

/** Each outcome but the request and its confirmation, as the parent's record gives it, with its Spanish and English titles and status. */
const outcomes: Array<{ name: string; outcome: (locale: Locale) => ConfirmOutcome; es: string; en: string; status: number; says?: RegExp }> = [
  { name: 'expired', outcome: (l) => ({ kind: 'expired', message: letter(l) }), es: 'Este enlace venció', en: 'This link has expired', status: 410 },
  {
    name: 'replaced',
    outcome: (l) => ({ kind: 'replaced', message: letter(l, { status: 'replaced' }) }),
    es: 'Usted confirmó una versión más nueva',
    en: 'You confirmed a newer version',
    status: 409,
  },
  {
    name: 'ended',
    outcome: (l) => ({
      kind: 'ended',
      message: letter(l, { status: 'withdrawn' }),
      reason: l === 'es' ? 'Nuestro equipo detuvo su carta antes de que saliera.' : 'Our team stopped your letter before it went.',
    }),
    es: 'Su carta no se envió',
    en: 'Your letter was not sent',
    status: 409,
  },
  {
    name: 'self_ready',
    outcome: (l) => ({ kind: 'self_ready', message: letter(l, { channel: 'self', status: 'awaiting_confirmation' }) }),
    es: '¿Envió su carta?',
    en: 'Did you send your letter?',
    status: 200,
    says: /Sí, la envié/,
  },
  {
    name: 'self_done',
    outcome: (l) => ({ kind: 'self_done', message: letter(l, { channel: 'self', status: 'sent' }) }),
    es: 'Gracias',
    en: 'Thank you',
    status: 200,
  },
  {
    name: 'bounced',
    outcome: (l) => ({ kind: 'bounced', message: letter(l, { status: 'bounced' }) }),
    es: 'Su carta no llegó',
    en: 'Your letter did not arrive',
    status: 409,
    says: /El servidor de correo de head@oakwood\.edu dijo que el buzón no existe/,
  },
  {
    name: 'bounced before (a blocked address)',
    outcome: (l) => ({ kind: 'bounced', message: letter(l, { status: 'bounced', lastError: 'address_blocked' }) }),
    es: 'Su carta no llegó',
    en: 'Your letter did not arrive',
    status: 409,
    says: /Las cartas a head@oakwood\.edu rebotaron antes/,
  },
  ...(
    [
      ['school_limit', {}, /Este contacto de la escuela ya recibió hoy el máximo/],
      ['parent_limit', {}, /Usted ya envió hoy el máximo/],
      ['address_blocked', {}, /Las cartas a head@oakwood\.edu rebotaron antes/],
      ['already_sent', {}, /Usted ya escribió a Oakwood Academy por nuestra plataforma/],
      ['already_sent', { earlierAt: past }, /Usted ya escribió a Oakwood Academy el 15 de enero de 2026/],
      ['already_sent', { earlierAt: future }, /Su carta anterior a Oakwood Academy está confirmada y sale el /],
    ] as const
  ).map(([refusal, confirmation, says]) => ({
    name: `refused (${refusal}${'earlierAt' in confirmation ? `, earlier ${confirmation.earlierAt === past ? 'sent' : 'waiting'}` : ''})`,
    outcome: (l: Locale): ConfirmOutcome => ({
      kind: 'refused',
      message: letter(l, { status: 'refused' as OutboxMessage['status'], confirmation: { expiresAt: future, ...confirmation } }),
      refusal,
    }),
    es: 'No enviamos este correo',
    en: 'We did not send this email',
    status: 409,
    says,
  })),
];

describe('/confirm-send: every outcome in the language of the stored letter', () => {
  test.each(outcomes)('$name: Spanish for a parent who wrote in Spanish', async ({ outcome, es, status, says }) => {
    const view = await confirmSendPage(outcome('es'), 'token-x');
    expect(view.locale).toBe('es');
    expect(view.status).toBe(status);
    expect(view.title).toBe(es);
    const text = textOf(view.content);
    if (says) expect(text).toMatch(says);
    expect(text).not.toMatch(unfilled);
    // The letter itself (a Spanish letter) aside, nothing is English.
    expect(text.replace(/Estimado\/a Dr\. Patel:|Me llamo Ana López\./g, '')).not.toMatch(english);
    // Its ways out lead to the Spanish pages, or say they are English.
    expect(view.content).not.toContain('href="/lead-the-change');
    expect(view.content).not.toContain('href="/nominate-school');
    expect(view.content).not.toMatch(/href="\/"/);
  });

  test.each(outcomes)('$name: English for an English parent, as before', async ({ outcome, en, status }) => {
    const view = await confirmSendPage(outcome('en'), 'token-x');
    expect(view.locale).toBe('en');
    expect(view.status).toBe(status);
    expect(view.title).toBe(en);
    expect(textOf(view.content)).not.toMatch(unfilled);
    expect(textOf(view.content)).not.toMatch(/\b(Su|Usted|Envíela|correo)\b/);
  });

  test('the English words are the ones the pages had', async () => {
    const expired = textOf((await confirmSendPage({ kind: 'expired', message: letter('en') }, 't')).content);
    expect(expired).toContain(
      'This link has expired Confirmation links work for three days, and nothing was sent. Fill in the form again to get a new link, or send the letter from your own email app. Send it yourself Your letter Select all of it and copy it into a new email.',
    );
    expect(expired).toContain('Open in my email app Gmail (opens in a new tab) Outlook (opens in a new tab) Write your email again Go to the home page');
    const refused = textOf((await confirmSendPage(outcomes.find((o) => o.name === 'refused (school_limit)')!.outcome('en'), 't')).content);
    expect(refused).toContain(
      'This school contact has already received the most emails our platform sends in one day. Please send yours from your own email app, or try again tomorrow.',
    );
    const self = textOf((await confirmSendPage({ kind: 'self_ready', message: letter('en', { channel: 'self' }) }, 't')).content);
    expect(self).toContain('Did you send your letter to Dr. Patel?');
    expect(self).toContain('Yes, I sent it');
  });

  test('the request and its confirmation, with the school’s page to share, are in the letter’s language (issue 48)', async () => {
    const share = { url: 'https://site.example/schools/oakwood-academy-abc?ref=r1', schoolName: 'Oakwood Academy', others: 2 };
    const experiment = { text: 'Parents at Oakwood Academy are asking. Join us:', experiment: { id: 'exp1', variant: 'count' } };
    const later = new Date(Date.now() + 2 * 24 * 3600_000).toISOString();
    const done = (l: Locale) => ({
      kind: 'done' as const,
      message: letter(l, { status: 'queued', delivery: { at: later, timeZone: 'America/New_York', state: 'scheduled' } }),
    });
    const es = await confirmSendPage(done('es'), 't', { ...share, text: experiment as never });
    const esText = textOf(es.content);
    expect(es.title).toBe('Su correo está confirmado');
    expect(esText).toContain('Gracias por confirmar. Su carta llega a Dr. Patel el');
    expect(esText).toContain('Su carta va en camino: 2 padres y madres escribieron a Oakwood Academy con usted.');
    expect(esText).toContain('Sume a los otros padres de Oakwood Academy');
    expect(esText).toContain('Mensaje de texto');
    // The message it shares is Spanish, not the English experiment's, and no part of it is marked English.
    expect(es.content).toContain(encodeURIComponent('Escribí a Oakwood Academy sobre el aprendizaje por dominio.'));
    expect(es.content).not.toContain('v=exp1.count');
    expect(es.content).not.toContain('lang="en"><p');
    expect(esText).not.toMatch(/Bring the other|Copy link|Text message|Your letter|Thank you/);
    expect(esText).not.toMatch(unfilled);
    const ready = textOf((await confirmSendPage({ kind: 'ready', message: letter('es', { status: 'awaiting_confirmation' }) }, 't')).content);
    expect(ready).toContain('Confirme su correo a Oakwood Academy');
    expect(ready).toContain('Enviar mi correo');
    // The English page as it was, the experiment's words and variant in its link.
    const en = await confirmSendPage(done('en'), 't', { ...share, text: experiment as never });
    const enText = textOf(en.content);
    expect(en.title).toBe('Your email is confirmed');
    expect(enText).toContain('Your letter is on its way: 2 parents have written to Oakwood Academy with you.');
    expect(enText).toContain('Bring the other parents at Oakwood Academy');
    expect(en.content).toContain('v=exp1.count');
    expect(en.content).toContain(encodeURIComponent('Parents at Oakwood Academy are asking. Join us:'));
  });

  test('a link that names no letter stays English: there is no record to say otherwise', async () => {
    const view = await confirmSendPage({ kind: 'invalid' }, '');
    expect(view.locale).toBe('en');
    expect(view.title).toBe('This link is not valid');
  });
});

/** A parent's request from a page in `locale`: their draft, and the token of their confirmation link. */
async function requested(locale: Locale): Promise<{ id: string; draftToken: string; link: string }> {
  const id = `sub-outcome-${Date.now()}-${++seq}`;
  const made = await createDraft({
    id,
    purpose: 'emailGenerator',
    values: {
      full_name: 'Ana López',
      email: `ana.outcome${seq}@example.org`,
      child_full_name: 'Leo López',
      child_grade: '5',
      school_name: 'Oakwood Academy',
      school_contact_name: 'Dr. Patel',
      school_contact_email: `head.outcome${seq}@oakwood.edu`,
      choose_how_to_send_your_email: 'Send via our platform',
    },
    locale,
    letterLocale: locale,
  });
  const response = await sendEmail(jsonRequest('/api/send-email', { submissionId: id, token: made.token }), { ip: `198.51.100.${seq}` } as never);
  expect(response.status).toBe(202);
  return { id, draftToken: made.token, link: tokenOf(linkIn(site.mail.last(made.draft.data.parentEmail)!, '/confirm-send')) };
}

const open = async (query: string) => {
  const response = await confirmSend(new Request(`http://localhost/confirm-send?${query}`));
  const html = await response.text();
  return { status: response.status, html, text: regionText(html) };
};

/** The parent's request waited past its three days. */
const expire = (draftId: string) =>
  query(sql`UPDATE outbox_messages SET record = jsonb_set(record, '{confirmation,expiresAt}', '"2020-01-01T00:00:00.000Z"') WHERE draft_id = ${draftId}`);

describe('/confirm-send decides by the record, not the address', () => {
  test('a Spanish parent’s expired link is a Spanish page in the Spanish frame', async () => {
    const { id, link } = await requested('es');
    await expire(id);
    const page = await open(`token=${encodeURIComponent(link)}`);
    expect(page.status).toBe(410);
    expect(page.html).toContain('<html lang="es">');
    expect(page.html).toContain('<title>Este enlace venció | Mastery Parents</title>');
    expect(page.text).toContain('Los enlaces para confirmar funcionan durante tres días');
    expect(page.text).toContain('Envíela usted');
    expect(page.html).toContain('href="/es/lead-the-change#email-form"');
    expect(page.text).not.toMatch(unfilled);
  });

  test('lang=es added to an English parent’s link changes nothing: the page stays English', async () => {
    const { id, link } = await requested('en');
    for (const flip of ['lang=es', 'locale=es', '_locale=es']) {
      const page = await open(`token=${encodeURIComponent(link)}&${flip}`);
      expect(page.html).toContain('<html lang="en">');
      expect(page.text).toContain('Confirm your email to Oakwood Academy');
    }
    await expire(id);
    const expired = await open(`token=${encodeURIComponent(link)}&lang=es`);
    expect(expired.html).toContain('<html lang="en">');
    expect(expired.text).toContain('This link has expired');
  });

  test('lang=en added to a Spanish parent’s link changes nothing either', async () => {
    const { link } = await requested('es');
    const page = await open(`token=${encodeURIComponent(link)}&lang=en`);
    expect(page.html).toContain('<html lang="es">');
    expect(page.text).toContain('Confirme su correo a Oakwood Academy');
  });
});

describe('/your-email in the language of the parent’s draft', () => {
  const get = async (path: string) => {
    const response = await yourEmail(new Request(`http://localhost${path}`));
    const html = await response.text();
    return { status: response.status, html, text: regionText(html) };
  };
  const post = async (fields: Record<string, string>) => {
    const response = await yourEmail(
      new Request('http://localhost/your-email', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      }),
      { ip: `198.51.100.${200 + (++seq % 50)}` },
    );
    const html = await response.text();
    return { status: response.status, html, text: regionText(html) };
  };
  async function drafted(locale: Locale, letterLocale: Locale = locale) {
    const id = `sub-your-email-${Date.now()}-${++seq}`;
    const made = await createDraft({
      id,
      purpose: 'emailGenerator',
      values: {
        full_name: 'Ana López',
        email: `ana.yours${seq}@example.org`,
        child_full_name: 'Leo López',
        child_grade: '5',
        school_name: 'Oakwood Academy',
        school_contact_name: 'Dr. Patel',
        school_contact_email: `head.yours${seq}@oakwood.edu`,
        choose_how_to_send_your_email: 'I will send it myself',
      },
      locale,
      letterLocale,
    });
    return { id, token: made.token, path: `/your-email?id=${encodeURIComponent(id)}&t=${encodeURIComponent(made.token)}` };
  }

  test('a Spanish parent’s email page is Spanish, in the Spanish frame; an English letter in it says so', async () => {
    const { path } = await drafted('es', 'en');
    const page = await get(path);
    expect(page.status).toBe(200);
    expect(page.html).toContain('<html lang="es">');
    expect(page.html).toContain('<title>Su correo está listo | Mastery Parents</title>');
    for (const words of [
      'Su correo está listo',
      'Corregir los datos',
      'Envíelo usted',
      'Abrir en mi aplicación de correo',
      'O deje que lo enviemos nosotros',
      'Agregue una nota personal',
      'Enviar por nuestra plataforma',
      'Ya lo envié yo',
      'Sus datos',
    ])
      expect(page.text).toContain(words);
    expect(page.html).toContain('data-email-text lang="en"');
    const own = page.html.replace(/<div[^>]*data-email-text[^>]*>[\s\S]*?<\/div>/, '');
    expect(textOf(own.slice(own.indexOf('form-response-title')))).not.toMatch(
      /Your Email is Ready|Send it yourself|Or let us send it|Edit details|Add a personal note/,
    );
    expect(page.text).not.toMatch(unfilled);
  });

  test('its Edit details is the Spanish form, posting its language', async () => {
    const { path } = await drafted('es');
    const page = await get(`${path}&edit=1`);
    expect(page.html).toContain('<html lang="es">');
    expect(page.text).toContain('Corrija sus datos');
    expect(page.text).toContain('Su nombre completo');
    expect(page.text).toContain('Volver a su correo');
    expect(page.html).toMatch(/name="_locale" value="es"/);
    expect(page.text).not.toMatch(unfilled);
  });

  test('asking the platform to send says, in Spanish, to check the inbox', async () => {
    const { id, token } = await drafted('es');
    const page = await post({ id, t: token, action: 'send', note: '', tz: '' });
    expect(page.status).toBe(200);
    expect(page.html).toContain('<html lang="es">');
    expect(page.text).toMatch(/Revise su correo: le enviamos un enlace a ana\.yours\d+@example\.org\. Ábralo dentro de tres días/);
    expect(page.text).toContain('Usted nos pidió enviar este correo.');
  });

  test('a note with a link is refused in Spanish', async () => {
    const { id, token } = await drafted('es');
    const page = await post({ id, t: token, action: 'send', note: 'Vean https://example.org', tz: '' });
    expect(page.status).toBe(400);
    expect(page.html).toContain('<title>Por favor, revise su nota | Mastery Parents</title>');
    expect(page.text).toContain('Por favor, no ponga enlaces en su nota');
  });

  test('lang=es added to an English parent’s link changes nothing', async () => {
    const { path } = await drafted('en');
    const page = await get(`${path}&lang=es`);
    expect(page.html).toContain('<html lang="en">');
    expect(page.text).toContain('Your Email is Ready');
    expect(page.text).toContain('Send it yourself');
    expect(page.html).not.toContain('data-email-text lang=');
  });

  test('a link that names no draft answers in the language it hints (tests/unit/spanish-your-email.test.ts)', async () => {
    const page = await get('/your-email?id=nothing-here-1&t=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA&lang=es');
    expect(page.status).toBe(404);
    expect(page.html).toContain('<html lang="es">');
    expect(page.text).toContain('Este enlace de su correo no es válido');
    const english = await get('/your-email?id=nothing-here-1&t=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    expect(english.html).toContain('<html lang="en">');
    expect(english.text).toContain('This email link is not valid');
  });
});
