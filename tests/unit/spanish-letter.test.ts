/**
 * The letter's language (issue 48): a parent writing from a Spanish page chooses it, English by
 * default (the school's leadership reads it), Spanish offered. Every letter has its Spanish variant
 * (content/letters/es/{id}.yaml) or the build fails; the preview, the mail links and the platform
 * send are all made by `generateEmail` from the letter the draft keeps, so they follow its language.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import forms from '../../netlify/functions/forms.mts';
import { forms as formConfig } from '../../src/config/forms';
import { gradeIn } from '../../src/lib/shared/email/grade';
import { missingVariants } from '../../src/lib/shared/email/letter-texts';
import { composeLinks, generateEmail } from '../../src/lib/shared/email/template';
import { renderForm } from '../../src/lib/shared/forms/render';
import { letterLocaleSchema } from '../../src/lib/shared/schemas';
import { composeLetter } from '../../src/server/mail/compose';
import { letterIn, letters } from '../../src/server/letter/bodies';
import { readDraft } from '../../src/server/letter/drafts';
import { committedDefinitions, emailFormValues, useFormsFunctionSite } from './helpers/forms';

const data = {
  parentFullName: 'Ana López',
  parentEmail: 'ana@example.org',
  childFullName: 'Leo López',
  childGrade: '5',
  schoolName: 'Oakwood Academy',
  schoolContactName: 'Dr. Patel',
  schoolContactEmail: 'head@oakwood.example',
};
const links = { videoUrl: 'https://video.example/overview', bookingUrl: 'https://book.example/call' };

describe('the letters in Spanish', () => {
  test('every English letter has its Spanish variant, by the same id and in the same order', async () => {
    const english = await letters();
    const spanish = await letters('es');
    expect(spanish.map((letter) => letter.id)).toEqual(english.map((letter) => letter.id));
    for (const letter of spanish) expect(letter.language).toBe('es');
    for (const letter of english) expect(letter.language).toBeUndefined();
  });

  test('the Spanish letters quote the same figures as the English', async () => {
    const english = await letters();
    const spanish = await letters('es');
    for (const [index, letter] of english.entries()) {
      const figures = (text: string) => (text.match(/\d+\s*%/g) ?? []).sort();
      expect(figures(spanish[index]!.body)).toEqual(figures(letter.body));
    }
  });

  test('a letter without its Spanish variant stops the build and the functions, naming the missing file', async () => {
    expect(missingVariants(['a', 'b'], ['es/a'], ['es'])).toEqual(['content/letters/es/b.yaml']);
    expect(missingVariants(['a'], ['es/a'], ['es'])).toEqual([]);
    const dir = mkdtempSync(join(tmpdir(), 'letters-'));
    try {
      mkdirSync(join(dir, 'letters', 'es'), { recursive: true });
      copyFileSync('content/stats.yaml', join(dir, 'stats.yaml'));
      for (const name of readdirSync('content/letters').filter((file) => file.endsWith('.yaml')))
        copyFileSync(join('content/letters', name), join(dir, 'letters', name));
      copyFileSync('content/letters/es/two-focused-hours.yaml', join(dir, 'letters', 'es', 'two-focused-hours.yaml'));
      process.env.LETTERS_DIR = join(dir, 'letters');
      await expect(letters('es')).rejects.toThrow('content/letters/es/a-question-from-a-parent.yaml');
    } finally {
      delete process.env.LETTERS_DIR;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the email in the letter’s language', () => {
  test.each([
    ['5th grade', 'es', '5.º grado'],
    ['kindergarten', 'es', 'kínder'],
    ['pre-K', 'es', 'prekínder'],
    ['middle school', 'es', 'middle school'],
    ['5th grade', 'en', '5th grade'],
  ] as const)('the grade %s reads %s in %s', (grade, language, expected) => {
    expect(gradeIn(grade, language)).toBe(expected);
  });

  test('a Spanish letter is Spanish from the greeting to the signature, with every value filled', async () => {
    const letter = await letterIn((await letters())[0]!, 'es');
    const email = generateEmail(data, links, letter, { ownWords: 'Leo termina sus tareas en diez minutos.' });
    expect(email.subject).toBe('Cómo Oakwood Academy puede ofrecer el aprendizaje por dominio a cada alumno');
    expect(email.body.startsWith('Estimado/a Dr. Patel:\n\nMe llamo Ana López y mi hijo o hija, Leo López, está en 5.º grado en Oakwood Academy.')).toBe(true);
    expect(email.body).toContain('Leo termina sus tareas en diez minutos.');
    expect(email.body).toContain('https://video.example/overview#t=10');
    expect(email.body).toContain('https://book.example/call');
    expect(email.body.endsWith('Atentamente,\nAna López\nMadre o padre de Leo López, 5.º grado')).toBe(true);
    expect(email.body).not.toMatch(/\{[a-z:-]+\}|Dear|Warm regards/);
    const mail = composeLinks(email);
    for (const link of [mail.mailto, mail.gmail, mail.outlook]) {
      expect(decodeURIComponent(link)).toContain('Cómo Oakwood Academy puede');
      expect(decodeURIComponent(link)).toContain('Estimado/a Dr. Patel:');
    }
  });

  test('the English letter stays as it was', async () => {
    const email = generateEmail(data, links, (await letters())[0]!);
    expect(email.subject).toBe('How Oakwood Academy can unlock mastery learning for every student');
    expect(email.body.startsWith('Dear Dr. Patel,')).toBe(true);
    expect(email.body.endsWith('Warm regards,\nAna López\nParent of Leo López, 5th grade')).toBe(true);
  });

  test('the letter the school receives says how it was sent in the letter’s language', async () => {
    const rendered = await composeLetter({ subject: 'Cómo…', body: 'Estimado/a Dr. Patel:', parentName: 'Ana López', language: 'es' });
    expect(rendered.text).toContain('Enviada en nombre de Ana López por Mastery Parents. Las respuestas le llegan a Ana.');
    expect(rendered.html).toContain('lang="es"');
  });
});

describe('the choice on the Spanish form', () => {
  test('offers English (checked) and Spanish on a Spanish page, and nothing on an English one', async () => {
    const { emailGenerator } = await committedDefinitions();
    const spanish = renderForm(emailGenerator, { purpose: 'emailGenerator', instance: 'f', page: '/es/lead-the-change', note: true, locale: 'es' });
    expect(spanish).toMatch(/<input type="radio" id="f-letter-locale-en" name="_letter_locale" value="en" checked/);
    expect(spanish).toMatch(/<input type="radio" id="f-letter-locale-es" name="_letter_locale" value="es" class/);
    expect(spanish).toContain('Idioma de su carta');
    const again = renderForm(emailGenerator, {
      purpose: 'emailGenerator',
      instance: 'f',
      page: '/es/lead-the-change',
      note: true,
      locale: 'es',
      values: { _letter_locale: 'es' },
    });
    expect(again).toMatch(/value="es" checked/);
    expect(renderForm(emailGenerator, { purpose: 'emailGenerator', instance: 'f', page: '/lead-the-change', note: true })).not.toContain('_letter_locale');
  });

  test.each([
    [undefined, 'en'],
    ['es', 'es'],
  ])('_letter_locale %s is %s', (given, expected) => {
    expect(letterLocaleSchema.parse(given)).toBe(expected);
  });

  describe('through the forms function', () => {
    useFormsFunctionSite();
    let ip = 0;
    const post = async (values: Record<string, string>) => {
      const response = await forms(
        new Request(`http://localhost/api/forms/${formConfig.emailGenerator.formId}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ _elapsed: '30000', ...values }),
        }),
        { ip: `192.0.2.${++ip}` } as never,
      );
      return { status: response.status, body: await response.json() };
    };

    test('a parent who chose Spanish gets the Spanish letter, kept with the draft for the preview and the send', async () => {
      const answer = await post(emailFormValues({ _page: '/es/lead-the-change', _locale: 'es', _letter_locale: 'es' }));
      expect(answer.status).toBe(201);
      expect(answer.body.draft.letter.language).toBe('es');
      expect(answer.body.draft.email.subject).toMatch(/^Cómo .* puede ofrecer el aprendizaje por dominio a cada alumno$/);
      expect((await readDraft(answer.body.id))!.draft.letter.language).toBe('es');
    });

    test('from a Spanish page without a choice the letter is English', async () => {
      const answer = await post(emailFormValues({ _page: '/es/lead-the-change', _locale: 'es' }));
      expect(answer.status).toBe(201);
      expect(answer.body.draft.letter.language).toBeUndefined();
      expect(answer.body.draft.email.body.startsWith('Dear ')).toBe(true);
    });

    test('an unknown letter language is a 400 naming the field', async () => {
      const answer = await post(emailFormValues({ _page: '/es/lead-the-change', _locale: 'es', _letter_locale: 'fr' }));
      expect(answer.status).toBe(400);
      expect(answer.body.error).toEqual({ code: 'invalid_letter_locale', message: 'The letter’s language (_letter_locale) must be one of "en", "es".' });
    });
  });
});
