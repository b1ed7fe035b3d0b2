/**
 * The content editor's configuration against the content schemas (src/content.config.ts): every
 * field of every edited collection is in the editor with the schema's required flag, type,
 * options and limits; every entry the editor accepts is one the build accepts, written as the
 * editor writes it and read as Astro reads it; and what the build refuses, the editor refuses
 * with the field named.
 */
import { parseFrontmatter } from '@astrojs/internal-helpers/frontmatter';
import { FrontmatterInfer } from 'decap-cms-core/dist/esm/formats/frontmatter.js';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { dump, load } from 'js-yaml';
import { describe, expect, test } from 'vitest';
import type { z } from 'astro/zod';
import { mdxToJs } from 'satteri';
import { jsonSchemaOf, MDX_SAFE_BODY, schemaOf, type EditorField } from '../../src/lib/shared/content-editor/config';
import { LIST_FIELD } from '../../src/lib/shared/content-editor/list-field';
import { listRuleErrors } from '../../src/lib/browser/content-editor/list-rules';
import { editorCollections, type CollectionName } from '../../src/lib/shared/content-editor/model';
import { wordKinds, wordPlaceholders } from '../../src/lib/shared/email/mail-words';
import { withoutEmptyFields } from '../../src/lib/browser/content-editor/values';
import { yamlListFormat } from '../../src/lib/browser/content-editor/yaml-list';
import { acceptedEntry, committedReferences, decapErrors, editorConfig, textMatching } from './helpers/decap';

const config = editorConfig();
const categories = committedReferences();

interface Edited {
  collection: CollectionName;
  kind: 'folder' | 'list-file' | 'entries';
  fields: EditorField[];
  omitted: string[];
}

/** Each edited Astro collection with the editor fields that mirror its schema. */
const edited: Edited[] = editorCollections.flatMap((model): Edited[] => {
  const decap = config.collections.find((collection) => collection.name === model.name)!;
  // The emails' words (a form per kind) and the site words (a list of keys per place): checked below on their own.
  if (model.kind === 'word-files' || model.kind === 'locale-words') return [];
  if (model.kind === 'folder') {
    return [
      { collection: model.collection, kind: 'folder', fields: decap.fields!.filter((field) => field.name !== 'body'), omitted: Object.keys(model.omit ?? {}) },
    ];
  }
  if (model.kind === 'entries') return [{ collection: model.collection, kind: 'entries', fields: decap.fields!, omitted: Object.keys(model.omit ?? {}) }];
  return model.files.map((file) => ({
    collection: file.collection,
    kind: 'list-file',
    fields: decap.files!.find((candidate) => candidate.name === file.name)!.fields[0]!.fields!,
    omitted: Object.keys(file.omit ?? {}),
  }));
});

function fieldSchema(collection: CollectionName, name: string): z.ZodType {
  return (schemaOf(collection) as unknown as { shape: Record<string, z.ZodType> }).shape[name]!;
}

const cases = edited.flatMap(({ collection, fields }) => {
  const schema = jsonSchemaOf(collection);
  return Object.entries(schema.properties ?? {}).flatMap(([name, property]) => {
    const field = fields.find((candidate) => candidate.name === name);
    return field ? [{ name: `${collection}.${name}`, collection, field, property, required: (schema.required ?? []).includes(name) }] : [];
  });
});

