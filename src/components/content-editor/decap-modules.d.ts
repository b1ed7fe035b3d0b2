// Decap CMS's front-matter format (decap-cms-app's own, which ships no types): the FAQ collection
// wraps it (src/lib/shared/content-editor/twin-format.ts), and the tests write entries with it as the editor does.
declare module 'decap-cms-core/dist/esm/formats/frontmatter.js' {
  export const FrontmatterInfer: {
    toFile(data: Record<string, unknown>, sortedKeys?: string[], ...rest: unknown[]): string;
    fromFile(content: string): Record<string, unknown>;
  };
}
