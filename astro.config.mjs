// @ts-check
import { defineConfig } from 'astro/config';
import mdx from '@astrojs/mdx';
import react from '@astrojs/react';
import sitemap from '@astrojs/sitemap';
import tailwindcss from '@tailwindcss/vite';

// The deployed origin: SITE_URL when given, else the URL Netlify sets, else the production domain.
const site = (process.env.SITE_URL || process.env.URL || 'https://masteryparents.org').replace(/\/+$/, '');

/** Pages that are not for search engines. */
const unlisted = ['/webhook-config', '/thank-you', '/webinar-thank-you', '/form', '/404', '/blog-post-not-found'];

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
  ],
  vite: {
    plugins: [tailwindcss()],
  },
  devToolbar: { enabled: false },
});
