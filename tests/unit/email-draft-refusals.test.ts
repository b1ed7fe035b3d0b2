/**
 * The dialog's store says a refusal in the dialog's flow with the server's own words (in the
 * parent's language, tests/unit/spanish-refusals.test.ts), the ways to send it yourself beside it:
 * a limit, a bounced address, a held form and a block staff set. Anything else is the failure
 * notice.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { $toast } from '../../src/lib/browser/frame/toast';
import { $emailDraft, sendDraftViaPlatform, type EmailDraft } from '../../src/stores/emailDraft';

const toasts = {
  sent: { title: 'Sent', description: 'Sent.' },
  sendFailed: { title: 'Error', description: 'Failed to send email via platform.' },
};

function answering(status: number, body: unknown) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })),
  );
  // Only what asking reads: the draft's id and token, its note and the box, and where it stands.
  $emailDraft.set({ id: 'draft-1', token: 't'.repeat(43), note: '', wordsConsent: false, send: 'idle', noteError: null } as unknown as EmailDraft);
}

afterEach(() => {
  vi.unstubAllGlobals();
  $emailDraft.set(null);
});

describe('a refusal is said in the dialog with the server’s words', () => {
  test.each(['network_busy', 'address_blocked', 'held_for_review', 'blocked'])('%s', async (code) => {
    const message = `Words of the server for ${code}`;
    answering(code === 'blocked' ? 403 : 409, { error: { code, message } });
    expect(await sendDraftViaPlatform({ closeOnSuccess: false, toasts })).toBe('refused');
    expect($emailDraft.get()).toMatchObject({ send: 'refused', sendMessage: message });
  });

  test('an unknown failure is the dialog’s own notice, never a server’s text', async () => {
    answering(500, { error: { code: 'internal_error', message: 'stack trace' } });
    expect(await sendDraftViaPlatform({ closeOnSuccess: false, toasts })).toBe('failed');
    expect($emailDraft.get()).toMatchObject({ send: 'failed', sendMessage: toasts.sendFailed.description });
    expect($toast.get()).toMatchObject({ title: 'Error', description: toasts.sendFailed.description });
  });
});
