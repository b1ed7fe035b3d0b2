/**
 * Issue 31: the first paint is the page again. What the build does to each page for it: its inline
 * styles keep only the rules something on it can use, and its module scripts load after its first
 * paint; every change keeps the page's Content-Security-Policy true.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { afterFirstPaint } from '../../src/lib/build/first-paint';
import { deferPageScripts, loaderCode } from '../../src/lib/build/page-scripts';
import { classTokens, prunePageStyles, pruneStylesheet } from '../../src/lib/build/page-styles';

const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const css =
  '.used{color:red}.unused{color:blue}.from-script{color:green}.a.b{margin:0}.a:not(.never){padding:0}p{line-height:2}@media (width>=40rem){.sm\\:unused{color:red}.sm\\:used{color:blue}}';
const page = (style: string, body: string, scripts = '') =>
  `<!doctype html><html><head><meta http-equiv="content-security-policy" content="default-src 'self'; script-src 'self' ${hash('x')}; style-src 'self' ${hash(style)}"><style>${style}</style></head><body>${body}${scripts}</body></html>`;

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('each page keeps the styles it can use', () => {
  test.each([
    ['a class on the page', '.used', true],
    ['a class nowhere', '.unused', false],
    ['a class only a script of the page adds', '.from-script', true],
    ['two classes, one missing', '.a.b', false],
    ['a class inside :not()', '.a:not(.never)', true],
    ['an element rule', 'p{', true],
    ['a variant of a class on the page', 'sm\\:used', true],
    ['a variant of a class nowhere', 'sm\\:unused', false],
  ])('%s: %s kept %s', (_name, selector, kept) => {
    const tokens = classTokens('<p class="used a sm:used">x</p>');
    classTokens('el.className="from-script"', tokens);
    expect(pruneStylesheet(css, tokens).includes(selector)).toBe(kept);
  });

  test('a built page: the rules go, the policy names the new stylesheet, the frames that functions fill keep all', () => {
    const dist = mkdtempSync(join(tmpdir(), 'page-styles-'));
    dirs.push(dist);
    mkdirSync(join(dist, '_astro'));
    writeFileSync(join(dist, '_astro', 'toast.Ab1.js'), 'x.className="from-script"');
    writeFileSync(join(dist, 'index.html'), page(css, '<p class="used">Hi</p>', '<script type="module" src="/_astro/toast.Ab1.js"></script>'));
    writeFileSync(join(dist, 'form-response.html'), page(css, '<p>A function fills this in</p>'));
    prunePageStyles(dist);
    const index = readFileSync(join(dist, 'index.html'), 'utf8');
    const style = /<style>([\s\S]*?)<\/style>/.exec(index)![1]!;
    expect(style).toContain('.from-script');
    expect(style).not.toContain('.unused');
    expect(index).toContain(hash(style));
    expect(index).not.toContain(hash(css));
    expect(readFileSync(join(dist, 'form-response.html'), 'utf8')).toContain(css);
  });
});

describe('each page loads its module scripts after its first paint', () => {
  const scripts = '<script type="module" src="/_astro/a.X1.js"></script><script type="module" src="/_astro/b.Y2.js"></script>';

  test('the tags become one loader at the end of the body, whose hash the policy carries', () => {
    const html = deferPageScripts(page('p{}', '<main id="main">Text</main>', scripts));
    expect(html).not.toContain('src="/_astro/');
    const code = loaderCode(['/_astro/a.X1.js', '/_astro/b.Y2.js']);
    expect(html).toContain(`<script type="module" data-page-scripts>${code}</script></body>`);
    expect(/script-src ([^;]*)/.exec(html)![1]).toContain(hash(code));
    // Once the first paint is on the screen (src/lib/build/first-paint.ts); at once in a hidden tab.
    expect(code).toContain(`${afterFirstPaint('load')};`);
    expect(code).toContain("dataset.scripts='ready'");
  });

  test('a page without module scripts is left as it is', () => {
    const html = page('p{}', '<main>Text</main>');
    expect(deferPageScripts(html)).toBe(html);
  });
});

describe('custom properties', () => {
  test('a design token nothing left reads goes; one a kept rule, another token or a script reads stays', () => {
    const theme =
      ':root{--color-used:red;--color-unused:blue;--color-chain:green;--color-scripted:pink}.a{color:var(--color-used);border-color:var(--color-chain2,var(--color-chain))}.gone{color:var(--color-unused)}@property --tw-kept{syntax:"*";inherits:false}@property --tw-gone{syntax:"*";inherits:false}.a{--tw-kept:1;translate:var(--tw-kept)}';
    const tokens = classTokens('<p class="a">x</p>');
    classTokens("el.style.getPropertyValue('--color-scripted')", tokens);
    const pruned = pruneStylesheet(theme, tokens);
    for (const kept of ['--color-used', '--color-chain', '--color-scripted', '@property --tw-kept']) expect(pruned).toContain(kept);
    for (const gone of ['--color-unused', '@property --tw-gone']) expect(pruned).not.toContain(gone);
  });

  test('a property lightningcss does not model is kept: only custom properties are pruned', () => {
    // It hands these to the visitor as "custom" too; pruning them took `isolate` off the home hero
    // (its grid and particles were drawn under its background), `pointer-events-none` off 49 pages,
    // and `object-cover`, `line-clamp-3`, `tabular-nums`, `underline-offset-4`, `border-collapse`.
    const declarations = [
      'isolation:isolate',
      'pointer-events:none',
      'object-fit:cover',
      '-webkit-line-clamp:3',
      'font-variant-numeric:tabular-nums',
      'text-underline-offset:4px',
      'border-collapse:collapse',
      'touch-action:manipulation',
      'scroll-behavior:smooth',
    ];
    const css = declarations.map((declaration, i) => `.k${i}{${declaration}}`).join('');
    const pruned = pruneStylesheet(css, classTokens(`<p class="${declarations.map((_, i) => `k${i}`).join(' ')}">x</p>`));
    for (const declaration of declarations) expect(pruned).toContain(declaration);
  });
});
