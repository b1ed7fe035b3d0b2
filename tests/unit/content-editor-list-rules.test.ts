/** The rules across the entries of a list file (src/lib/browser/content-editor/list-rules.ts). */
import { describe, expect, test } from 'vitest';
import { listRuleErrors } from '../../src/lib/browser/content-editor/list-rules';

const labels = { id: 'Id', target: 'Number', text: 'Text' };
const rules = { unique_field: 'id', exactly_one_of: [['target', 'text']], required_values: { field: 'id', values: ['kept'], message: 'FAQs name it' } };

describe('list rules', () => {
  test.each([
    {
      name: 'valid entries',
      entries: [
        { id: 'kept', target: 5 },
        { id: 'b', text: '2x' },
      ],
      errors: [],
    },
    { name: 'a number of 0 counts as given', entries: [{ id: 'kept', target: 0 }], errors: [] },
    {
      name: 'neither field, empty values included',
      entries: [{ id: 'kept', target: '', text: null }],
      errors: ['Statistic 1 ("kept"): fill in "Number" or "Text".'],
    },
    { name: 'both fields', entries: [{ id: 'kept', target: 5, text: '5' }], errors: ['Statistic 1 ("kept"): fill in "Number" or "Text", not both.'] },
    {
      name: 'a repeated id',
      entries: [
        { id: 'kept', target: 1 },
        { id: 'b', target: 2 },
        { id: 'b', target: 3 },
      ],
      errors: ['Statistic 2 and 3 have the same "Id" "b"; each must be unique.'],
    },
    { name: 'an id in use removed', entries: [{ id: 'other', target: 1 }], errors: ['"Id" "kept" cannot be removed or renamed: FAQs name it.'] },
    {
      name: 'an entry without an id is named by its position',
      entries: [{ id: 'kept', target: 1 }, { text: '' }],
      errors: ['Statistic 2: fill in "Number" or "Text".'],
    },
  ])('$name', ({ entries, errors }) => {
    expect(listRuleErrors(entries, rules, labels, 'Statistic')).toEqual(errors);
  });
});
