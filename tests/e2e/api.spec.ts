import { samplePageKey, sampleSchools, slug } from '../../scripts/sample-schools.mjs';
import { baseURL } from '../../playwright.config';
import { expect, test } from './fixtures';

test.describe('build-time JSON endpoints', () => {
  for (const path of ['/api/hubspot-blogs', '/api/hubspot-blog/why-two-hours-is-enough', '/api/parent-videos', '/api/student-videos']) {
    test(`${path} is JSON cached for 5 minutes`, async ({ request }) => {
      const response = await request.get(path);
      expect(response.status()).toBe(200);
      expect(response.headers()['content-type']).toMatch(/^application\/json/);
      expect(response.headers()['cache-control']).toMatch(/max-age=300\b/);
      await response.json();
    });
  }

  test('the blog list holds every post, newest first, in the spec shape', async ({ request }) => {
    const { posts, totalPosts } = await (await request.get('/api/hubspot-blogs')).json();
    expect(totalPosts).toBe(posts.length);
    expect(totalPosts).toBeGreaterThanOrEqual(7);
    for (const post of posts) {
      expect(Object.keys(post).sort()).toEqual(['category', 'content', 'excerpt', 'featuredImage', 'id', 'publishedAt', 'readTime', 'slug', 'tags', 'title']);
      expect(post.readTime).toBeGreaterThan(0);
    }
    const dates = posts.map((post: { publishedAt: string }) => Date.parse(post.publishedAt));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
  });

  test('one post by slug, and a JSON 404 for an unknown slug', async ({ request }) => {
    const post = await (await request.get('/api/hubspot-blog/what-mastery-really-means')).json();
    expect(post.slug).toBe('what-mastery-really-means');
    expect(post.content).toContain('<h2');
    for (const slug of ['no-such-post', '..%2F..%2Fpackage.json', 'UPPER']) {
      const missing = await request.get(`/api/hubspot-blog/${slug}`);
      expect(missing.status()).toBe(404);
      expect(missing.headers()['content-type']).toMatch(/^application\/json/);
      expect((await missing.json()).error.message).toBe('Blog post not found');
    }
  });

  test('videos carry the spec fields', async ({ request }) => {
    const parents = (await (await request.get('/api/parent-videos')).json()).videos;
    const students = (await (await request.get('/api/student-videos')).json()).videos;
    expect(parents.length).toBeGreaterThan(0);
    expect(students.length).toBeGreaterThan(0);
    for (const video of parents) expect(Object.keys(video).sort()).toEqual(['createdAt', 'description', 'id', 'mp4Url', 'thumbnailUrl', 'title']);
    for (const video of students) expect(Object.keys(video).sort()).toEqual(['description', 'id', 'mp4Url', 'thumbnailUrl', 'title']);
  });

  test('writes are refused', async ({ request }) => {
    const response = await request.post('/api/hubspot-blogs', { data: {} });
    expect(response.status()).toBeGreaterThanOrEqual(400);
    expect(response.status()).toBeLessThan(500);
  });
});

test("each sample school of the local site has its page at its fixed link (the bench's Lighthouse part measures the first)", async ({ request }) => {
  for (const school of sampleSchools) {
    const path = `/schools/${slug(school.name)}-${samplePageKey(school.id)}`;
    for (const prefix of ['', '/es']) {
      const response = await request.get(`${prefix}${path}`);
      expect(response.status(), `${prefix}${path}`).toBe(200);
      // This school's own page: its canonical link is this path.
      expect(await response.text()).toContain(`<link rel="canonical" href="${new URL(`${prefix}${path}`, baseURL).href}">`);
    }
  }
});
