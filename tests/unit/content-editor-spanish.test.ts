/**
 * The Spanish in the content editor (docs/spanish.md): each FAQ edited with its Spanish twin
 * (content/faqs/<name>.mdx and content/faqs-es/<name>.mdx) through Decap's i18n, the site words
 * (content/i18n/{en,es}/<place>.yaml) key by key side by side, and the Spanish emails' words. The
 * paths follow Decap's i18n rule ({folder}/{locale}/{slug}.{extension}, `multiple_folders`; its
 * module cannot be loaded outside the browser, so tests/e2e/content-editor.spec.ts saves through the
 * real editor); the files are written with the editor's formats and read with the build's schemas
 * and readers; what the build would refuse, saving refuses, naming it.
 */
import { parseFrontmatter } from '@astrojs/internal-helpers/frontmatter';
import { FrontmatterInfer } from 'decap-cms-core/dist/esm/formats/frontmatter.js';
import { dump, load } from 'js-yaml';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { schemaOf, twinChecks, type EditorCollectionConfig } from '../../src/lib/shared/content-editor/config';
import { markedFormat, TWIN_MARK, twinFormatName } from '../../src/lib/shared/content-editor/twin-format';
import { twinProblems, type TwinCheck } from '../../src/lib/shared/content-editor/twins';
import { withoutEmptyFields } from '../../src/lib/browser/content-editor/values';
import { LOCALE_WORDS_FORMAT, nestWords, wordsFormat } from '../../src/lib/shared/content-editor/words-format';
import { parentKinds, wordPlaceholders } from '../../src/lib/shared/email/mail-words';
import { assertSameKeys, flattenWords } from '../../src/lib/shared/i18n/translator';
import { decapErrors, editorConfig } from './helpers/decap';

const config = editorConfig();
const collection = (name: string) => config.collections.find((candidate) => candidate.name === name)!;
/** Where Decap's i18n (`multiple_folders`) keeps each language of an entry: {folder}/{locale}/{slug}.{extension}. */
function decapPaths(decap: EditorCollectionConfig, slug: string): string[] {
  const i18n = decap.i18n === true ? config.i18n : decap.i18n!;
  return i18n.locales.map((locale) => `${decap.folder}/${locale}/${slug}.${decap.extension}`);
}
const checks = twinChecks({ backend: { repo: '', branch: '', authBaseUrl: '', authEndpoint: '' }, siteUrl: '', references: {} });
const checkOf = (name: string) => checks.find((check) => check.collection === name)!;

const faqs = collection('faqs');
const faqFormat = markedFormat(FrontmatterInfer, 'question');
const faqFieldOrder = faqs.fields!.map((field) => field.name);

/** The files Decap writes when an FAQ with these languages is saved: one per language that has data. */
function savedFaq(slug: string, english: Record<string, unknown>, spanish?: Record<string, unknown>) {
  const [englishPath, spanishPath] = decapPaths(faqs, slug);
  const write = (data: Record<string, unknown>) => faqFormat.toFile(withoutEmptyFields(data), faqFieldOrder);
  return [{ path: englishPath!, raw: write(english) }, ...(spanish ? [{ path: spanishPath!, raw: write(spanish) }] : [])];
}

