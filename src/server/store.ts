/**
 * Netlify Blobs, one blob per record: a nomination, a log entry, an outbox message. Records are
 * never kept in a shared list, so concurrent writes cannot lose each other.
 */
import { getStore, type Store } from '@netlify/blobs';
import { StoreUnavailableError } from './http';

export type StoreName = 'nominations' | 'outbox' | 'impact' | 'webhook-configs' | 'webhook-logs' | 'hubspot-configs' | 'sessions' | 'rate-limits' | 'subscriptions' | 'form-submissions';

/**
 * The Blobs client reports a conditional write (`onlyIfNew`) that the store answered with an error
 * as `{ modified: true }`, a claim taken for a write that never happened. Such an answer is thrown
 * here instead, so the client retries it and then fails like any other store error.
 */
const failConditionalErrors: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  const headers = new Headers(init?.headers);
  const conditional = headers.has('if-none-match') || headers.has('if-match');
  if (conditional && (response.status === 429 || response.status >= 500)) {
    await response.body?.cancel();
    throw new Error(`Netlify Blobs answered ${response.status} to a conditional write.`);
  }
  return response;
};

export function store(name: StoreName, options: { strong?: boolean } = {}): Store {
  try {
    return getStore({ name, consistency: options.strong ? 'strong' : 'eventual', fetch: failConditionalErrors });
  } catch (error) {
    throw new StoreUnavailableError(error instanceof Error ? error.message : 'Blobs unavailable');
  }
}

/** Runs a store operation, turning a transport failure into StoreUnavailableError (503). */
export async function withStore<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (error instanceof StoreUnavailableError) throw error;
    throw new StoreUnavailableError(error instanceof Error ? error.message : 'Blobs unavailable');
  }
}

/** Sortable, unique record keys: newest-first listings sort by the inverted time prefix. */
export function recordKey(date = new Date()): string {
  const inverted = (9_999_999_999_999 - date.getTime()).toString().padStart(13, '0');
  return `${inverted}-${crypto.randomUUID()}`;
}
