/**
 * Netlify Blobs, one blob per record: a nomination, a log entry, an outbox message. Records are
 * never kept in a shared list, so concurrent writes cannot lose each other.
 */
import { getStore, type Store } from '@netlify/blobs';
import { StoreUnavailableError } from './http';

export type StoreName = 'nominations' | 'outbox' | 'webhook-configs' | 'webhook-logs' | 'hubspot-configs' | 'sessions' | 'rate-limits' | 'subscriptions';

export function store(name: StoreName, options: { strong?: boolean } = {}): Store {
  try {
    return getStore({ name, consistency: options.strong ? 'strong' : 'eventual' });
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