describe('an FAQ is edited with its Spanish twin', () => {
  test('the configuration: the two folders as Decap’s languages, the question and answer in both, category and order in the English', () => {
    expect(faqs).toMatchObject({
      folder: 'content',
      extension: 'mdx',
      format: twinFormatName('faqs'),
      create: true,
      delete: true,
      i18n: { structure: 'multiple_folders', locales: ['faqs', 'faqs-es'], default_locale: 'faqs' },
      filter: { field: TWIN_MARK, value: true },
    });
    expect(Object.fromEntries(faqs.fields!.map((field) => [field.name, field.i18n]))).toEqual({ question: true, category: false, order: false, body: true });
  });

  test('creating, saving and deleting act on both files, at the same name', () => {
    expect(decapPaths(faqs, 'how-long-is-a-day')).toEqual(['content/faqs/how-long-is-a-day.mdx', 'content/faqs-es/how-long-is-a-day.mdx']);
  });

  test('saving writes the files the build reads: the English with its category and order, the Spanish with its question and answer only', () => {
    const files = savedFaq(
      'how-long-is-a-day',
      { question: 'How long is a school day?', category: 'how-it-works', order: 3, body: 'Two focused hours.', [TWIN_MARK]: true },
      { question: '¿Cuánto dura un día de escuela?', body: 'Dos horas de concentración.', [TWIN_MARK]: true },
    );
    expect(files.map((file) => file.path)).toEqual(['content/faqs/how-long-is-a-day.mdx', 'content/faqs-es/how-long-is-a-day.mdx']);
    const [english, spanish] = files.map((file) => parseFrontmatter(file.raw));
    expect(schemaOf('faqs').safeParse(english!.frontmatter).error?.issues ?? []).toEqual([]);
    expect(english!.frontmatter).toEqual({ question: 'How long is a school day?', category: 'how-it-works', order: 3 });
    // faqsEs is a strict schema: nothing but the question.
    expect(schemaOf('faqsEs').safeParse(spanish!.frontmatter).error?.issues ?? []).toEqual([]);
    expect(spanish!.content.trim()).toBe('Dos horas de concentración.');
  });

  test('without its Spanish, Decap would write the English file alone: saving is refused, naming each field', () => {
    expect(savedFaq('x', { question: 'How long is a school day?', category: 'how-it-works', order: 3, body: 'Two.' }).map((file) => file.path)).toEqual([
      'content/faqs/x.mdx',
    ]);
    expect(twinProblems(checkOf('faqs'), { question: 'How long is a school day?' }, undefined)).toEqual([
      'Question is required on the Spanish (faqs-es) side.',
      'Answer is required on the Spanish (faqs-es) side.',
    ]);
  });

  test.each([
    { name: 'complete', spanish: { question: '¿Cuánto dura un día?', body: 'Dos horas.' }, problems: [] },
    {
      name: 'a question too short',
      spanish: { question: '¿Qué?', body: 'Dos horas.' },
      problems: ["Question on the Spanish (faqs-es) side didn't match the pattern: 8 to 220 characters."],
    },
    {
      name: 'an answer the MDX compiler would refuse',
      spanish: { question: '¿Cuánto dura un día?', body: 'Use {llaves}.' },
      problems: [`Answer on the Spanish (faqs-es) side didn't match the pattern: no { } or < characters, and no line starting with "import" or "export".`],
    },
    { name: 'a blank answer', spanish: { question: '¿Cuánto dura un día?', body: '  ' }, problems: ['Answer is required on the Spanish (faqs-es) side.'] },
  ])('the Spanish side: $name', ({ spanish, problems }) => {
    expect(twinProblems(checkOf('faqs'), {}, spanish)).toEqual(problems);
    // The Spanish question's limits are its own schema's (220 characters), not the English (200).
    expect(schemaOf('faqsEs').safeParse({ question: spanish.question }).success).toBe(!problems.some((problem) => problem.startsWith('Question')));
  });

  test('listing: the committed FAQs and their Spanish are marked as entries; the blog posts in the same parent folder are not', () => {
    // Decap lists the parent folder two levels deep: content/<folder>/<file>.mdx.
    const mdx = (folder: string) => readdirSync(folder).filter((file) => file.endsWith('.mdx'));
    const marked = (folder: string) => mdx(folder).filter((file) => faqFormat.fromFile(readFileSync(`${folder}/${file}`, 'utf8'))[TWIN_MARK] === true);
    expect(marked('content/faqs')).toEqual(readdirSync('content/faqs'));
    expect(marked('content/faqs-es')).toEqual(readdirSync('content/faqs-es'));
    expect(mdx('content/blog').length).toBeGreaterThan(0);
    expect(marked('content/blog')).toEqual([]);
    // The mark is never written.
    expect(faqFormat.toFile({ question: 'How long is a school day?', body: 'Two.', [TWIN_MARK]: true }, faqFieldOrder)).not.toContain(TWIN_MARK);
  });

  test.each(readdirSync('content/faqs').map((file) => [file]))('%s: both files, read and saved again unchanged, keep what the build reads', (file) => {
    const slug = file.slice(0, -'.mdx'.length);
    const [englishPath, spanishPath] = decapPaths(faqs, slug);
    const english = faqFormat.fromFile(readFileSync(englishPath!, 'utf8'));
    const spanish = faqFormat.fromFile(readFileSync(spanishPath!, 'utf8'));
    const saved = savedFaq(slug, english, { question: spanish.question, body: spanish.body, [TWIN_MARK]: true });
    const [writtenEnglish, writtenSpanish] = saved.map((each) => parseFrontmatter(each.raw));
    const committed = (path: string) => parseFrontmatter(readFileSync(path, 'utf8'));
    expect(writtenEnglish!.frontmatter).toEqual(committed(englishPath!).frontmatter);
    expect(writtenSpanish!.frontmatter).toEqual(committed(spanishPath!).frontmatter);
    expect(writtenSpanish!.content.trim()).toBe(committed(spanishPath!).content.trim());
  });
});

