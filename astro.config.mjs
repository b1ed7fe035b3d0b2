// @ts-check
import { defineConfig } from 'astro/config';
import mdx from '@astrojs/mdx';
import react from '@astrojs/react';
import sitemap from '@astrojs/sitemap';
import tailwindcss from '@tailwindcss/vite';
import { publicEnv } from './src/config/env.ts';
import { contentEditor } from './src/lib/content-editor/integration.ts';

// The deployed origin: SITE_URL when given, else the URL Netlify sets, else the production domain.
const site = publicEnv.siteUrl;

/** Pages that are not for search engines. */
const unlisted = ['/webhook-config', '/thank-you', '/webinar-thank-you', '/form', '/404', '/blog-post-not-found', '/content-editor'];

export default defineConfig({
  site,
  output: 'static',
  trailingSlash: 'never',
  build: { format: 'file', inlineStylesheets: 'always' },
  prefetch: { prefetchAll: false, defaultStrategy: 'hover' },
  integrations: [
    react(),
    mdx(),
    sitemap({
      filter: (page) => !unlisted.some((path) => new URL(page).pathname.replace(/\/$/, '') === path),
    }),
    contentEditor(),
  ],
  vite: {
    plugins: [tailwindcss()],
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
        "frame-src https://www.youtube-nocookie.com https://www.youtube.com https://*.hsforms.net https://*.hsforms.com",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self' https://*.hsforms.com https://*.hubspot.com",
        "worker-src 'self' blob:",
      ],
      scriptDirective: {
        resources: ["'self'", 'https://js.hsforms.net', "'wasm-unsafe-eval'"],
      },
      styleDirective: {
        resources: ["'self'", { resource: "'unsafe-inline'", kind: 'attribute' }],
      },
    },
  },
});
