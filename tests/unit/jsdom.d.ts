// The part of jsdom (Vitest's DOM environment, which ships no types of its own) that the tests use
// directly: a document parsed from rendered HTML, in a test that runs under Node.
declare module 'jsdom' {
  export class JSDOM {
    constructor(html?: string);
    readonly window: Window & typeof globalThis;
  }
}
