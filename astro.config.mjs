// @ts-check
import { defineConfig } from 'astro/config';
import mdx from '@astrojs/mdx';
import react from '@astrojs/react';
import sitemap from '@astrojs/sitemap';
import tailwindcss from '@tailwindcss/vite';
import { assertProductionSettings, publicEnv } from './src/config/env.ts';
import { embedScriptOrigins } from './src/config/forms.ts';
import { contentEditor } from './src/lib/build/content-editor/integration.ts';
import { siteSearchIndex } from './src/lib/build/search/build-index.ts';
import { pageStyles } from './src/lib/build/page-styles.ts';
import { pageScriptsAfterFirstPaint } from './src/lib/build/page-scripts.ts';
import { defaultLocale, locales } from './src/config/locales.ts';
import { splitLocale } from './src/lib/shared/i18n/paths.ts';
import { withPostAlternates } from './src/lib/build/blog/sitemap.ts';
import { fileURLToPath } from 'node:url';

// The deployed origin: SITE_URL when given, else the URL Netlify sets, else the production domain.
const site = publicEnv.siteUrl;
let builtDir = fileURLToPath(new URL('./dist/', import.meta.url));

/** Pages that are not for search engines, in every language (/search only shows results for a query it is given). */
const unlisted = ['/school-page', '/webhook-config', '/thank-you', '/webinar-thank-you', '/form', '/404', '/blog-post-not-found', '/search', '/content-editor'];

export default defineConfig({
  site,
  output: 'static',
  trailingSlash: 'never',
  build: { format: 'file', inlineStylesheets: 'always' },
  // English keeps its URLs at /; Spanish is under /es (src/config/locales.ts, docs/spanish.md).
  i18n: { locales: [...locales], defaultLocale, routing: { prefixDefaultLocale: false } },
  integrations: [
    // A published build says which links of the school email fall back to the site's own pages,
    // and refuses one that is set but cannot work.
    {
      name: 'production-settings',
      hooks: {
        'astro:config:setup': ({ command, logger }) => {
          if (command === 'build') assertProductionSettings(undefined, (message) => logger.warn(message));
        },
      },
    },
    react(),
    mdx(),
    sitemap({
      filter: (page) => !unlisted.includes(splitLocale(new URL(page).pathname).path),
      // Each page's other languages as xhtml:link alternates (only pages that exist in both).
      i18n: { defaultLocale, locales: Object.fromEntries(locales.map((locale) => [locale, locale])) },
      // A blog post's alternates are its own translation's, as its page names them (src/lib/build/blog/sitemap.ts).
      serialize: (item) => withPostAlternates(item, builtDir),
    }),
    // Where the build writes (`--outDir` may move it), for the sitemap's reading of the posts' pages.
    {
      name: 'built-dir',
      hooks: {
        'astro:config:done': ({ config }) => {
          builtDir = fileURLToPath(config.outDir);
        },
      },
    },
    contentEditor(),
    // dist/search-index.json, from the built pages src/config/search.ts names, for the `search` function.
    siteSearchIndex(),
    // Each page's inline styles without the rules nothing on it can use (src/lib/build/page-styles.ts).
    pageStyles(),
    // Each page's module scripts load after its first paint (src/lib/build/page-scripts.ts).
    pageScriptsAfterFirstPaint(),
  ],
  // No content has code blocks; Shiki's inline colours would need 'unsafe-inline' styles (and the
  // build warns about it each time).
  markdown: { syntaxHighlight: false },
  vite: {
    plugins: [tailwindcss()],
    build: {
      rolldownOptions: {
        onwarn(warning, warn) {
          // Astro marks every MDX entry with a directive the bundler cannot keep, and the bundler
          // says so once per FAQ (withastro/astro#18087); Astro no longer relies on it. Any other
          // warning, an editor's own included, still shows.
          if (warning.code === 'MODULE_LEVEL_DIRECTIVE' && warning.message.includes('use astro:head-inject')) return;
          warn(warning);
        },
      },
    },
  },
  devToolbar: { enabled: false },
  // Script and style hashes per page come from Astro (a <meta> policy); frame-ancestors, which a
  // <meta> cannot carry, and the rest of the header policy are in netlify.toml.
  security: {
    csp: {
      algorithm: 'SHA-256',
      directives: [
        "default-src 'self'",
        "img-src 'self' data: https://i.ytimg.com https://*.hsforms.com https://*.hubspot.com",
        "media-src 'self'",
        "font-src 'self'",
        // Referral tracking posts to the ambassador application.
        `connect-src 'self' ${publicEnv.ambassadorHost} https://*.hsforms.com https://*.hubspot.com https://*.hsforms.net`,
        'frame-src https://www.youtube-nocookie.com https://www.youtube.com https://*.hsforms.net https://*.hsforms.com',
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self' https://*.hsforms.com https://*.hubspot.com",
        "worker-src 'self' blob:",
      ],
      scriptDirective: {
        // HubSpot's form embeds: the v2 script's host, and the v4 script's when a form uses it
        // (the same js.hsforms.net for na1 portals).
        resources: ["'self'", ...embedScriptOrigins()],
      },
      // Style elements: this site and the hashed inline ones (style-src-elem); style attributes,
      // which React and the comparison slider set, inline (style-src-attr).
      styleDirective: {
        resources: [
          { resource: "'self'", kind: 'element' },
          { resource: "'unsafe-inline'", kind: 'attribute' },
        ],
      },
    },
  },
});
