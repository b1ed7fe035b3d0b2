/**
 * Lighthouse 13, mobile preset, on every route of the production build. Each route is measured
 * BENCH_RUNS times (default 3): the table shows the median run's scores and timings and the worst
 * CLS of all runs (a shift that happens in one run in five is still a shift), with how many runs
 * shifted at all.
 */
import { launch } from 'chrome-launcher';
import { importSource } from './_source.mjs';
import { samplePageKey, sampleSchools, slug } from '../sample-schools.mjs';
import lighthouse from 'lighthouse';
import { chromiumFlags, chromiumPath } from '../chromium.mjs';
import { startEmbedStandIn } from './_embed.mjs';
import { table, withServer } from './_server.mjs';

export const title = 'Lighthouse (mobile) per route';

/** How the bench opens a page whose bare path is not what a visitor sees (one page, several ways). */
const visits = {
  // As a visitor arrives from the scheduler: the details fill in after the first paint.
  '/thank-you': ['/thank-you', '/thank-you?invitee_first_name=Ana&event_type_name=Intro%20Call&event_start_time=2026-01-15T16%3A00%3A00Z'],
  '/form': ['/form?type=newsletter'],
  '/search': ['/search?q=mastery'],
  '/es/search': ['/es/search?q=matematicas'],
};
/** Built pages not measured: a form's answer and the not-found page, in each language. */
const unmeasured = new Set(['/form-response', '/404', '/es/form-response', '/es/404']);

/** Every built page of the site in every language (the one list, src/config/pages.ts), as the bench opens it. */
async function siteRoutes() {
  const { sitePages } = await importSource('../../src/config/pages.ts');
  return sitePages.filter((page) => page.made === 'built' && !unmeasured.has(page.path)).flatMap((page) => visits[page.path] ?? [page.path]);
}

/**
 * A school page (/schools/{slug}-{key}): a verified school has its page from the start, and
 * `npm start` writes sample verified schools (scripts/sample-schools.mjs), so the first one's page
 * is measured. (A page made by a parent's letter needs their confirmation from the inbox and, for
 * "I've sent it myself", staff's approval: src/server/schools/publication.ts.)
 */
async function schoolPageRoute(base) {
  const [school] = sampleSchools;
  const path = `/schools/${slug(school.name)}-${samplePageKey(school.id)}`;
  const response = await fetch(`${base}${path}`);
  if (response.status !== 200) throw new Error(`The sample school's page ${path} answered ${response.status}.`);
  return path;
}

const kb = (bytes) => (bytes / 1024).toFixed(1);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

/** The largest element's markup and text (Lighthouse 13 names it in its LCP breakdown). */
function lcpNode(lhr) {
  const node = (lhr.audits['lcp-breakdown-insight']?.details?.items ?? []).find((item) => item.type === 'node');
  return node ? `${node.snippet} ${node.nodeLabel ?? ''}` : '?';
}

/** One run's figures. */
function figures(lhr) {
  const score = (id) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const items = lhr.audits['network-requests']?.details?.items ?? [];
  const bytes = (type) => items.filter((i) => i.resourceType === type).reduce((sum, i) => sum + (i.transferSize ?? 0), 0);
  return {
    perf: score('performance'),
    a11y: score('accessibility'),
    best: score('best-practices'),
    seo: score('seo'),
    fcp: lhr.audits['first-contentful-paint'].numericValue,
    lcp: lhr.audits['largest-contentful-paint'].numericValue,
    tbt: lhr.audits['total-blocking-time'].numericValue,
    cls: lhr.audits['cumulative-layout-shift'].numericValue,
    js: bytes('Script'),
    css: bytes('Stylesheet'),
    html: bytes('Document'),
    total: items.reduce((sum, i) => sum + (i.transferSize ?? 0), 0),
    // What moved, for BENCH_VERBOSE.
    shifted: (lhr.audits['layout-shifts']?.details?.items ?? []).map((item) => `${item.node?.selector ?? '?'} (${(item.score ?? 0).toFixed(3)})`),
    // The largest element, for BENCH_VERBOSE: what to look at when LCP comes after FCP.
    lcpElement: lcpNode(lhr),
  };
}

export async function run() {
  const only = process.env.BENCH_ROUTES?.split(',');
  await withServer(Number(process.env.BENCH_PORT || 8897), async (base) => {
    const embed = await startEmbedStandIn();
    const chrome = await launch({
      chromePath: chromiumPath,
      // Lighthouse wants the new headless mode.
      chromeFlags: [...chromiumFlags.map((flag) => (flag === '--headless' ? '--headless=new' : flag)), ...embed.flags],
    });
    const rows = [];
    const runs = Math.max(1, Number(process.env.BENCH_RUNS || 3));
    try {
      // "school" stands for a sample school's page; a static build (BENCH_STATIC) has no functions
      // to answer it, so it measures the built routes only.
      const all = [];
      const answeredByFunctions = process.env.BENCH_STATIC ? [] : ['school'];
      for (const route of only ?? [...(await siteRoutes()), ...answeredByFunctions]) all.push(route === 'school' ? await schoolPageRoute(base) : route);
      for (const route of all) {
        const results = [];
        for (let run = 0; run < runs; run++) {
          const result = await lighthouse(`${base}${route}`, { port: chrome.port, output: 'json', logLevel: 'error' });
          const lhr = result.lhr;
          results.push(figures(lhr));
          const failing = Object.values(lhr.audits).filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === 'binary');
          if (failing.length && process.env.BENCH_VERBOSE) {
            console.log(route, `run ${run + 1}`, failing.map((a) => a.id).join(', '));
            for (const audit of failing) for (const item of audit.details?.items ?? []) console.log('  ', audit.id, JSON.stringify(item).slice(0, 300));
          }
          if (process.env.BENCH_VERBOSE) {
            const last = results.at(-1);
            console.log(route, `run ${run + 1}`, `FCP ${Math.round(last.fcp)} ms, LCP ${Math.round(last.lcp)} ms:`, last.lcpElement.slice(0, 200));
          }
          if (process.env.BENCH_VERBOSE && results.at(-1).cls > 0)
            console.log(route, `run ${run + 1}`, 'CLS', results.at(-1).cls.toFixed(3), results.at(-1).shifted.join(', '));
        }
        const mid = (key) => median(results.map((r) => r[key]));
        const worstCls = Math.max(...results.map((r) => r.cls));
        const shiftedRuns = results.filter((r) => r.cls > 0).length;
        rows.push([
          route,
          mid('perf'),
          mid('a11y'),
          mid('best'),
          mid('seo'),
          `${Math.round(mid('lcp'))} ms`,
          // How long the largest element comes after the first paint (0 when it is in the first).
          `${Math.round(median(results.map((r) => r.lcp - r.fcp)))} ms`,
          `${Math.round(mid('tbt'))} ms`,
          worstCls.toFixed(3),
          `${shiftedRuns}/${runs}`,
          kb(mid('js')),
          kb(mid('css')),
          kb(mid('html')),
          kb(mid('total')),
        ]);
      }
    } finally {
      await chrome.kill();
      await embed.close();
    }
    table(['route', 'perf', 'a11y', 'best', 'seo', 'LCP', 'LCP−FCP', 'TBT', 'worst CLS', 'runs shifted', 'JS KB', 'CSS KB', 'HTML KB', 'total KB'], rows);
  });
}
