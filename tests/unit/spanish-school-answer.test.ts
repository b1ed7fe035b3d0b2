/**
 * The follow-up of a letter for a parent who wrote in Spanish (issue 48): the "¿Le respondió su
 * escuela?" email's link opens /school-answer in Spanish, in the Spanish frame, for every outcome
 * (the question, its problems, the thanks, an answer changed meanwhile, an expired or invalid
 * link), decided by the language kept with the letter, never by the link's `lang`; and a school
 * update says what the school did in Spanish.
 */
import { beforeEach, describe, expect, test } from 'vitest';
import schoolAnswer from '../../netlify/functions/school-answer.mts';
import { answerKinds, answerLabels, type AnswerKind } from '../../src/lib/shared/answer-kinds';
import { WORDS_CONSENT_FIELD } from '../../src/lib/shared/email/personal-fields';
import { readLocaleWords } from '../../src/server/words';
import { query, sql } from '../../src/server/db';
import { runMail } from '../../src/server/letter/delivery';
import { readMessage, type OutboxMessage } from '../../src/server/letter/outbox';
import { answerLink } from '../../src/server/links';
import { emailSchoolUpdate } from '../../src/server/mail/notify';
import { runFollowUps } from '../../src/server/schools/answers';
import { signToken } from '../../src/server/tokens';
import { deliveredLetter } from './helpers/delivered';
import { linkIn } from './helpers/mail';
import { regionText } from './helpers/site';
import { useMailedSite } from './helpers/mailed-site';

const site = useMailedSite();
let seq = 0;
const DAY = 24 * 3600_000;

beforeEach(async () => {
  await query(sql`DELETE FROM email_budgets`);
});

/** A letter the platform delivered for a parent who wrote in `locale`, and the token of its follow-up link. */
async function letter(locale: 'en' | 'es', letterLocale?: 'en' | 'es'): Promise<{ message: OutboxMessage; token: string }> {
  const n = ++seq;
  const sent = await deliveredLetter(`ana.answer${n}@example.org`, `head.answer${n}@oakwood${n}.edu`, { locale, ...(letterLocale ? { letterLocale } : {}) });
  const message = (await readMessage(sent.id))!.message;
  const token = new URL(answerLink(message.id, message.followUp!.dueAt)).searchParams.get('token')!;
  return { message, token };
}

