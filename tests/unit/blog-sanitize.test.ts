import { describe, expect, test } from 'vitest';
import { sanitizeBlogHtml } from '../../src/lib/build/blog/sanitize';

describe('HubSpot post HTML is sanitised', () => {
  test.each([
    ['a script element', '<p>Hi</p><script>alert(1)</script>', '<p>Hi</p>'],
    ['an inline event handler', '<p onclick="alert(1)" onmouseover="x()">Hi</p>', '<p>Hi</p>'],
    [
      'an image error handler',
      '<img src="https://cdn.example.org/a.png" onerror="alert(1)">',
      '<img src="https://cdn.example.org/a.png" loading="lazy" alt="" />',
    ],
    ['a javascript: link', '<a href="javascript:alert(1)">x</a>', '<a>x</a>'],
    ['a JavaScript: link with odd case and spaces', '<a href=" JaVaScRiPt:alert(1)">x</a>', '<a>x</a>'],
    ['an entity-encoded javascript: link', '<a href="&#106;avascript:alert(1)">x</a>', '<a>x</a>'],
    ['a data: URL image', '<img src="data:image/svg+xml;base64,PHN2Zz4=">', '<img loading="lazy" alt="" />'],
    ['a vbscript: link', '<a href="vbscript:msgbox(1)">x</a>', '<a>x</a>'],
    ['an iframe', '<iframe src="https://evil.example.org"></iframe><p>ok</p>', '<p>ok</p>'],
    ['an object/embed', '<object data="x.swf"></object><embed src="x.swf"><p>ok</p>', '<p>ok</p>'],
    ['a style element and attribute', '<style>body{display:none}</style><p style="position:fixed">ok</p>', '<p>ok</p>'],
    ['a form with a button', '<form action="https://evil.example.org"><button>Go</button></form>', 'Go'],
    ['an SVG with script', '<svg><script>alert(1)</script></svg><p>ok</p>', '<p>ok</p>'],
    ['a meta refresh', '<meta http-equiv="refresh" content="0;url=https://evil.example.org"><p>ok</p>', '<p>ok</p>'],
    ['a protocol-relative image', '<img src="//evil.example.org/x.png">', '<img loading="lazy" alt="" />'],
    ['an http image (mixed content)', '<img src="http://cdn.example.org/x.png">', '<img loading="lazy" alt="" />'],
    ['a broken tag soup', '<p>ok<scr<script>ipt>alert(1)</script></p>', '<p>okipt&gt;alert(1)</p>'],
  ])('removes %s', (_name, input, expected) => {
    expect(sanitizeBlogHtml(input)).toBe(expected);
  });

  test.each([
    ['headings, lists and emphasis', '<h2>Title</h2><ul><li><strong>Bold</strong> and <em>it</em></li></ul>'],
    ['a table', '<table><thead><tr><th scope="col">A</th></tr></thead><tbody><tr><td>1</td></tr></tbody></table>'],
    ['a mailto link', '<a href="mailto:hello@example.org">Write</a>'],
  ])('keeps %s', (_name, input) => {
    expect(sanitizeBlogHtml(input)).toBe(input);
  });

  test.each([
    [
      'external links open safely in a new tab',
      '<a href="https://example.org">x</a>',
      '<a href="https://example.org" target="_blank" rel="noopener noreferrer">x</a>',
    ],
    ['an <h1> becomes an <h2>', '<h1>Big</h1>', '<h2>Big</h2>'],
    ['ids are prefixed and in-post links follow', '<h2 id="main">A</h2><a href="#main">to A</a>', '<h2 id="post-main">A</h2><a href="#post-main">to A</a>'],
    ['a target without rel gets one', '<a href="/faqs" target="_blank">x</a>', '<a href="/faqs" target="_blank" rel="noopener noreferrer">x</a>'],
  ])('%s', (_name, input, expected) => {
    expect(sanitizeBlogHtml(input)).toBe(expected);
  });
});
