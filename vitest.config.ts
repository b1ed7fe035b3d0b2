/// <reference types="vitest/config" />
import { getViteConfig } from 'astro/config';

// Astro's Vite config, so that tests can render .astro components with the container API.
export default getViteConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/unit/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // Tests that build the site are heavy; two cores are all this machine has.
    maxWorkers: 2,
  },
});
