/**
 * The pages a function answers a parent who wrote in Spanish (issue 48): the confirmation of their
 * letter (/confirm-send) in Spanish, with `lang="es"` and the Spanish frame, the same behaviour.
 */
import { describe, expect, test } from 'vitest';
import confirmSend from '../../netlify/functions/confirm-send.mts';
import sendEmail from '../../netlify/functions/send-email.mts';
import yourDataFunction from '../../netlify/functions/your-data.mts';
import { dataPath } from '../../src/server/links';
import { createDraft } from '../../src/server/letter/drafts';
import { linkIn, tokenOf } from './helpers/mail';
import { jsonRequest } from './helpers/requests';
import { regionText } from './helpers/site';
import { useMailedSite } from './helpers/mailed-site';

const site = useMailedSite();
let seq = 0;

/** A parent's request from a page in `locale`: the token of the link their confirmation email carries. */
async function requested(locale: 'en' | 'es'): Promise<string> {
  const id = `sub-page-${Date.now()}-${++seq}`;
  const made = await createDraft({
    id,
    purpose: 'emailGenerator',
    values: {
      full_name: 'Ana López',
      email: `ana.page${seq}@example.org`,
      child_full_name: 'Leo López',
      child_grade: '5',
      school_name: 'Oakwood Academy',
      school_contact_name: 'Dr. Patel',
      school_contact_email: `head.page${seq}@oakwood.edu`,
      choose_how_to_send_your_email: 'Send via our platform',
    },
    locale,
    letterLocale: locale,
  });
  const response = await sendEmail(jsonRequest('/api/send-email', { submissionId: id, token: made.token }), { ip: `203.0.113.${seq}` } as never);
  expect(response.status).toBe(202);
  return tokenOf(linkIn(site.mail.last(made.draft.data.parentEmail)!, '/confirm-send'));
}

const open = async (token: string) => {
  const response = await confirmSend(new Request(`http://localhost/confirm-send?token=${encodeURIComponent(token)}`));
  const html = await response.text();
  return { status: response.status, html, text: regionText(html) };
};
const press = async (token: string) => {
  const response = await confirmSend(
    new Request('http://localhost/confirm-send', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `token=${encodeURIComponent(token)}&tz=`,
    }),
  );
  const html = await response.text();
  return { status: response.status, html, text: regionText(html) };
};

test('a Spanish parent’s confirmation page is Spanish, in the Spanish frame, and sends nothing until they press', async () => {
  const token = await requested('es');
  const page = await open(token);
  expect(page.status).toBe(200);
  expect(page.html).toContain('<html lang="es">');
  expect(page.html).toContain('<title>Confirme su correo | Mastery Parents</title>');
  expect(page.text).toContain('Confirme su correo a Oakwood Academy');
  expect(page.text).toContain('Para:');
  expect(page.text).toContain('Estimado/a Dr. Patel:');
  expect(page.text).toContain('Enviar mi correo');
  expect(page.text).toContain('Sus datos');
  expect(page.html).toMatch(/href="\/your-data\?token=[^"]+&amp;lang=es"/);
  expect(page.text).not.toMatch(/Confirm your email|Send my email|Your data/);
  const done = await press(token);
  expect(done.status).toBe(200);
  expect(done.html).toContain('<html lang="es">');
  expect(done.text).toMatch(/Su correo (fue enviado|está confirmado)/);
  expect(done.text).toContain('Ir a la página principal');
  expect(done.text).not.toMatch(/Your email|Thank you/);
});

test('an English parent’s page stays English', async () => {
  const token = await requested('en');
  const page = await open(token);
  expect(page.html).toContain('<html lang="en">');
  expect(page.text).toContain('Confirm your email to Oakwood Academy');
  expect((await press(token)).text).toMatch(/Your email has been sent|Your email is confirmed/);
});

