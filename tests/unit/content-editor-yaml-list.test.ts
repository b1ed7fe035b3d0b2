/**
 * The YAML list format of the content editor (src/lib/browser/content-editor/yaml-list.ts): a committed
 * list file read and written back is the same list for Astro's `file()` loader, keys in the
 * schema's order, empty optional fields left out, values quoted where the loader would misread them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { describe, expect, test } from 'vitest';
import { LIST_FIELD } from '../../src/lib/shared/content-editor/list-field';
import { yamlListFormat } from '../../src/lib/browser/content-editor/yaml-list';
import { editorConfig } from './helpers/decap';

const root = join(import.meta.dirname, '..', '..');
// List files only: one list field whose items are the entries (the emails' word files are one entry each).
const listFiles = editorConfig().collections.flatMap((collection) =>
  (collection.files ?? [])
    .filter((file) => file.fields[0]?.name === LIST_FIELD && file.fields[0].fields)
    .map((file) => {
      const fields = file.fields[0]!.fields!;
      return {
        name: file.file,
        format: yamlListFormat(
          fields.map((field) => field.name),
          fields.filter((field) => field.widget === 'datetime').map((field) => field.name),
        ),
        keys: fields.map((field) => field.name),
      };
    }),
);

describe('a committed list file read and written by the editor', () => {
  test.each(listFiles)('$name: the same entries for the loader, keys in schema order', ({ name, format, keys }) => {
    const original = readFileSync(join(root, name), 'utf8');
    const written = format.toFile(format.fromFile(original));
    expect(load(written)).toEqual(load(original));
    for (const entry of load(written) as Record<string, unknown>[]) {
      const order = Object.keys(entry).map((key) => keys.indexOf(key));
      expect(order).toEqual([...order].sort((a, b) => a - b));
    }
    // Written once more, nothing changes.
    expect(format.toFile(format.fromFile(written))).toBe(written);
  });
});

describe('writing entries', () => {
  const format = yamlListFormat(['id', 'title', 'views', 'publishedDate', 'featured'], ['publishedDate']);

  test('empty optional fields are left out, dates are unquoted, ambiguous text is quoted', () => {
    const text = format.toFile({
      [LIST_FIELD]: [
        { id: 'a', title: 'Busy: to brilliant', views: '2025-01-01', publishedDate: '2025-09-25', featured: false, extra: '' },
        { id: 'b', title: '', views: null },
      ],
    });
    expect(text).toBe('- id: a\n  title: "Busy: to brilliant"\n  views: "2025-01-01"\n  publishedDate: 2025-09-25\n  featured: false\n- id: b\n');
    expect(load(text)).toEqual([
      { id: 'a', title: 'Busy: to brilliant', views: '2025-01-01', publishedDate: new Date('2025-09-25'), featured: false },
      { id: 'b' },
    ]);
  });

  test('a date is read as the text the date widget edits', () => {
    expect(format.fromFile('- id: a\n  publishedDate: 2025-09-25\n')).toEqual({ [LIST_FIELD]: [{ id: 'a', publishedDate: '2025-09-25' }] });
  });

  test('a file that is not a list is refused', () => {
    expect(() => format.fromFile('id: a\n')).toThrow('This file must be a YAML list of entries.');
  });
});