describe('the editor configuration mirrors the content schemas', () => {
  test.each(edited.map((entry) => ({ ...entry, name: entry.collection })))(
    '$name: every schema field, in schema order, unless derived',
    ({ collection, fields, omitted }) => {
      const properties = Object.keys(jsonSchemaOf(collection).properties ?? {});
      expect(fields.map((field) => field.name)).toEqual(properties.filter((name) => !omitted.includes(name)));
      // Only the blog leaves fields out: the ones its loader derives.
      expect(omitted).toEqual(collection === 'blog' ? ['sourceId', 'content', 'readTime'] : []);
    },
  );

  test.each(cases)('$name: required flag, widget and limits', ({ collection, field, property, required }) => {
    const zodField = fieldSchema(collection, field.name);
    const accepts = (value: unknown) => decapErrors(field, value).length === 0;
    const zodAccepts = (value: unknown) => zodField.safeParse(value).success;

    // Required in the editor exactly when the schema has no default and is not optional.
    expect(field.required).toBe(required);

    if (property.anyOf) {
      // reference('faqCategories'): the ids of the categories file, nothing else.
      expect(field).toMatchObject({ widget: 'select', options: categories.ids.map((id) => ({ label: id, value: id })) });
      for (const id of categories.ids) expect(accepts(id)).toBe(true);
      expect(decapErrors(field, 'no-such-topic')).toEqual([`Category didn't match the pattern: one of: ${categories.ids.join(', ')}.`]);
      return;
    }
    if (property.format === 'date') {
      expect(field).toMatchObject({ widget: 'datetime', format: 'YYYY-MM-DD', time_format: false });
      expect(zodAccepts('2025-09-25')).toBe(true);
      return;
    }
    switch (property.type) {
      case 'string':
        if (property.enum) {
          expect(field.widget).toBe('select');
          expect(field.options).toEqual(property.enum);
          return;
        }
        expect(['string', 'text', 'image']).toContain(field.widget);
        for (const [length, ok] of [
          [property.minLength, true],
          [property.minLength === undefined ? undefined : property.minLength - 1, false],
          [property.maxLength, true],
          [property.maxLength === undefined ? undefined : property.maxLength + 1, false],
        ] as const) {
          if (length === undefined || length < 1 || property.pattern || property.format) continue;
          const text = 'x'.repeat(length);
          expect([accepts(text), zodAccepts(text)]).toEqual([ok, ok]);
          if (!ok) expect(decapErrors(field, text)[0]).toContain(field.label);
        }
        // Whatever text the editor accepts, the schema accepts.
        fc.assert(
          fc.property(fc.oneof(fc.string({ maxLength: 300 }), textMatching(field.pattern?.[0] ?? '^[\\s\\S]*$')), (text) => {
            if (text !== '' && accepts(text)) expect(zodAccepts(text)).toBe(true);
          }),
          { numRuns: 200 },
        );
        return;
      case 'integer':
      case 'number': {
        expect(field.widget).toBe('number');
        expect(field.value_type).toBe(property.type === 'integer' ? 'int' : 'float');
        const min = field.min!;
        expect([accepts(min), zodAccepts(min)]).toEqual([true, true]);
        expect([accepts(min - 1), zodAccepts(min - 1)]).toEqual([false, false]);
        if (property.type === 'integer') expect(zodAccepts(min + 0.5)).toBe(false);
        return;
      }
      case 'boolean':
        // A switch always has a value: the schema's default, else off.
        expect([field.widget, field.default]).toEqual(['boolean', property.default ?? false]);
        return;
      case 'array': {
        expect(field.widget).toBe('list');
        expect(field.max).toBe(property.maxItems);
        const item = field.field!;
        const full = Array.from({ length: property.maxItems! }, () => 'Tag');
        expect([accepts(full), zodAccepts(full)]).toEqual([true, true]);
        expect([accepts([...full, 'Tag']), zodAccepts([...full, 'Tag'])]).toEqual([false, false]);
        expect(decapErrors(field, ['x'])).toEqual([
          `${item.label} didn't match the pattern: ${property.items!.minLength} to ${property.items!.maxLength} characters.`,
        ]);
        return;
      }
      default:
        throw new Error(`No check for ${property.type}`);
    }
  });
});

describe('every entry the editor accepts is one the build accepts', () => {
  const listFiles = edited.filter((entry) => entry.kind === 'list-file');
  const folders = edited.filter((entry) => entry.kind === 'folder');

  test.each(listFiles.map((entry) => ({ ...entry, name: entry.collection })))(
    '$name: saved as a YAML list, read by the file() loader',
    ({ collection, fields }) => {
      const listField = config.collections.flatMap((decap) => decap.files ?? []).find((file) => file.fields[0]!.fields === fields)!.fields[0]!;
      const rules = { exactly_one_of: listField.exactly_one_of ?? [] };
      const format = yamlListFormat(
        fields.map((field) => field.name),
        fields.filter((field) => field.widget === 'datetime').map((field) => field.name),
      );
      const entry = acceptedEntry(fields).filter((candidate) => listRuleErrors([candidate], rules, {}, 'Entry').length === 0);
      fc.assert(
        fc.property(fc.uniqueArray(entry, { selector: (candidate) => candidate.id, minLength: 1, maxLength: 4 }), (entries) => {
          const read = load(format.toFile({ [LIST_FIELD]: entries })) as unknown[];
          expect(read).toHaveLength(entries.length);
          for (const item of read) {
            const result = schemaOf(collection).safeParse(item);
            expect(result.error?.issues ?? []).toEqual([]);
          }
        }),
        { numRuns: 150 },
      );
    },
  );

  test.each(edited.filter((entry) => entry.kind === 'entries').map((entry) => ({ ...entry, name: entry.collection })))(
    '$name: saved as one YAML file, read by the glob() loader',
    ({ collection, fields }) => {
      const folder = config.collections.find((decap) => decap.name === collection)!;
      expect(folder).toMatchObject({ extension: 'yaml', format: 'yaml', create: true });
      fc.assert(
        fc.property(acceptedEntry(fields), (data) => {
          // Decap's yaml format writes the fields it holds; the loader reads the file as YAML.
          const read = load(dump(withoutEmptyFields(data)));
          const result = schemaOf(collection).safeParse(read);
          expect(result.error?.issues ?? []).toEqual([]);
        }),
        { numRuns: 150 },
      );
    },
  );

  test.each(folders.map((entry) => ({ ...entry, name: entry.collection })))(
    '$name: saved as MDX front matter, read as Astro reads it',
    ({ collection, fields }) => {
      fc.assert(
        fc.property(acceptedEntry(fields), fc.constantFrom('An answer.', 'Two **bold** words.\n\n- a list\n- of items'), (data, body) => {
          // Decap writes the front matter (empty optional fields left out by the editor's preSave listener).
          const file = FrontmatterInfer.toFile(
            { ...withoutEmptyFields(data), body },
            fields.map((field) => field.name),
          );
          const { frontmatter } = parseFrontmatter(file);
          const result = schemaOf(collection).safeParse(frontmatter);
          expect(result.error?.issues ?? []).toEqual([]);
        }),
        { numRuns: 150 },
      );
    },
  );
});

