/**
 * Every email to a parent in the language they wrote in (issue 48): the words of each kind a parent
 * gets in content/emails/es/, with the same placeholders as the English; the parent's language kept
 * with their request (migration 0036) so the confirmation, the reminder, the follow-ups and the
 * notices are Spanish; the letter to the school in the letter's own language.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import confirmSend from '../../netlify/functions/confirm-send.mts';
import sendEmail from '../../netlify/functions/send-email.mts';
import { parentKinds, placeholdersUsed, wordKinds, wordPlaceholders } from '../../src/lib/shared/email/mail-words';
import { query, sql } from '../../src/server/db';
import { createDraft } from '../../src/server/letter/drafts';
import { readMessage } from '../../src/server/letter/outbox';
import { endText } from '../../src/server/letter/notices';
import { allWords, composeEmail } from '../../src/server/mail/compose';
import { emailFollowUp } from '../../src/server/mail/notify';
import { linkIn, tokenOf } from './helpers/mail';
import { jsonRequest } from './helpers/requests';
import { useMailedSite } from './helpers/mailed-site';

describe('the words of every email a parent gets, in Spanish', () => {
  test('each kind a parent gets has its Spanish file, with exactly the English placeholders', async () => {
    const english = await allWords('en');
    const spanish = await allWords('es');
    expect([...spanish.keys()].sort()).toEqual([...parentKinds].sort());
    for (const kind of parentKinds) {
      expect(placeholdersUsed(spanish.get(kind)!), kind).toEqual(placeholdersUsed(english.get(kind)!));
      expect(spanish.get(kind)!.subject, kind).not.toBe(english.get(kind)!.subject);
    }
    // Staff, ambassadors and schools keep English: those kinds are not a parent's.
    expect(wordKinds.filter((kind) => !(parentKinds as readonly string[]).includes(kind)).sort()).toEqual([
      'abuse_alert',
      'ambassador_link',
      'school_digest',
      'staff_invitation',
    ]);
  });

  test.each(parentKinds)('%s in Spanish is rendered with every placeholder filled, in lang="es"', async (kind) => {
    const values = Object.fromEntries(Object.keys(wordPlaceholders[kind].placeholders).map((name) => [name, `«${name}»`]));
    const rendered = await composeEmail(kind, values, { actionUrl: 'https://site.example/x', reason: 'Razón.' }, 'es');
    expect(rendered.lang).toBe('es');
    expect(rendered.html).toMatch(/<html[^>]*lang="es"/);
    expect(`${rendered.subject}\n${rendered.text}`).not.toMatch(/\{[a-z_]+\}/);
    for (const name of placeholdersUsed((await allWords('es')).get(kind)!)) expect(`${rendered.subject}\n${rendered.text}`).toContain(`«${name}»`);
    const english = await composeEmail(kind, values, { actionUrl: 'https://site.example/x', reason: 'Reason.' });
    expect(english.lang).toBeUndefined();
    expect(rendered.subject).not.toBe(english.subject);
  });

  test('an email that is not a parent’s stays English even when asked in Spanish', async () => {
    const rendered = await composeEmail('staff_invitation', { role: 'staff', inviter: 'Ana', expires: '1 December 2026' }, { reason: 'x' }, 'es');
    expect(rendered.subject).toBe(
      (await composeEmail('staff_invitation', { role: 'staff', inviter: 'Ana', expires: '1 December 2026' }, { reason: 'x' })).subject,
    );
  });
});

describe('a parent who wrote in Spanish', () => {
  const site = useMailedSite();
  let seq = 0;

  async function ask(letterLocale: 'en' | 'es') {
    const id = `sub-es-${Date.now()}-${++seq}`;
    const made = await createDraft({
      id,
      purpose: 'emailGenerator',
      values: {
        full_name: 'Ana López',
        email: `ana.es${seq}@example.org`,
        child_full_name: 'Leo López',
        child_grade: '5',
        school_name: 'Oakwood Academy',
        school_contact_name: 'Dr. Patel',
        school_contact_email: `head${seq}@oakwood.edu`,
        choose_how_to_send_your_email: 'Send via our platform',
      },
      locale: 'es',
      letterLocale,
    });
    const response = await sendEmail(jsonRequest('/api/send-email', { submissionId: id, token: made.token }), { ip: `198.51.100.${seq}` } as never);
    const body = await response.json();
    expect([response.status, body]).toEqual([202, expect.anything()]);
    return { messageId: body.id as string, parent: made.draft.data.parentEmail, school: made.draft.data.schoolContactEmail };
  }

  test('their language is kept with the request, and the database holds only a known one', async () => {
    const { messageId } = await ask('en');
    expect((await readMessage(messageId))!.message.locale).toBe('es');
    expect(await query(sql`SELECT locale FROM outbox_messages WHERE id = ${messageId}`)).toEqual([{ locale: 'es' }]);
    await expect(query(sql`UPDATE outbox_messages SET locale = 'fr' WHERE id = ${messageId}`)).rejects.toThrow(/check/i);
    await expect(query(sql`UPDATE email_drafts SET locale = 'xx'`)).rejects.toThrow(/check/i);
  });

  test('the confirmation is Spanish, its links keep their language, and the letter goes to the school in English when they chose English', async () => {
    const { parent, school } = await ask('en');
    const email = site.mail.last(parent)!;
    expect(email.subject).toBe('Por favor, confirme su correo a su escuela');
    expect(email.text).toContain('Hola, Ana López:');
    expect(email.text).toMatch(/Funciona hasta el \d{1,2} de [a-z]+ de \d{4}\./);
    // Whom it goes to, in one phrase: the school was typed, so neither its name nor its contact's is
    // repeated ("a la escuela en su escuela" read before).
    expect(email.text).toContain('Usted pidió a Mastery Parents que enviara su carta a su escuela en su nombre.');
    // What was typed (this address is not the record's) reaches no one through {recipient}.
    expect(email.text).not.toMatch(/Oakwood|Patel/);
    expect(email.text).not.toMatch(/Hello|Please confirm|Your data \(/);
    expect(email.html).toContain('O abra este enlace:');
    expect(email.html).not.toContain('Or open this link');
    // The links written out break anywhere: a token never makes the email wider than a phone.
    for (const path of ['/confirm-send', '/your-data'])
      expect(email.html).toMatch(new RegExp(`<a href="[^"]*${path}[^"]*"[^>]*style="[^"]*word-break:break-all[^"]*"[^>]*>http`));
    expect(linkIn(email, '/your-data')).toMatch(/&lang=es$/);
    const page = await confirmSend(
      new Request('http://localhost/confirm-send', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `token=${encodeURIComponent(tokenOf(linkIn(email, '/confirm-send')))}&tz=`,
      }),
    );
    expect(page.status).toBe(200);
    const [letter] = site.mail.to(school);
    expect(letter?.subject).toBe('How our school can unlock mastery learning for every student');
    expect(letter?.text).toContain('Sent for Ana López by Mastery Parents.');
  });

  test('a Spanish letter reaches the school in Spanish', async () => {
    const { parent, school } = await ask('es');
    const email = site.mail.last(parent)!;
    await confirmSend(
      new Request('http://localhost/confirm-send', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `token=${encodeURIComponent(tokenOf(linkIn(email, '/confirm-send')))}&tz=`,
      }),
    );
    const [letter] = site.mail.to(school);
    // A typed school is never named in the subject the platform sends (the record's name only).
    expect(letter?.subject).toBe('Cómo nuestra escuela puede ofrecer el aprendizaje por dominio a cada alumno');
    expect(letter?.text).toContain('Estimado/a Dr. Patel:');
    expect(letter?.text).toContain('Enviada en nombre de Ana López por Mastery Parents.');
  });

  test('the follow-up and the “letter not sent” notice are Spanish', async () => {
    const { messageId, parent } = await ask('en');
    const { message } = (await readMessage(messageId))!;
    await emailFollowUp({ ...message, sentAt: '2026-11-20T10:00:00Z' }, 'follow_up', new Date().toISOString());
    await new Promise((resolve) => setTimeout(resolve, 50));
    const stored = await query<{ subject: string; text: string; lang: string | null }>(
      sql`SELECT content->>'subject' AS subject, content->>'text' AS text, content->>'lang' AS lang FROM emails WHERE id = ${`${messageId}.follow_up`}`,
    );
    expect(stored[0]).toMatchObject({ subject: '¿Le respondió su escuela?', lang: 'es' });
    expect(stored[0]!.text).toContain('El 20 de noviembre de 2026 su carta llegó a su escuela.');
    expect(stored[0]!.text).toContain('Dejar de recibir correos sobre su carta');
    expect(await endText({ ...message, lastError: 'staff' })).toBe('Nuestro equipo detuvo su carta antes de que saliera.');
    expect(parent).toMatch(/@example\.org$/);
  });
});

test('the migration keeps the language in one column per table, English for rows from before', () => {
  const migration = readFileSync('netlify/database/migrations/0036_parent_locale.sql', 'utf8');
  expect(migration).toMatch(/ALTER TABLE email_drafts ADD COLUMN locale text NOT NULL DEFAULT 'en' CHECK \(locale IN \('en', 'es'\)\)/);
  expect(migration).toMatch(/ALTER TABLE outbox_messages ADD COLUMN locale text NOT NULL DEFAULT 'en' CHECK \(locale IN \('en', 'es'\)\)/);
});
