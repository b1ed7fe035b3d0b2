/**
 * html-validate over every built page (tests/e2e/html-validity.spec.ts): the rules that match the
 * W3C Nu HTML checker's errors (the `standard` preset, plus site-html/* for what it lacks) and the
 * WCAG techniques HTML_CodeSniffer checks in markup (the `a11y` preset).
 */
import { plugin } from './rules.mjs';

/** @type {import('html-validate').ConfigData} */
export const htmlValidateConfig = {
  plugins: [plugin],
  extends: ['html-validate:standard', 'html-validate:a11y'],
  // Astro writes its islands' one-line `<style>` in <body>. The Nu checker accepts a <style> there
  // when it can only style its parent and what follows; site-html/scoped-body-style checks that.
  elements: ['html5', { style: { flow: true } }],
  rules: {
    'site-html/nothing-after-html': 'error',
    'site-html/scoped-body-style': 'error',
    'site-html/parsable-style': 'error',
    // A label that wraps its control and names it with `for` too (the native form renderer): both
    // associations agree, no validator of record flags it, and some speech-input software needs
    // the explicit one.
    'no-redundant-for': 'off',
  },
};
