/** Issue 32: a parent reads where their school email stands as a sentence, never a stored state. */
import { beforeAll, describe, expect, test } from 'vitest';
import { dataWordsOf, letterStateText, type DataWords } from '../../src/server/pages/your-data';

const NOW = new Date('2026-12-02T12:00:00Z');

let english: DataWords;
let spanish: DataWords;
beforeAll(async () => {
  english = await dataWordsOf('en');
  spanish = await dataWordsOf('es');
});

describe('where a school email stands, in words', () => {
  test.each<[string, Parameters<typeof letterStateText>[1], string | RegExp]>([
    ['waiting for the parent', { channel: 'platform', status: 'awaiting_confirmation' }, 'Waiting for you to confirm it from your inbox'],
    [
      'stopped by a limit',
      { channel: 'platform', status: 'awaiting_confirmation', confirmation: { expiresAt: NOW.toISOString(), refusal: 'school_limit' } },
      'Not sent: our platform’s limits stopped it',
    ],
    [
      'waiting for the school’s hours',
      { channel: 'platform', status: 'queued', delivery: { at: '2026-12-03T13:00:00Z', timeZone: 'America/New_York', state: 'scheduled' } },
      /^Confirmed; going to the school at 8:00/,
    ],
    ['sent', { channel: 'platform', status: 'sent' }, 'Sent by our platform'],
    ['delivered', { channel: 'platform', status: 'delivered' }, 'Delivered to the school’s mail server'],
    ['bounced', { channel: 'platform', status: 'bounced' }, 'Not delivered: the school’s mailbox does not exist'],
    ['refused by the school’s mail server', { channel: 'platform', status: 'failed', lastError: 'refused' }, 'Not sent: the school’s mail server refused it'],
    [
      'withdrawn: the school complained',
      { channel: 'platform', status: 'withdrawn', lastError: 'school_complained' },
      'Not sent: the school asked its provider to stop our emails',
    ],
    [
      'expired after its confirmation',
      { channel: 'platform', status: 'expired', lastError: 'too_long_waiting' },
      'Not sent: the school’s mail server did not take it in time',
    ],
    ['replaced', { channel: 'platform', status: 'replaced' }, 'Replaced by a newer letter you confirmed; never sent'],
    ['not confirmed in time', { channel: 'platform', status: 'expired', lastError: 'not_confirmed_in_time' }, 'Never sent: not confirmed in time'],
    [
      'a self-report waiting for its confirmation',
      { channel: 'self', status: 'awaiting_confirmation' },
      'Waiting for you to confirm from your inbox that you sent it',
    ],
    ['sent by the parent', { channel: 'self', status: 'sent' }, 'Sent by you'],
    ['sent by the parent and approved', { channel: 'self', status: 'sent', review: 'approved' }, 'Sent by you; counted on your school’s page'],
  ])('%s', (_name, message, text) => {
    const said = letterStateText(english, message, NOW);
    if (text instanceof RegExp) expect(said).toMatch(text);
    else expect(said).toBe(text);
    expect(said).not.toMatch(/_/);
    // In Spanish (issue 48): a sentence of its own, never the English one, a key or a placeholder.
    const dicho = letterStateText(spanish, message, NOW);
    expect(dicho).not.toBe(said);
    expect(dicho).not.toMatch(/_|\{|yourData\.|\b(the|your|you|sent|not)\b/i);
  });
});
