import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fileFor, serveContent } from '../../netlify/functions/content-api.mts';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'content-api-'));
  mkdirSync(join(dir, 'hubspot-blog'));
  writeFileSync(join(dir, 'hubspot-blogs'), JSON.stringify({ posts: [], totalPosts: 0 }));
  writeFileSync(join(dir, 'hubspot-blog', 'a-post'), JSON.stringify({ slug: 'a-post' }));
  writeFileSync(join(dir, 'parent-videos'), JSON.stringify({ videos: [] }));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const get = (path: string, method = 'GET') => serveContent(new Request(`http://localhost${path}`, { method }), dir);

describe('content-api', () => {
  test.each([
    ['/api/hubspot-blogs', 'hubspot-blogs'],
    ['/api/hubspot-blog/a-post', 'hubspot-blog/a-post'],
    ['/api/parent-videos', 'parent-videos'],
    ['/api/hubspot-blog/../../package.json', undefined],
    ['/api/hubspot-blog/%2e%2e', undefined],
    ['/api/hubspot-blog/UPPER', undefined],
    ['/api/other', undefined],
  ])('%s → %s', (path, file) => {
    expect(fileFor(path)).toBe(file);
  });

  test.each([['/api/hubspot-blogs'], ['/api/hubspot-blog/a-post'], ['/api/parent-videos']])(
    '%s answers the build file as JSON cached 5 minutes',
    async (path) => {
      const response = await get(path);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.headers.get('cache-control')).toBe('public, max-age=300');
      await response.json();
    },
  );

  test.each([['/api/hubspot-blog/missing'], ['/api/hubspot-blog/..%2Fhubspot-blogs']])('%s is a JSON 404', async (path) => {
    const response = await get(path);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { code: 'not_found', message: 'Blog post not found' } });
  });

  test('a missing build file is a 404, not a crash', async () => {
    expect((await get('/api/student-videos')).status).toBe(404);
  });

  test('only GET and HEAD', async () => {
    expect((await get('/api/hubspot-blogs', 'POST')).status).toBe(405);
    const head = await get('/api/hubspot-blogs', 'HEAD');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });
});
