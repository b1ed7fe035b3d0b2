/**
 * The content editor's part of the build. Decap CMS is one large browser bundle (several MB, some
 * of its dependencies use `eval`), loaded by /content-editor alone. The bundler warns about both
 * on every build; an editor or developer cannot act on those warnings, and they would bury the
 * ones that matter. This keeps them out of the build's output, and only them: a large chunk or an
 * `eval` anywhere else in the site is still reported.
 */
import type { AstroIntegration } from 'astro';
import type { Plugin } from 'vite';

/** The module the editor page loads (src/pages/content-editor.astro); its chunk holds Decap. */
const editorEntry = /[\\/]src[\\/]components[\\/]content-editor[\\/]app\.ts$/;

export function editorBundleLogs(): Plugin {
  /** Per build environment (client, prerender): modules bundled into the editor's chunks only, and whether another chunk is over the size limit. */
  const bundles = new Map<string, { editorOnly: Set<string>; otherLargeChunk: boolean }>();

  return {
    name: 'content-editor-bundle-logs',
    apply: 'build',
    generateBundle(_options, bundle) {
      const limit = this.environment.config.build.chunkSizeWarningLimit * 1000;
      const chunks = Object.values(bundle).flatMap((output) => (output.type === 'chunk' ? [output] : []));
      const isEditor = (chunk: (typeof chunks)[number]) => chunk.moduleIds.some((id) => editorEntry.test(id));
      const elsewhere = new Set(chunks.filter((chunk) => !isEditor(chunk)).flatMap((chunk) => chunk.moduleIds));
      bundles.set(this.environment.name, {
        editorOnly: new Set(chunks.filter(isEditor).flatMap((chunk) => chunk.moduleIds.filter((id) => !elsewhere.has(id)))),
        otherLargeChunk: chunks.some((chunk) => !isEditor(chunk) && Buffer.byteLength(chunk.code) > limit),
      });
    },
    // Rolldown reports these after the bundle is written, so the chunks are known by then.
    onLog(_level, log) {
      const bundle = bundles.get(this.environment.name);
      if (!bundle?.editorOnly.size) return undefined;
      if (log.code === 'EVAL' && log.id && bundle.editorOnly.has(log.id)) return false;
      if (log.plugin === 'builtin:vite-reporter' && log.message.includes('chunks are larger than') && !bundle.otherLargeChunk) return false;
      return undefined;
    },
  };
}

export function contentEditor(): AstroIntegration {
  return {
    name: 'content-editor',
    hooks: {
      'astro:config:setup': ({ updateConfig }) => {
        updateConfig({ vite: { plugins: [editorBundleLogs()] } });
      },
    },
  };
}
