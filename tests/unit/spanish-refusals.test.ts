/**
 * What the server refuses while a parent asks, in the language they wrote in (issue 48): "Send via
 * our platform" and "I've sent it myself" (the dialog shows the answer's message, /your-email too),
 * and a block staff set, also on the Spanish form. The language is the draft's, never the
 * request's: the same refusal for an English draft stays English.
 */
import { describe, expect, test } from 'vitest';
import emailSentMyself from '../../netlify/functions/email-sent-myself.mts';
import sendEmail from '../../netlify/functions/send-email.mts';
import yourEmail from '../../netlify/functions/your-email.mts';
import type { Locale } from '../../src/config/locales';
import { addBlock } from '../../src/server/abuse/blocks';
import { query, sql } from '../../src/server/db';
import { exactAddressKey, networkKey } from '../../src/server/identity';
import { createDraft } from '../../src/server/letter/drafts';
import { REQUESTS_PER_NETWORK_DAY } from '../../src/server/letter/send-limits';
import { jsonRequest } from './helpers/requests';
import { useMailedSite } from './helpers/mailed-site';

useMailedSite();
let seq = 0;

/** Words of an English refusal a Spanish one must not have. */
const english = /\b(the|your|you|email|send|sent|please|this)\b/i;
const unfilled = /refusals\.|confirmSend\.|\{\w+\}/;

async function draftIn(locale: Locale, patch: { held?: boolean; school?: string; parent?: string } = {}) {
  seq += 1;
  const id = `draft-refusal-${seq}`;
  const made = await createDraft({
    id,
    purpose: 'emailGenerator',
    values: {
      full_name: 'Ana López',
      email: patch.parent ?? `ana.refusal${seq}@example.org`,
      child_full_name: 'Leo López',
      child_grade: '5',
      school_name: 'Oakwood Academy',
      school_contact_name: 'Dr. Patel',
      school_contact_email: patch.school ?? `head.refusal${seq}@oakwood.edu`,
      choose_how_to_send_your_email: 'Send via our platform',
    },
    locale,
    letterLocale: locale,
    ...(patch.held ? { held: true } : {}),
  });
  return { id, token: made.token, parent: made.draft.data.parentEmail };
}

const ip = () => `198.51.100.${100 + (seq % 100)}`;

async function ask(kind: 'platform' | 'self', draft: { id: string; token: string }, from = ip()) {
  const fn = kind === 'platform' ? sendEmail : emailSentMyself;
  const path = kind === 'platform' ? '/api/send-email' : '/api/email-sent-myself';
  const response = await fn(jsonRequest(path, { submissionId: draft.id, token: draft.token }), { ip: from } as never);
  return { status: response.status, body: (await response.json()) as { error?: { code: string; message: string } } };
}

function expectSpanish(message: string | undefined, says: RegExp) {
  expect(message).toMatch(says);
  expect(message).not.toMatch(english);
  expect(message).not.toMatch(unfilled);
}

