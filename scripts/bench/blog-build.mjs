/**
 * Build time against the number of HubSpot blog posts: the real `astro build` with the blog
 * loader reading 10, 100 and 1,000 posts from the local HubSpot fake (into a scratch folder,
 * so dist/ is untouched). Growth should be close to linear; 1,000 posts under 60 s here.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root, table } from './_server.mjs';

export const title = 'Build time by number of HubSpot blog posts';

const counts = (process.env.BENCH_POST_COUNTS ?? '10,100,1000').split(',').map(Number);

function post(n) {
  const words = Array.from({ length: 600 }, (_, i) => `word${(i * 7 + n) % 97}`).join(' ');
  return {
    id: String(50_000 + n),
    slug: `blog/bench-post-${n}`,
    name: `Bench post ${n}: what mastery learning changes`,
    postBody: `<h2>Section</h2><p>${words}</p><ul><li>One</li><li>Two</li></ul>`,
    postSummary: `Summary of bench post ${n}, long enough to be an excerpt.`,
    publishDate: new Date(Date.UTC(2024, 0, 1) + n * 3_600_000).toISOString(),
    tagIds: [String(1 + (n % 5))],
  };
}

function build(env, outDir) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(join(root, 'node_modules', '.bin', 'astro'), ['build', '--outDir', outDir], {
      cwd: root,
      env: { ...process.env, ...env, ASTRO_TELEMETRY_DISABLED: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('exit', (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`astro build failed:\n${stderr.slice(-2000)}`))));
  });
}

export async function run() {
  // The fake is TypeScript; the bench runs on Node 24, which strips types.
  const { startHubSpotFake } = await import('../../tests/fakes/hubspot.ts');
  const fake = await startHubSpotFake();
  const rows = [];
  let warmed = false;
  try {
    for (let tag = 1; tag <= 5; tag++) fake.tags.set(String(tag), ['Research', 'Parents', 'Advocacy', 'AI in Education', 'School Leaders'][tag - 1]);
    // A first, unreported build warms Vite's and Astro's caches so that the rows compare like with like.
    for (const count of [counts[0], ...counts]) {
      const warmUp = !warmed;
      warmed = true;
      fake.posts = Array.from({ length: count }, (_, i) => post(i));
      const outDir = mkdtempSync(join(tmpdir(), `bench-build-${count}-`));
      try {
        const ms = await build({ BLOG_SOURCE: 'hubspot', FORMS_SOURCE: 'local', HUBSPOT_ACCESS_TOKEN: fake.token, HUBSPOT_BASE_PATH: fake.url }, outDir);
        if (!warmUp) rows.push([count, `${(ms / 1000).toFixed(1)} s`, `${(ms / count).toFixed(1)} ms`]);
      } finally {
        rmSync(outDir, { recursive: true, force: true });
      }
    }
  } finally {
    await fake.close();
  }
  table(['posts', 'build time', 'per post'], rows);
  // Linear growth means a fixed cost plus a constant cost per post; the ends of the range give
  // the slope (between neighbouring rows, a second of machine noise swamps it).
  if (rows.length > 1) {
    const [fromPosts, fromTime] = rows[0];
    const [toPosts, toTime] = rows[rows.length - 1];
    const marginal = ((Number.parseFloat(toTime) - Number.parseFloat(fromTime)) * 1000) / (toPosts - fromPosts);
    console.log(`${fromPosts} → ${toPosts} posts: ${marginal.toFixed(1)} ms per extra post`);
  }
}
