/**
 * What Decap CMS does with a field's value when an editor saves, for tests that compare the
 * editor's configuration with the content schemas: Decap's own checks (decap-cms-core's field
 * wrapper: presence, then pattern; the number widget's range; the list widget's item count) with
 * its English messages, and values an editor can enter in each widget.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseFrontmatter } from '@astrojs/internal-helpers/frontmatter';
import Widget from 'decap-cms-core/dist/esm/components/Editor/EditorControlPane/Widget.js';
import { validateMinMax as validateListSize } from 'decap-cms-lib-widgets/dist/esm/validations.js';
import en from 'decap-cms-locales/dist/esm/en/index.js';
import { validateMinMax as validateNumberRange } from 'decap-cms-widget-number/dist/esm/NumberControl.js';
import fc from 'fast-check';
import { fromJS, List, type Map as ImmutableMap } from 'immutable';
import { load } from 'js-yaml';
import Polyglot from 'node-polyglot';
import { buildEditorConfig, type EditorConfig, type EditorField } from '../../../src/lib/shared/content-editor/config';

const root = join(import.meta.dirname, '..', '..', '..');

/** The categories and the ones FAQs use, read from the committed content as the page reads them. */
export function committedReferences() {
  const categories = load(readFileSync(join(root, 'content/faq-categories.yaml'), 'utf8')) as { id: string; order: number }[];
  const faqs = readdirSync(join(root, 'content/faqs')).map(
    (file) => parseFrontmatter(readFileSync(join(root, 'content/faqs', file), 'utf8')).frontmatter as { category: string },
  );
  return {
    ids: [...categories].sort((a, b) => a.order - b.order).map((category) => category.id),
    inUse: [...new Set(faqs.map((faq) => faq.category))],
  };
}

export function editorConfig(): EditorConfig {
  const { ids, inUse } = committedReferences();
  return buildEditorConfig({
    backend: { repo: 'owner/site', branch: 'main', authBaseUrl: 'https://api.netlify.com', authEndpoint: 'auth' },
    siteUrl: 'https://masteryparents.org',
    references: { faqCategories: { ids, inUse, usedBy: 'FAQs' } },
  });
}

const english = new Polyglot({ locale: 'en', phrases: en });
const t = english.t.bind(english);
/** Decap's field wrapper, whose presence and pattern checks every widget goes through. */
const widget = new Widget({ t, parentIds: [] });

/** The value as Decap holds it in the form: lists as Immutable lists. */
function held(value: unknown): unknown {
  return Array.isArray(value) ? List(value) : value;
}

/**
 * The messages Decap shows for this value of this field when an editor saves, from Decap's own
 * checks: the field wrapper's (required, pattern), the number widget's range and the list
 * widget's item count, then each item's; none when it saves.
 */
export function decapErrors(field: EditorField, value: unknown): string[] {
  const config = fromJS(field) as ImmutableMap<string, unknown>;
  const errors: (DecapValidationError | false | undefined)[] = [
    widget.validatePresence(config, held(value)).error,
    widget.validatePattern(config, held(value)).error,
  ];
  if (field.widget === 'number' && !field.pattern && value !== undefined && value !== null) {
    errors.push(validateNumberRange(value, field.min ?? false, field.max ?? false, config, t));
  }
  if (field.widget === 'list' && Array.isArray(value)) {
    if (field.required !== false || value.length) errors.push(validateListSize(t, field.label, List(value), field.min, field.max));
    if (field.field) return [...messages(errors), ...value.flatMap((item) => decapErrors(field.field!, item))];
  }
  return messages(errors);
}

function messages(errors: (DecapValidationError | false | undefined)[]): string[] {
  return errors.flatMap((error) => (error ? [error.message] : []));
}

/**
 * Text for a field's pattern: what fast-check builds from the pattern, or, for a pattern with
 * lookaheads fast-check cannot read (a letter's placeholders, a length with a pattern), text made
 * of words and the letters' placeholders, now and then one left out or a stray brace.
 */
export function textMatching(pattern: string): fc.Arbitrary<string> {
  if (!pattern.includes('(?=')) return fc.stringMatching(new RegExp(pattern));
  const pieces = ['{parent}', '{child}', '{grade}', '{school}', '{video}', '{booking}'];
  const words = fc.string({ unit: fc.constantFrom(...'abc xyz.,\n•'.split('')), maxLength: 40 });
  const stray = fc.option(fc.constantFrom('{', '}', '{other}'), { freq: 5, nil: '' });
  return fc
    .tuple(
      fc.shuffledSubarray(pieces, { minLength: pieces.length - 1 }),
      stray,
      fc.array(words, { minLength: pieces.length + 2, maxLength: pieces.length + 2 }),
    )
    .map(([parts, extra, gaps]) => gaps.map((gap, index) => `${gap}${[...parts, extra][index] ?? ''}`).join(''));
}

/** Values an editor can enter in the field's widget (not all of them accepted). */
export function enterable(field: EditorField): fc.Arbitrary<unknown> {
  const value = ((): fc.Arbitrary<unknown> => {
    switch (field.widget) {
      case 'select':
        // An option is its value, or a label shown for a value.
        return fc.constantFrom(...(field.options ?? []).map((option) => (typeof option === 'string' ? option : option.value)));
      case 'number':
        // The int widget parses what is typed with parseInt.
        return field.value_type === 'int'
          ? fc.integer({ min: (field.min ?? 0) - 2, max: 100_000 })
          : fc.double({ min: (field.min ?? 0) - 2, max: 100_000, noNaN: true, noDefaultInfinity: true });
      case 'boolean':
        return fc.boolean();
      case 'datetime':
        return fc.date({ min: new Date('1990-01-01'), max: new Date('2100-12-31'), noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10));
      case 'list':
        return fc.array(enterable(field.field!), { maxLength: (field.max ?? 5) + 1 });
      default:
        // Text the field's own pattern asks for, and arbitrary text.
        return field.pattern ? fc.oneof(textMatching(field.pattern[0]), fc.string({ maxLength: 40 })) : fc.string({ maxLength: 60 });
    }
  })();
  // An optional field may be left empty ('' in the form, left out of the file).
  return field.required === false ? fc.oneof(value, fc.constant(''), fc.constant(undefined)) : value;
}

/** An entry the editor would save: every field's value is one Decap accepts. */
export function acceptedEntry(fields: EditorField[]): fc.Arbitrary<Record<string, unknown>> {
  return fc.record(Object.fromEntries(fields.map((field) => [field.name, enterable(field).filter((value) => decapErrors(field, value).length === 0)])));
}
