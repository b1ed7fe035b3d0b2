/** Issue 32: a parent reads where their school email stands as a sentence, never a stored state. */
import { describe, expect, test } from 'vitest';
import { letterStateText } from '../../src/lib/letter-status';

describe('where a school email stands, in words', () => {
  test.each([
    [{ channel: 'platform', status: 'awaiting_confirmation' }, 'Waiting for you to confirm: the link is in your inbox.'],
    [{ channel: 'platform', status: 'queued' }, 'Confirmed, and waiting to be sent.'],
    [{ channel: 'platform', status: 'sent' }, 'Sent by our platform.'],
    [{ channel: 'platform', status: 'failed' }, 'Not sent: we could not deliver it.'],
    [{ channel: 'platform', status: 'failed', lastError: 'not_confirmed_in_time' }, 'Not sent: it was not confirmed within 24 hours.'],
    [{ channel: 'self', status: 'sent' }, 'You sent it yourself.'],
    // A state added later still reads as a sentence, not its name.
    [{ channel: 'platform', status: 'some_new_state' }, 'We are still working on it.'],
  ])('%o reads "%s"', (message, text) => {
    expect(letterStateText(message)).toBe(text);
  });
});