function fieldOf(collection: CollectionName, name: string): EditorField {
  return edited.find((entry) => entry.collection === collection)!.fields.find((field) => field.name === name)!;
}

describe('what the build refuses, the editor refuses with the field named', () => {
  test.each([
    { name: 'an empty question', collection: 'faqs', field: 'question', value: '', message: 'Question is required.' },
    {
      name: 'an over-long question',
      collection: 'faqs',
      field: 'question',
      value: `W${'h'.repeat(199)}?`,
      message: "Question didn't match the pattern: 8 to 200 characters.",
    },
    { name: 'an FAQ order of 0', collection: 'faqs', field: 'order', value: 0, message: 'Order must be at least 1.' },
    {
      name: 'an id with capitals',
      collection: 'stats',
      field: 'id',
      value: 'Two-Hours',
      message: `Id didn't match the pattern: use lower-case words joined by hyphens, e.g. "how-it-works".`,
    },
    { name: 'a negative statistic', collection: 'stats', field: 'target', value: -5, message: 'Number must be at least 0.' },
    {
      name: 'a statistic text too long for its card',
      collection: 'stats',
      field: 'text',
      value: 'thirteen char',
      message: "Text didn't match the pattern: at most 12 characters.",
    },
    {
      name: 'a webinar video on plain http',
      collection: 'webinars',
      field: 'videoUrl',
      value: 'http://example.org/v.mp4',
      message: "Video (mp4) didn't match the pattern: must start with / or https://.",
    },
    {
      name: 'a YouTube link on plain http',
      collection: 'parentVideos',
      field: 'youtubeUrl',
      value: 'http://youtu.be/x',
      message: "YouTube link didn't match the pattern: a full https:// address, e.g. https://www.youtube.com/watch?v=….",
    },
    {
      name: 'a letter whose main text misses {video}',
      collection: 'letters',
      field: 'body',
      value: 'Book a short call with the team here: {booking}',
      message:
        "Main text didn't match the pattern: 20 to 1500 characters; must contain {video}, {booking}; braces only around the placeholders {parent}, {child}, {grade}, {school}, {video}, {booking} or a statistic, {stat:<its id>}; a percentage only as {stat:<id>}.",
    },
    {
      name: 'a letter closing with an unknown placeholder',
      collection: 'letters',
      field: 'closing',
      value: 'Thank you, {principal}, for your time.',
      message:
        "Closing didn't match the pattern: 20 to 400 characters; braces only around the placeholders {parent}, {child}, {grade}, {school}, {video}, {booking} or a statistic, {stat:<its id>}; a percentage only as {stat:<id>}.",
    },
    {
      name: 'nine tags on a post',
      collection: 'blog',
      field: 'tags',
      value: Array.from({ length: 9 }, (_, index) => `Tag ${index}`),
      message: 'Tags must be 8 or less item(s).',
    },
  ] as const)('$name', ({ collection, field, value, message }) => {
    expect(decapErrors(fieldOf(collection, field), value)).toEqual([message]);
    expect(fieldSchema(collection, field).safeParse(value === '' ? undefined : value).success).toBe(false);
  });

  test('an FAQ in a category the categories file does not have', () => {
    expect(decapErrors(fieldOf('faqs', 'category'), 'no-such-topic')[0]).toMatch(/^Category didn't match the pattern: one of: how-it-works, /);
  });

  test.each([
    {
      name: 'neither a number nor a text',
      entry: { id: 'no-figure', label: 'a label', order: 1 },
      message: 'Statistic 1 ("no-figure"): fill in "Number" or "Text".',
    },
    {
      name: 'both a number and a text',
      entry: { id: 'two-figures', target: 5, text: '5', label: 'a label', order: 1 },
      message: 'Statistic 1 ("two-figures"): fill in "Number" or "Text", not both.',
    },
  ])('a statistic with $name', ({ entry, message }) => {
    const field = config.collections.find((collection) => collection.name === 'stats')!.files![0]!.fields[0]!;
    const labels = Object.fromEntries(field.fields!.map((item) => [item.name, item.label]));
    expect(listRuleErrors([entry], { unique_field: 'id', exactly_one_of: field.exactly_one_of! }, labels, field.label_singular!)).toEqual([message]);
    const result = schemaOf('stats').safeParse({ group: 'home-stats', labelEs: 'una línea', ...entry });
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['target']);
  });

  test('a category that FAQs are filed under cannot be removed', () => {
    const field = config.collections.find((collection) => collection.name === 'faqCategories')!.files![0]!.fields[0]!;
    expect(field.required_values).toEqual({ field: 'id', values: categories.inUse, message: 'FAQs name it' });
  });
});

