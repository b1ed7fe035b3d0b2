/** Issue 32: a parent reads where their school email stands as a sentence, never a stored state. */
import { describe, expect, test } from 'vitest';
import { letterStateText } from '../../src/server/letter-pages';

const NOW = new Date('2026-12-02T12:00:00Z');

describe('where a school email stands, in words', () => {
  test.each<[string, Parameters<typeof letterStateText>[0], string | RegExp]>([
    ['waiting for the parent', { channel: 'platform', status: 'awaiting_confirmation' }, 'Waiting for you to confirm it from your inbox'],
    ['stopped by a limit', { channel: 'platform', status: 'awaiting_confirmation', confirmation: { expiresAt: NOW.toISOString(), refusal: 'school_limit' } }, 'Not sent: our platform’s limits stopped it'],
    ['waiting for the school’s hours', { channel: 'platform', status: 'queued', delivery: { at: '2026-12-03T13:00:00Z', timeZone: 'America/New_York', state: 'scheduled' } }, /^Confirmed; going to the school at 8:00/],
    ['sent', { channel: 'platform', status: 'sent' }, 'Sent by our platform'],
    ['bounced', { channel: 'platform', status: 'bounced' }, 'Not delivered: the school’s address refused it'],
    ['replaced', { channel: 'platform', status: 'replaced' }, 'Replaced by a newer letter; never sent'],
    ['not confirmed in time', { channel: 'platform', status: 'failed', lastError: 'not_confirmed_in_time' }, 'Never sent: not confirmed in time'],
    ['sent by the parent', { channel: 'self', status: 'sent' }, 'Sent by you'],
    ['sent by the parent and approved', { channel: 'self', status: 'sent', review: 'approved' }, 'Sent by you; counted on your school’s page'],
  ])('%s', (_name, message, text) => {
    const said = letterStateText(message, NOW);
    if (text instanceof RegExp) expect(said).toMatch(text);
    else expect(said).toBe(text);
    expect(said).not.toMatch(/_/);
  });
});
