import { expect, test } from 'vitest';
import { cleanQuery, MAX_QUERY_LENGTH } from '../../src/lib/shared/search/query';
import { resultsStatus } from '../../src/lib/shared/search/render';

test.each([
  ['mastery', 'mastery'],
  ['  mastery   threshold ', 'mastery threshold'],
  ['line\nbreaks\tand tabs', 'line breaks and tabs'],
  ['', ''],
  ['   ', ''],
  [null, ''],
  ['<script>alert(1)</script>', '<script>alert(1)</script>'],
  ['x'.repeat(2000), 'x'.repeat(MAX_QUERY_LENGTH)],
  [`${'a'.repeat(MAX_QUERY_LENGTH - 1)} b`, 'a'.repeat(MAX_QUERY_LENGTH - 1)],
])('cleanQuery(%j) searches %j', (raw, expected) => {
  expect(cleanQuery(raw)).toBe(expected);
});

test.each([
  [3, 'mastery', 'Found 3 results for "mastery"'],
  [0, 'zzqxj', 'No results found for "zzqxj"'],
  [0, '<b>bold</b>', 'No results found for "<b>bold</b>"'],
])('resultsStatus(%i, %j)', (count, query, expected) => {
  expect(resultsStatus(count, query)).toBe(expected);
});