type Page = { status: number; html: string; text: string };
const read = async (response: Response): Promise<Page> => {
  const html = await response.text();
  return { status: response.status, html, text: regionText(html) };
};
const open = async (query: string) => read(await schoolAnswer(new Request(`http://localhost/school-answer?${query}`)));
/** As a browser sends the form: to the page's own action, with the version of the answer it showed. */
async function post(token: string, fields: Record<string, string>, action?: string): Promise<Page> {
  const page = await open(`token=${encodeURIComponent(token)}`);
  const seen = /name="seen" value="([^"]*)"/.exec(page.html)?.[1] ?? '';
  const formAction = action ?? (/<form method="post" action="([^"]+)"/.exec(page.html)?.[1] ?? '/school-answer').replace(/&amp;/g, '&');
  return read(
    await schoolAnswer(
      new Request(`http://localhost${formAction}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token, seen, comment: '', days: '', ...fields }).toString(),
      }),
    ),
  );
}

/** A page a Spanish parent reads: Spanish, in the Spanish frame, with no key, placeholder or English page words. */
function expectSpanish(page: Page) {
  expect(page.html).toContain('<html lang="es">');
  expect(page.text).not.toMatch(/schoolAnswer\.|\{[a-z]+\}/);
  // The only English allowed is marked so: the follow-up to send the school.
  const outsideEnglish = page.html.replace(/<textarea[^>]*lang="en"[^>]*>[\s\S]*?<\/textarea>/g, '');
  expect(regionText(outsideEnglish)).not.toMatch(/\b(Did|Your|Thank you|Please|This link|answer|Go to the home page|opens in a new tab)\b/);
}

const spanishKinds: Record<AnswerKind, string> = {
  replied: 'Respondieron y contestaron lo que pedí',
  replied_not_answered: 'Respondieron, pero no contestaron lo que pedí',
  acknowledged: 'Solo confirmaron que lo recibieron',
  meeting: 'Tenemos una reunión',
  no_reply_expected: 'No esperaba una respuesta',
  no_answer: 'Todavía no hay respuesta',
};

describe('the follow-up email’s link', () => {
  test('a Spanish parent’s link keeps their language beside the token; an English parent’s adds nothing', async () => {
    const spanish = await letter('es');
    const english = await letter('en');
    const due = new Date(Date.now() + 10 * DAY + 1000);
    await runFollowUps(due);
    await runMail(() => due);
    const email = site.mail.last(spanish.message.parentEmail)!;
    expect(email.subject).toBe('¿Le respondió Oakwood Academy?');
    expect(linkIn(email, '/school-answer')).toMatch(/^https:\/\/site\.example\/school-answer\?token=[^&]+&lang=es$/);
    expect(linkIn(site.mail.last(english.message.parentEmail)!, '/school-answer')).toMatch(/^https:\/\/site\.example\/school-answer\?token=[^&]+$/);
    // The link the Spanish parent got opens the Spanish page.
    const page = await open(new URL(linkIn(email, '/school-answer')).search.slice(1));
    expect(page.status).toBe(200);
    expectSpanish(page);
  });
});

describe('/school-answer for a parent who wrote in Spanish', () => {
  test('the question is Spanish, in the Spanish frame, with the Spanish answers, their data and the quote box', async () => {
    const { message, token } = await letter('es');
    const page = await open(`token=${encodeURIComponent(token)}`);
    expect(page.status).toBe(200);
    expectSpanish(page);
    expect(page.html).toContain('<title>¿Le respondió su escuela? | Mastery Parents</title>');
    expect(page.text).toContain('¿Le respondió Oakwood Academy?');
    expect(page.text).toMatch(/Usted escribió a Dr\. Patel el \d{1,2} de [a-z]+ de \d{4}\. Cuéntenos cómo le fue con un toque/);
    expect(page.text).toContain('¿Le respondió Oakwood Academy su correo?');
    for (const kind of answerKinds) expect(page.text).toContain(spanishKinds[kind]);
    expect(page.text).toContain('Si respondieron: ¿cuántos días tardó su respuesta? (opcional)');
    expect(page.text).toContain('Como máximo 500 caracteres');
    expect(page.text).toContain('Pueden citar mis palabras en la página de nuestra escuela');
    expect(page.text).toContain('Guardar mi respuesta');
    expect(page.html).toContain('action="/school-answer?lang=es"');
    expect(page.text).toContain('Sus datos : vea, descargue o elimine lo que guardamos sobre usted.');
    expect(page.html).toMatch(/href="\/your-data\?token=[^"]+&amp;lang=es"/);
    expect(message.locale).toBe('es');
  });

  test.each([
    ['meeting', 'Excelente: tiene una reunión!', 'Toma 20 minutos.'],
    ['replied', 'Buenas noticias: le respondieron!', 'Agende una llamada corta con nuestro equipo'],
    ['no_answer', 'Gracias: un recordatorio amable suele ayudar', 'Los directores de escuela reciben muchos correos.'],
    ['replied_not_answered', 'Gracias: un recordatorio amable suele ayudar', 'Una respuesta que todavía no contesta es un comienzo.'],
    ['acknowledged', 'Gracias: un recordatorio amable suele ayudar', 'Una respuesta que todavía no contesta es un comienzo.'],
    ['no_reply_expected', 'Gracias por contarnos', 'Otros padres de su escuela pueden sumar su voz'],
  ])('answering %s thanks them in Spanish with the next step', async (kind, title, line) => {
    const { token } = await letter('es');
    const page = await post(token, { answer: kind });
    expect(page.status).toBe(200);
    expectSpanish(page);
    expect(page.html).toContain('<title>Gracias | Mastery Parents</title>');
    expect(page.text).toContain(title);
    expect(page.text).toContain(line);
    expect(page.text).toContain('¿No es correcto? Cambie su respuesta .');
    expect(page.text).toContain('Sus datos');
    // The page now shows the answer as chosen, in Spanish.
    const again = await open(`token=${encodeURIComponent(token)}`);
    expect(again.text).toContain(`Su respuesta hasta ahora: ${spanishKinds[kind as AnswerKind]} . Puede cambiarla aquí.`);
  });

  test('the next steps: the Spanish FAQs, and an English page or site said to be English', async () => {
    const meeting = await post((await letter('es')).token, { answer: 'meeting' });
    expect(meeting.html).toMatch(/href="\/es\/faqs">Lea las preguntas que hacen las escuelas</);
    expect(meeting.text).toContain('Agende una llamada con nuestro equipo (se abre en una pestaña nueva)');
    const told = await post((await letter('es')).token, { answer: 'no_reply_expected' });
    expect(told.html).toMatch(/href="\/es\/nominate-school">Nomine a su escuela</);
    expect(told.text).toContain('Únase al programa de Padres Embajadores (en inglés)');
    const nudge = await post((await letter('es')).token, { answer: 'no_answer' });
    expect(nudge.text).toContain('Su correo de seguimiento (en inglés)');
    expect(nudge.html).toMatch(/<textarea id="follow-up-text"[^>]*lang="en">To: Dr\. Patel [\s\S]*Dear Dr\. Patel,/);
    expect(nudge.text).toContain('Abrir en mi aplicación de correo');
  });

  test('after a letter written in Spanish, the follow-up to the school is in Spanish too, and not said to be English', async () => {
    const nudge = await post((await letter('es', 'es')).token, { answer: 'no_answer' });
    expect(nudge.text).toContain('Su correo de seguimiento');
    expect(nudge.text).not.toContain('(en inglés)');
    expect(nudge.html).toMatch(/<textarea id="follow-up-text"[^>]*>Para: Dr\. Patel [\s\S]*Estimado\/a Dr\. Patel:[\s\S]*¿Tendría quince minutos/);
    expect(nudge.html).not.toMatch(/<textarea id="follow-up-text"[^>]*lang=/);
    expect(nudge.html).toContain(encodeURIComponent('Seguimiento: '));
    expect(nudge.html).not.toMatch(/Dear Dr\.|Following up|\[Nombre/);
  });

  test.each([
    ['no answer chosen', {}, 'Por favor, elija la respuesta que mejor describa lo que pasó.'],
    ['days that are not a number', { answer: 'replied', days: 'diez' }, 'Si lo sabe, escriba el número de días, de 0 a 365; o déjelo vacío.'],
    ['a comment over 500 characters', { answer: 'replied', comment: 'x'.repeat(501) }, 'Por favor, escriba como máximo 500 caracteres.'],
    ['a comment over 1000 characters', { answer: 'replied', comment: 'x'.repeat(1001) }, 'Por favor, escriba como máximo 500 caracteres.'],
    ['a quote box sent with another value', { answer: 'replied', [WORDS_CONSENT_FIELD]: 'yes please' }, 'Marque esta casilla o déjela vacía'],
  ])('%s: the form again, its problem in Spanish', async (_, fields, message) => {
    const { token } = await letter('es');
    const page = await post(token, fields as Record<string, string>);
    expect(page.status).toBe(400);
    expectSpanish(page);
    expect(page.html).toContain('<title>Por favor, revise su respuesta | Mastery Parents</title>');
    expect(page.text).toContain('Por favor, revise su respuesta abajo.');
    expect(page.text).toContain(message);
  });

  test('an answer changed meanwhile in another window is shown in Spanish', async () => {
    const { token } = await letter('es');
    await post(token, { answer: 'meeting' });
    // The form of a window opened before that answer: it showed no answer.
    const page = await read(
      await schoolAnswer(
        new Request('http://localhost/school-answer?lang=es', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ token, seen: '', answer: 'replied', comment: '', days: '' }).toString(),
        }),
      ),
    );
    expect(page.status).toBe(409);
    expectSpanish(page);
    expect(page.text).toContain('Su respuesta cambió mientras tanto');
    expect(page.text).toContain('Hace un momento se guardó otra respuesta (quizás en otra ventana): «Tenemos una reunión».');
  });

  test('an expired link says so in Spanish, with their answer or without', async () => {
    const { message } = await letter('es');
    const expired = signToken({ purpose: 'school-answer', id: message.id, exp: Date.now() - 1000 });
    const page = await open(`token=${encodeURIComponent(expired)}`);
    expect(page.status).toBe(410);
    expectSpanish(page);
    expect(page.text).toContain('Este enlace ya venció');
    expect(page.text).toContain('Las respuestas se pueden dar durante 30 días después de que preguntamos.');
    expect(page.text).toContain('Ir a la página principal');
    expect(page.html).toContain('href="/es"');

    const answered = await letter('es');
    await post(answered.token, { answer: 'replied' });
    const late = signToken({ purpose: 'school-answer', id: answered.message.id, exp: Date.now() - 1000 });
    const after = await open(`token=${encodeURIComponent(late)}`);
    expect(after.text).toContain('Gracias: tenemos su respuesta, «Respondieron y contestaron lo que pedí». Las respuestas se pueden cambiar durante 30 días');
    // POSTed after it expired: the same page.
    const posted = await post(late, { answer: 'meeting' }, '/school-answer');
    expect(posted.status).toBe(410);
    expectSpanish(posted);
  });
});

describe('the language is the letter’s, not the link’s', () => {
  test('an English parent’s link with lang=es stays English, on GET and POST', async () => {
    const { token } = await letter('en');
    const page = await open(`token=${encodeURIComponent(token)}&lang=es`);
    expect(page.html).toContain('<html lang="en">');
    expect(page.text).toContain('Did Oakwood Academy answer?');
    expect(page.html).toContain('action="/school-answer"');
    expect(page.text).not.toMatch(/¿|Sus datos/);
    const thanks = await post(token, { answer: 'meeting' }, '/school-answer?lang=es');
    expect(thanks.html).toContain('<html lang="en">');
    expect(thanks.text).toContain('Wonderful: you have a meeting!');
    const check = await post(token, {}, '/school-answer?lang=es');
    expect(check.html).toContain('<html lang="en">');
    expect(check.text).toContain('Please choose the answer that fits best.');
  });

  test('a Spanish parent’s link with lang=en (or none) stays Spanish', async () => {
    const { token } = await letter('es');
    for (const query of [`token=${encodeURIComponent(token)}&lang=en`, `token=${encodeURIComponent(token)}`]) {
      const page = await open(query);
      expectSpanish(page);
      expect(page.text).toContain('¿Le respondió Oakwood Academy?');
    }
    expectSpanish(await post(token, { answer: 'replied' }, '/school-answer?lang=en'));
  });

  test('an English parent still gets the English page, word for word', async () => {
    const { token } = await letter('en');
    const page = await open(`token=${encodeURIComponent(token)}`);
    expect(page.html).toContain('<html lang="en">');
    expect(page.html).toContain('<title>Did your school answer? | Mastery Parents</title>');
    for (const kind of answerKinds) expect(page.text).toContain(answerLabels[kind]);
    expect(page.text).toContain('If they replied: how many days did their reply take? (optional)');
    expect(page.text).toContain('Your data : see, download or delete what we keep about you.');
    expect(page.html).not.toContain('lang=es');
  });

  test.each([
    ['an invalid link', 'token=not-a-token', 404, 'Este enlace no es válido', 'This link is not valid'],
    ['a link with no token', '', 404, 'Este enlace no es válido', 'This link is not valid'],
  ])('%s proves no letter: the link’s lang chooses, English otherwise', async (_, query, status, spanish, english) => {
    const hinted = await open(`${query}&lang=es`);
    expect(hinted.status).toBe(status);
    expectSpanish(hinted);
    expect(hinted.text).toContain(spanish);
    expect(hinted.text).toContain('Ir a la página principal');
    const plain = await open(query);
    expect(plain.html).toContain('<html lang="en">');
    expect(plain.text).toContain(english);
    // A language the site does not have is no hint.
    expect((await open(`${query}&lang=fr`)).html).toContain('<html lang="en">');
  });

  test('a method it does not answer, and a body it cannot read, in the hinted language', async () => {
    const put = await read(await schoolAnswer(new Request('http://localhost/school-answer?lang=es', { method: 'PUT' })));
    expect(put.status).toBe(405);
    expectSpanish(put);
    expect(put.text).toContain('No disponible Abra el enlace de su correo para responder.');
    const json = await read(
      await schoolAnswer(
        new Request('http://localhost/school-answer?lang=es', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
      ),
    );
    expect(json.status).toBe(404);
    expectSpanish(json);
    const tooBig = await read(
      await schoolAnswer(
        new Request('http://localhost/school-answer?lang=es', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: `token=${'a'.repeat(20_000)}`,
        }),
      ),
    );
    expect(tooBig.status).toBe(413);
    expectSpanish(tooBig);
    expect(tooBig.text).toContain('No pudimos leer lo que se envió');
  });
});

describe('the words', () => {
  test('the English answers are the ones the rest of the site names (admin, figures, "Your data")', async () => {
    const { en = {} } = await readLocaleWords();
    for (const kind of answerKinds) expect(en[`schoolAnswer.kinds.${kind}`], kind).toBe(answerLabels[kind]);
  });

  test('every Spanish word of the page is said in Spanish, not left as the English', async () => {
    const { en = {}, es = {} } = await readLocaleWords();
    const keys = Object.keys(en).filter((key) => key.startsWith('schoolAnswer.'));
    expect(keys.length).toBeGreaterThan(40);
    for (const key of keys) expect(es[key], key).not.toBe(en[key]);
  });
});

describe('a school update for a parent who wrote in Spanish', () => {
  const stored = async (id: string) =>
    (await query<{ text: string; lang: string | null }>(sql`SELECT content->>'text' AS text, content->>'lang' AS lang FROM emails WHERE id = ${id}`))[0]!;

  test.each([
    [
      'meeting',
      'Oakwood Academy aceptó reunirse, nos cuenta un padre o madre que le escribió.',
      'Oakwood Academy agreed to meet, a parent who wrote to them tells us.',
    ],
    ['replied', 'Oakwood Academy respondió, nos cuenta un padre o madre que le escribió.', 'Oakwood Academy replied, a parent who wrote to them tells us.'],
  ] as const)('says in Spanish what the school did (%s); an English parent’s stays English', async (kind, spanish, english) => {
    const es = (await letter('es')).message;
    const en = (await letter('en')).message;
    const page = { key: '0123456789abcdef0123456789abcdef', slug: 'oakwood-academy' };
    await emailSchoolUpdate(es, kind, `update-es-${kind}-${seq}`, page);
    await emailSchoolUpdate(en, kind, `update-en-${kind}-${seq}`, page);
    const spanishEmail = await stored(`update-es-${kind}-${seq}`);
    expect(spanishEmail.lang).toBe('es');
    expect(spanishEmail.text).toContain(spanish);
    expect(spanishEmail.text).not.toMatch(/tells us|agreed to meet/);
    // The school's page in the parent's language.
    expect(spanishEmail.text).toContain(`/es/schools/oakwood-academy-${page.key}`);
    const englishEmail = await stored(`update-en-${kind}-${seq}`);
    expect(englishEmail.text).toContain(english);
    expect(englishEmail.text).toContain(`/schools/oakwood-academy-${page.key}`);
    expect(englishEmail.text).not.toContain('/es/schools/');
  });
});
