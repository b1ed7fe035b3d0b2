/** The /how-it-works subscribe box: POST /api/subscribe {email} with clear messages for every answer. */
import { showToast } from './frame/toast';

export const SUBSCRIBE_MESSAGES = {
  invalid: 'Please enter a valid email address.',
  success: "Thank you! You're subscribed to our updates.",
  notConfigured: 'Subscriptions are not available right now. Please try again later, or use the newsletter form at the bottom of the page.',
  failed: 'We could not subscribe you right now. Please try again.',
} as const;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type SubscribeOutcome = keyof typeof SUBSCRIBE_MESSAGES;

/** What the box says, in the page's language: the form's `data-messages` (JSON), else the English above. */
export type SubscribeWords = Record<SubscribeOutcome | 'pending' | 'toast', string>;
const ENGLISH: SubscribeWords = { ...SUBSCRIBE_MESSAGES, pending: 'Subscribing…', toast: 'Subscribed!' };

export function subscribeWordsOf(form: HTMLElement): SubscribeWords {
  try {
    return { ...ENGLISH, ...(JSON.parse(form.dataset.messages ?? '{}') as Partial<SubscribeWords>) };
  } catch {
    return ENGLISH;
  }
}

/** Posts the address and names the outcome; never throws. */
export async function subscribe(email: string, fetchImpl: typeof fetch = fetch): Promise<SubscribeOutcome> {
  // The same rule as the browser's type=email check; the function validates again with the shared schema.
  const address = email.trim();
  if (!EMAIL.test(address) || address.length > 254) return 'invalid';
  try {
    const response = await fetchImpl('/api/subscribe', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      credentials: 'include',
      body: JSON.stringify({ email: address }),
    });
    if (response.ok) return 'success';
    const body = (await response.json().catch(() => null)) as { error?: { code?: string } } | null;
    // Not configured yet, or the endpoint is not deployed: the visitor can still use the footer form.
    if (body?.error?.code === 'hubspot_not_configured' || response.status === 404 || response.status === 503) return 'notConfigured';
    if (response.status === 400 || response.status === 422) return 'invalid';
    return 'failed';
  } catch {
    return 'failed';
  }
}

export function initSubscribeForms(root: ParentNode = document): void {
  for (const form of root.querySelectorAll<HTMLFormElement>('form[data-subscribe]')) {
    const input = form.querySelector<HTMLInputElement>('input[name="email"]');
    const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
    const message = form.parentElement?.querySelector<HTMLElement>('[data-subscribe-message]');
    const words = subscribeWordsOf(form);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      if (!input || !message) return;
      if (button) button.disabled = true;
      message.textContent = words.pending;
      message.className = 'mt-3 min-h-6 text-sm text-muted';
      const outcome = await subscribe(input.value);
      if (button) button.disabled = false;
      message.textContent = words[outcome];
      message.className = `mt-3 min-h-6 text-sm font-medium ${outcome === 'success' ? 'text-success-600' : 'text-danger-600'}`;
      message.dataset.outcome = outcome;
      input.setAttribute('aria-invalid', String(outcome === 'invalid'));
      if (outcome === 'success') {
        form.reset();
        showToast({ title: words.toast, description: words.success });
      } else if (outcome === 'invalid') {
        input.focus();
      }
    });
  }
}