describe('“Your data” for a Spanish parent', () => {
  const yourData = async (request: Request) => {
    const response = await yourDataFunction(request);
    const html = await response.text();
    return { status: response.status, html, text: regionText(html) };
  };
  const postForm = (fields: Record<string, string>) =>
    yourData(
      new Request('http://localhost/your-data', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      }),
    );

  test('they see, review and delete their data in Spanish, with the same steps', async () => {
    await requested('es');
    const email = `ana.page${seq}@example.org`;
    const link = dataPath(email, { locale: 'es' });
    expect(link).toMatch(/&lang=es$/);
    const seen = await yourData(new Request(`http://localhost${link}`));
    expect(seen.status).toBe(200);
    expect(seen.html).toContain('<html lang="es">');
    expect(seen.text).toContain(`Esto es todo lo que nuestro sitio guarda sobre ${email}`);
    expect(seen.text).toContain('Sus correos a la escuela');
    expect(seen.text).toContain('Descargar mis datos (JSON)');
    // The details too (issue 48): where the letter stands, to whom, when, and how they came.
    expect(seen.text).toContain('A Dr. Patel en Oakwood Academy');
    expect(seen.text).toContain('Esperando que usted la confirme desde su bandeja de entrada');
    expect(seen.text).toMatch(/Para Oakwood Academy, \d{1,2} de [a-z]+ de \d{4}/);
    expect(seen.html).toContain('href="/es/faqs"');
    expect(seen.text).not.toMatch(/\b(To|For|Waiting|Page|came from|No comment)\b|yourData\.|\{\w+\}/);
    const token = new URL(link, 'http://localhost').searchParams.get('token')!;
    const review = await postForm({ action: 'review', token, lang: 'es' });
    expect(review.html).toContain('<html lang="es">');
    expect(review.text).toContain('¿Eliminar sus datos?');
    const deleteToken = /name="token" value="([^"]+)"><input type="hidden" name="lang" value="es"><button[^>]*>Sí, eliminar mis datos/.exec(review.html)?.[1];
    expect(deleteToken).toBeTruthy();
    const done = await postForm({ action: 'delete', token: deleteToken!, lang: 'es' });
    expect(done.status).toBe(200);
    expect(done.html).toContain('<html lang="es">');
    expect(done.text).toMatch(/Sus datos fueron eliminados Eliminamos de nuestro sitio \d+ registros? sobre/);
    expect(done.text).toContain('Ir a la página principal');
    // Deleted: the same link now finds nothing.
    expect((await yourData(new Request(`http://localhost${link}`))).text).toContain(`Nuestro sitio no guarda nada sobre ${email}.`);
  });

  test('asking for a link, a broken link and a wrong method are Spanish for a Spanish page; the form keeps the language', async () => {
    const ask = await yourData(new Request('http://localhost/your-data?lang=es'));
    expect(ask.html).toContain('<html lang="es">');
    expect(ask.text).toContain('Vea lo que guardamos sobre usted');
    expect(ask.html).toContain('<input type="hidden" name="lang" value="es">');
    expect(ask.text).toContain('Envíenme un enlace');
    const wrong = await postForm({ action: 'request', email: 'no es un correo', lang: 'es' });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('Por favor, escriba un correo electrónico válido.');
    const sent = await postForm({ action: 'request', email: 'ana.ask@example.org', lang: 'es' });
    expect(sent.status).toBe(202);
    expect(sent.text).toContain('Revise su bandeja de entrada');
    const broken = await yourData(new Request('http://localhost/your-data?token=nope&lang=es'));
    expect(broken.status).toBe(404);
    expect(broken.text).toContain('Este enlace no es válido');
    const put = await yourData(new Request('http://localhost/your-data?lang=es', { method: 'PUT' }));
    expect(put.status).toBe(405);
    expect(put.text).toContain('No disponible');
    for (const page of [ask, wrong, sent, broken, put]) expect(page.text).not.toMatch(/Your data|Email me|yourData\.|\{\w+\}/);
  });

  test('a language the site does not have is a 400 that says which it has', async () => {
    const link = dataPath('someone@example.org');
    const answer = await yourData(new Request(`http://localhost${link}&lang=fr`));
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('The page’s language (lang) must be one of "en", "es".');
  });
});
