/**
 * The benches load the site's TypeScript as it is (scripts/bench/_source.mjs), not as Astro or
 * Netlify build it; the data bench calls the handlers, which compose emails from React components.
 * Its loader read TypeScript only, and `npm run bench` stopped at the data bench on the first
 * `.tsx` ("ParseError: Unexpected token" in src/emails/ActionEmail.tsx): here every sample email is
 * composed through that loader, as the bench composes them.
 */
import { expect, test } from 'vitest';
import { importSource } from '../../scripts/bench/_source.mjs';
import { allowed } from './helpers/time';

test(
  "the benches' loader composes every email from its React components",
  async () => {
    const { sampleEmails } = (await importSource('../../src/server/mail/samples.ts')) as typeof import('../../src/server/mail/samples');
    const samples = await sampleEmails(new Date('2026-11-27T10:00:00Z'));
    expect(samples.length).toBeGreaterThan(5);
    for (const { kind, content } of samples) {
      expect(content.html, kind).toMatch(/^<!DOCTYPE html/i);
      expect(content.text, kind).toMatch(/\S/);
    }
  },
  allowed(60_000),
);