describe('refusals while a Spanish parent asks are Spanish; an English parent’s stay English', () => {
  test('asking twice: "already asked"', async () => {
    for (const [locale, says] of [
      ['es', /Usted ya nos pidió enviar este correo/],
      ['en', /You have already asked us to send this email/],
    ] as const) {
      const draft = await draftIn(locale);
      expect((await ask('platform', draft)).status).toBe(202);
      const again = await ask('platform', draft);
      expect(again).toMatchObject({ status: 409, body: { error: { code: 'already_requested' } } });
      if (locale === 'es') expectSpanish(again.body.error?.message, says);
      else expect(again.body.error?.message).toMatch(says);
    }
  });

  test('a form held for review', async () => {
    const answer = await ask('platform', await draftIn('es', { held: true }));
    expect(answer).toMatchObject({ status: 409, body: { error: { code: 'held_for_review' } } });
    expectSpanish(answer.body.error?.message, /No pudimos aceptar esta solicitud automáticamente/);
    const self = await ask('self', await draftIn('es', { held: true }));
    expectSpanish(self.body.error?.message, /No pudimos aceptar esta solicitud automáticamente/);
  });

  test('a school address that bounced before names the address, in Spanish', async () => {
    const school = `gone.refusal${seq}@oakwood.edu`;
    await query(
      sql`INSERT INTO email_suppressions (recipient_key, reason, masked, created_at, expires_at) VALUES (${exactAddressKey(school)}, 'bounced', 'g***@oakwood.edu', now(), now() + interval '180 days')`,
    );
    const answer = await ask('platform', await draftIn('es', { school }));
    expect(answer).toMatchObject({ status: 409, body: { error: { code: 'address_blocked' } } });
    expectSpanish(answer.body.error?.message, new RegExp(`Las cartas a ${school.replace(/\./g, '\\.')} rebotaron antes`));
  });

  test('a network past its day’s bound: asking and reporting', async () => {
    const from = '203.0.113.77';
    await query(
      sql`INSERT INTO send_request_days (scope, day, requests, cap) VALUES (${`network:${networkKey(from)}`}, ${new Date().toISOString().slice(0, 10)}, ${REQUESTS_PER_NETWORK_DAY}, ${REQUESTS_PER_NETWORK_DAY})`,
    );
    for (const kind of ['platform', 'self'] as const) {
      const answer = await ask(kind, await draftIn('es'), from);
      expect(answer).toMatchObject({ status: 429, body: { error: { code: 'network_busy' } } });
      expectSpanish(answer.body.error?.message, /Muchas cartas pedidas hoy desde esta conexión/);
    }
    expect((await ask('platform', await draftIn('en'), from)).body.error?.message).toMatch(/^Many letters asked for from this internet connection/);
  });

  test('a block staff set: Spanish for a Spanish draft, on the platform, the self-report and /your-email', async () => {
    await addBlock({ kind: 'domain', value: 'blocked-refusal.example', reason: 'a burst of test requests' }, 'staff');
    const spanish = await draftIn('es', { parent: 'ana@blocked-refusal.example' });
    for (const kind of ['platform', 'self'] as const) {
      const answer = await ask(kind, spanish);
      expect(answer).toMatchObject({ status: 403, body: { error: { code: 'blocked' } } });
      expectSpanish(answer.body.error?.message, /Nuestro equipo pausó las solicitudes con direcciones de correo de este dominio/);
    }
    // The page without script says the same, in its Spanish frame.
    const page = await yourEmail(
      new Request('http://localhost/your-email', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-nf-client-connection-ip': ip() },
        body: new URLSearchParams({ id: spanish.id, t: spanish.token, action: 'send' }),
      }),
      { ip: ip() } as never,
    );
    const html = await page.text();
    expect(html).toContain('<html lang="es"');
    expect(html).toContain('Nuestro equipo pausó las solicitudes');
  });
});

describe('a busy mailbox’s gathered confirmations (issue 48)', () => {
  test('a Spanish parent’s requests past the day’s ceiling wait in one Spanish email, each with its own link', async () => {
    const parent = `ana.gathered${++seq}@example.org`;
    for (let n = 0; n < 8; n++) expect((await ask('platform', await draftIn('es', { parent }), `203.0.${120 + n}.9`)).status).toBe(202);
    const [gathered] = await query<{ subject: string; text: string }>(
      sql`SELECT content->>'subject' AS subject, content->>'text' AS text FROM emails WHERE kind = 'confirmation' AND coalesce_key IS NOT NULL AND recipient = ${parent}`,
    );
    expect(gathered).toBeDefined();
    expect(gathered!.text).toMatch(/Carta 1: confirme su carta a .+: https:\/\/site\.example\/confirm-send\?token=/);
    expect(gathered!.text).toMatch(/Carta 2: confirme su carta a /);
    expect(gathered!.text).toContain('No se envía nada a menos que usted confirme cada una con su propio enlace.');
    expect(gathered!.text).toMatch(/enviara su carta a los contactos en \d escuelas en su nombre/);
    expect(gathered!.text).not.toMatch(/Letter \d|confirm your letter|Nothing is sent/);
  });
});