describe('the site words: a place’s English and Spanish side by side, key by key', () => {
  const words = collection('words');
  const places = readdirSync('content/i18n/en').map((file) => file.slice(0, -'.yaml'.length));

  test('the configuration: content/i18n in the site’s languages, no place created or deleted, no key added or removed', () => {
    expect(config.i18n).toEqual({ structure: 'multiple_folders', locales: ['en', 'es'], default_locale: 'en' });
    expect(words).toMatchObject({ folder: 'content/i18n', extension: 'yaml', format: LOCALE_WORDS_FORMAT, i18n: true, create: false, delete: false });
    expect(words.fields![0]).toMatchObject({ name: 'words', widget: 'list', i18n: true, allow_add: false, allow_remove: false, allow_reorder: false });
    expect(decapPaths(words, 'home')).toEqual(['content/i18n/en/home.yaml', 'content/i18n/es/home.yaml']);
  });

  test.each(places.map((place) => [place]))('%s: both files, read and written again by the editor, are what the build reads', (place) => {
    for (const locale of ['en', 'es']) {
      const file = `content/i18n/${locale}/${place}.yaml`;
      const text = readFileSync(file, 'utf8');
      const written = wordsFormat.toFile(wordsFormat.fromFile(text));
      // The same keys, in the same order, with the same words.
      expect(JSON.stringify(flattenWords(load(written), file))).toBe(JSON.stringify(flattenWords(load(text), file)));
    }
  });

  test('words with ": " or starting with "{" are written quoted, and read back as the same words', () => {
    const items = [
      { key: 'hero.title', text: 'Nota: usted decide' },
      { key: 'hero.lead', text: '{percent}% del programa' },
      { key: 'count', text: '12' },
    ];
    const written = wordsFormat.toFile({ words: items });
    expect(written).toBe('hero:\n  title: "Nota: usted decide"\n  lead: "{percent}% del programa"\ncount: "12"\n');
    expect(flattenWords(load(written), 'x')).toEqual({ 'hero.title': 'Nota: usted decide', 'hero.lead': '{percent}% del programa', count: '12' });
  });

  test.each([
    {
      items: [
        { key: 'a.b', text: 'x' },
        { key: 'a.b', text: 'y' },
      ],
      message: '"a.b" is in the file twice.',
    },
    {
      items: [
        { key: 'a', text: 'x' },
        { key: 'a.b', text: 'y' },
      ],
      message: '"a.b" is under "a", which holds words itself.',
    },
    { items: [{ key: 'a..b', text: 'x' }], message: '"a..b" is not a key of a words file.' },
  ])('a list that is no words file is refused: $message', ({ items, message }) => {
    expect(() => nestWords(items)).toThrow(message);
  });

  const english = [
    { key: 'hero.title', text: 'Transform learning' },
    { key: 'hero.lead', text: 'Less time in class.' },
  ];
  test.each([
    {
      name: 'complete',
      spanish: [
        { key: 'hero.title', text: 'Transforme el aprendizaje' },
        { key: 'hero.lead', text: 'Menos tiempo.' },
      ],
      problems: [],
    },
    { name: 'a key missing', spanish: [{ key: 'hero.title', text: 'Transforme' }], problems: ['"hero.lead" is missing on the Spanish side.'] },
    {
      name: 'a key emptied',
      spanish: [
        { key: 'hero.title', text: 'Transforme' },
        { key: 'hero.lead', text: ' ' },
      ],
      problems: ['"hero.lead" is empty on the Spanish side.'],
    },
    {
      name: 'a key the English lacks',
      spanish: [...english, { key: 'hero.extra', text: 'Más' }],
      problems: ['"hero.extra" is missing on the English side.'],
    },
  ])('saving a place is refused while one language lacks a key: $name', ({ spanish, problems }) => {
    const check: TwinCheck = checkOf('words');
    expect(check).toMatchObject({ locale: 'es', sameWords: true });
    expect(twinProblems(check, { words: english }, { words: spanish })).toEqual(problems);
    // The build refuses the same files, naming the key and the file.
    const files = {
      'content/i18n/en/home.yaml': Object.fromEntries(english.map((item) => [item.key, item.text])),
      'content/i18n/es/home.yaml': Object.fromEntries(spanish.map((item) => [item.key, item.text])),
    };
    const missing = problems.find((problem) => problem.includes('missing'));
    if (missing) expect(() => assertSameKeys(files)).toThrow(missing.match(/"[^"]+"/)![0]);
  });
});

describe('the Spanish emails’ words: a form per email a parent gets, as the English', () => {
  const decap = collection('emailsEs');
  const schema = schemaOf('emails');

  test('a file per kind a parent gets, under content/emails/es, none created or deleted', () => {
    expect(decap.files!.map((file) => file.file)).toEqual(parentKinds.map((kind) => `content/emails/es/${kind}.yaml`));
    expect(decap.create).toBeUndefined();
    for (const file of decap.files!) {
      expect(file.label).toMatch(/, in Spanish$/);
      expect(file.fields[0]).toMatchObject({ name: 'kind', widget: 'hidden', default: file.name });
    }
  });

  test.each(parentKinds.map((kind) => [kind]))('%s: the committed Spanish passes the form’s patterns and the build’s schema', (kind) => {
    const file = decap.files!.find((candidate) => candidate.name === kind)!;
    const subject = file.fields.find((field) => field.name === 'subject')!;
    const foreign = ['child', 'booking', 'video'].find((name) => !(name in wordPlaceholders[kind].placeholders))!;
    expect(decapErrors(subject, `Hola {${foreign}}`)[0]).toContain('Subject');
    const committed = load(readFileSync(`content/emails/es/${kind}.yaml`, 'utf8')) as Record<string, unknown>;
    for (const field of file.fields.filter((candidate) => candidate.pattern && typeof committed[candidate.name] === 'string'))
      expect(new RegExp(field.pattern![0]).test(committed[field.name] as string), field.name).toBe(true);
    expect(schema.safeParse(load(dump(withoutEmptyFields(committed)))).error?.issues ?? []).toEqual([]);
  });
});
