/**
 * Three checks of the W3C Nu HTML checker that html-validate lacks, as an html-validate plugin:
 * content after `</html>` (a page's `<script>` placed after its layout lands there: "Stray start
 * tag script"), a `<style>` in `<body>` that could style elements before it, and CSS in a
 * `<style>` its parser stops at ("CSS: Parse Error", "Too many values or values are not recognized").
 */
import { Rule } from 'html-validate';

/** Astro's own island rule, which it writes before the first island of a page. */
const ISLAND_STYLES = 'astro-island,astro-slot,astro-static-slot{display:contents}';

class NothingAfterHtml extends Rule {
  documentation() {
    return { description: 'Everything a page has must be inside <html>; an element after </html> is a stray tag.' };
  }

  setup() {
    this.on('dom:ready', ({ document }) => {
      for (const node of document.root.childElements) {
        if (node.tagName !== 'html') this.report(node, `<${node.tagName}> after </html>: move it inside the layout (a stray start tag)`);
      }
    });
  }
}

class ScopedBodyStyle extends Rule {
  documentation() {
    return {
      description:
        "A <style> in <body> may only style its parent and what follows it (the Nu checker's rule); the only one expected is Astro's island rule, before the first island.",
    };
  }

  setup() {
    this.on('dom:ready', ({ document }) => {
      for (const style of document.querySelectorAll('body style')) {
        const css = style.textContent.trim();
        if (css !== ISLAND_STYLES) {
          this.report(style, "<style> in <body>: put page styles in the component's <style>, which Astro writes into <head>");
          continue;
        }
        const first = document.querySelector('astro-island, astro-slot, astro-static-slot');
        if (first && first.location.offset < style.location.offset) this.report(style, "Astro's island <style> comes after an island it styles");
      }
    });
  }
}

/**
 * What the Nu checker's CSS parser stops at: an empty `:is()` or `:where()` (valid since Selectors
 * 4, matching nothing) and a value of "…" (Tailwind made `.min-w-\[…\]{min-width:…}` from a comment
 * that named the class so).
 */
const UNPARSABLE = /:(?:is|where)\(\s*\)|:\s*…/;

class ParsableStyle extends Rule {
  documentation() {
    return {
      description:
        'A <style> holds no CSS the Nu checker cannot parse: an empty :is() or :where() (Tailwind wrote them from words in the tests, now left out of its sources in src/styles/global.css), or a value of "…".',
    };
  }

  setup() {
    this.on('dom:ready', ({ document }) => {
      for (const style of document.querySelectorAll('style')) {
        const match = UNPARSABLE.exec(style.textContent);
        if (match) {
          const rule = style.textContent.slice(Math.max(0, match.index - 60), match.index + match[0].length);
          this.report(style, `<style> has CSS the Nu checker cannot parse (an empty :is() or :where(), or a value of "…"): ${rule}`);
        }
      }
    });
  }
}

export const plugin = {
  name: 'site-html',
  rules: {
    'site-html/nothing-after-html': NothingAfterHtml,
    'site-html/scoped-body-style': ScopedBodyStyle,
    'site-html/parsable-style': ParsableStyle,
  },
};