describe('an FAQ answer or a post the editor accepts compiles as MDX', () => {
  const accepts = (text: string) => new RegExp(MDX_SAFE_BODY[0]).test(text);

  test.each([
    'Plain **bold** and _italic_ text.',
    '### A heading\n\n1. one\n2. two\n\n- a\n- list',
    '> A quote',
    '[A link](https://example.org) and ![an image](/media/parent-story-1.jpg)',
    'Scores of 90% & 3 > 2; (brackets) [too].',
    'Import this: importing is fine.\nWe import nothing here.',
  ])('accepted: %j', (text) => {
    expect(accepts(text)).toBe(true);
    expect(() => mdxToJs(text)).not.toThrow();
  });

  // A tag or comment the MDX parser refuses, an expression evaluated at build time, an
  // import/export statement: each fails the build. A lone } goes with {.
  test.each([
    'a <b',
    'I <3 maths',
    '<!-- a comment -->',
    '<https://example.org>',
    'An {expression}',
    'A lone } brace',
    'First line\nimport x from "y"',
    'export const a = 1',
  ])('refused: %j', (text) => {
    expect(accepts(text)).toBe(false);
  });

  test('any accepted text of markdown punctuation compiles', () => {
    const unit = fc.constantFrom(
      'a',
      ' ',
      '\n',
      '*',
      '_',
      '#',
      '-',
      '>',
      '[',
      ']',
      '(',
      ')',
      '!',
      '`',
      '&',
      ';',
      '|',
      '\\',
      ':',
      '.',
      '1',
      '<',
      '{',
      '}',
      'import ',
      'export ',
      '~',
      '=',
      '+',
      '"',
      "'",
    );
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 60 }), (text) => {
        if (accepts(text)) expect(() => mdxToJs(text)).not.toThrow();
      }),
      { numRuns: 500 },
    );
  });
});

describe('the emails’ words: a form per email, its placeholders in its patterns', () => {
  const decap = config.collections.find((collection) => collection.name === 'emails')!;
  const schema = schemaOf('emails');

  test('every kind of email has its own file and form, fixed (none created or deleted)', () => {
    expect(decap.files!.map((file) => file.file).sort()).toEqual(wordKinds.map((kind) => `content/emails/${kind}.yaml`).sort());
    expect(decap.create).toBeUndefined();
    for (const file of decap.files!) expect(file.fields[0]).toMatchObject({ name: 'kind', widget: 'hidden', default: file.name });
  });

  test.each(wordKinds.map((kind) => [kind]))('%s: the editor refuses a placeholder this email does not have, and what it accepts the build accepts', (kind) => {
    const file = decap.files!.find((candidate) => candidate.name === kind)!;
    const subject = file.fields.find((field) => field.name === 'subject')!;
    const [pattern] = subject.pattern!;
    const allowed = Object.keys(wordPlaceholders[kind].placeholders);
    const foreign = ['child', 'booking', 'video'].find((name) => !allowed.includes(name))!;
    expect(new RegExp(pattern).test(`Hello {${foreign}}`)).toBe(false);
    expect(decapErrors(subject, `Hello {${foreign}}`)[0]).toContain('Subject');
    // The committed file, as the editor would save it again, passes the build's schema.
    const committed = load(readFileSync(`content/emails/${kind}.yaml`, 'utf8')) as Record<string, unknown>;
    for (const field of file.fields.filter((candidate) => candidate.pattern && typeof committed[candidate.name] === 'string'))
      expect(new RegExp(field.pattern![0]).test(committed[field.name] as string)).toBe(true);
    expect(schema.safeParse(load(dump(withoutEmptyFields(committed)))).error?.issues ?? []).toEqual([]);
  });
});
