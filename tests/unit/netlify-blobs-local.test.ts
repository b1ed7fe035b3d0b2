import { afterAll, beforeAll, expect, test } from 'vitest';
import { store } from '../../src/server/store';
import { startLocalBlobs, type LocalBlobs } from './helpers/blobs';

let blobs: LocalBlobs;
beforeAll(async () => {
  blobs = await startLocalBlobs();
});
afterAll(() => blobs.stop());

test.each([1, 2, 3])('of 50 create-if-new writes racing for one key, exactly one succeeds (round %i)', async (round) => {
  const results = await Promise.all(
    Array.from({ length: 50 }, (_, index) => store('rate-limits', { strong: true }).setJSON(`race/${round}`, { index }, { onlyIfNew: true })),
  );
  expect(results.filter((result) => result.modified)).toHaveLength(1);
});

test('of 50 compare-and-swap writes from one version, exactly one succeeds', async () => {
  const blobs = store('rate-limits', { strong: true });
  const { etag } = await blobs.setJSON('cas', { version: 0 });
  const results = await Promise.all(
    Array.from({ length: 50 }, (_, index) => blobs.setJSON('cas', { version: index + 1 }, { onlyIfMatch: etag! })),
  );
  expect(results.filter((result) => result.modified)).toHaveLength(1);
});

test('a read gives the ETag a compare-and-swap needs', async () => {
  const blobs = store('rate-limits', { strong: true });
  const { etag } = await blobs.setJSON('read-etag', { version: 1 });
  const read = await blobs.getWithMetadata('read-etag', { type: 'json' });
  expect(read?.etag).toBe(etag);
  expect((await blobs.setJSON('read-etag', { version: 2 }, { onlyIfMatch: read!.etag! })).modified).toBe(true);
  expect((await blobs.setJSON('read-etag', { version: 3 }, { onlyIfMatch: read!.etag! })).modified).toBe(false);
});
