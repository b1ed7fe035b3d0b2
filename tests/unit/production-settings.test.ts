import { describe, expect, test } from 'vitest';
import {
  assertProductionSettings,
  isProductionBuild,
  localPlaceholder,
  productionSettingProblems,
  productionSettingWarnings,
  publicEnv,
} from '../../src/config/env';

const configured = { PUBLIC_EMAIL_VIDEO_URL: 'https://www.youtube.com/watch?v=abc123&t=10s', PUBLIC_BOOKING_URL: 'https://calendly.com/team/intro' };

describe('which builds are production builds', () => {
  test.each([
    ['Netlify production', { NETLIFY: 'true', CONTEXT: 'production' }, true],
    ['Netlify production, whatever NODE_ENV says', { NETLIFY: 'true', CONTEXT: 'production', NODE_ENV: 'development' }, true],
    ['a Netlify deploy preview', { NETLIFY: 'true', CONTEXT: 'deploy-preview', NODE_ENV: 'production', SITE_URL: 'https://masteryparents.org' }, false],
    ['a Netlify branch deploy', { NETLIFY: 'true', CONTEXT: 'branch-deploy', NODE_ENV: 'production', SITE_URL: 'https://masteryparents.org' }, false],
    // `netlify serve` (npm start) sets CONTEXT=production and NETLIFY_LOCAL; npm start sets SITE_URL.
    ['npm start', { NETLIFY_LOCAL: 'true', CONTEXT: 'production', NODE_ENV: 'production', SITE_URL: 'http://localhost:8888' }, false],
    ['the e2e server', { NETLIFY_LOCAL: 'true', CONTEXT: 'production', NODE_ENV: 'production', SITE_URL: 'http://localhost:9200' }, false],
    [
      'a local Netlify CLI build for the site',
      { NETLIFY_LOCAL: 'true', CONTEXT: 'production', NODE_ENV: 'production', URL: 'https://masteryparents.netlify.app' },
      true,
    ],
    ['a production build for a public SITE_URL', { NODE_ENV: 'production', SITE_URL: 'https://masteryparents.org' }, true],
    ['a production build for 127.0.0.1', { NODE_ENV: 'production', SITE_URL: 'http://127.0.0.1:9250' }, false],
    ['a production build without SITE_URL', { NODE_ENV: 'production' }, false],
    ['the dev server', { NODE_ENV: 'development', SITE_URL: 'https://masteryparents.org' }, false],
    ['tests', { NODE_ENV: 'test' }, false],
  ] as const)('%s: %s', (_name, env, expected) => {
    expect(isProductionBuild(env)).toBe(expected);
  });
});

describe('a production build names every link of the school email it lacks', () => {
  test('nothing set: it warns, naming both settings, what they are for and the page used instead, and builds', () => {
    const warnings: string[] = [];
    expect(() => assertProductionSettings({ NETLIFY: 'true', CONTEXT: 'production' }, (message) => warnings.push(message))).not.toThrow();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /PUBLIC_EMAIL_VIDEO_URL is not set \(the overview-video link[^\n]*the stories page[^\n]*\n\s+- PUBLIC_BOOKING_URL is not set \(the call-booking link[^\n]*the partnership form/,
    );
  });

  test.each([
    ['only the video', { PUBLIC_EMAIL_VIDEO_URL: configured.PUBLIC_EMAIL_VIDEO_URL }, ['PUBLIC_BOOKING_URL is not set'], []],
    ['only the booking link', { PUBLIC_BOOKING_URL: configured.PUBLIC_BOOKING_URL }, ['PUBLIC_EMAIL_VIDEO_URL is not set'], []],
    ['blanks', { PUBLIC_EMAIL_VIDEO_URL: '  ', PUBLIC_BOOKING_URL: '' }, ['PUBLIC_EMAIL_VIDEO_URL is not set', 'PUBLIC_BOOKING_URL is not set'], []],
    ['not URLs', { ...configured, PUBLIC_BOOKING_URL: 'calendly' }, [], ['PUBLIC_BOOKING_URL must be an https URL']],
    ['plain http', { ...configured, PUBLIC_EMAIL_VIDEO_URL: 'http://youtu.be/abc' }, [], ['PUBLIC_EMAIL_VIDEO_URL must be an https URL']],
    [
      'a placeholder',
      { PUBLIC_EMAIL_VIDEO_URL: localPlaceholder('PUBLIC_EMAIL_VIDEO_URL'), PUBLIC_BOOKING_URL: configured.PUBLIC_BOOKING_URL },
      [],
      ['PUBLIC_EMAIL_VIDEO_URL must be an https URL'],
    ],
    ['both set', configured, [], []],
  ] as const)('%s', (_name, env, warned, refused) => {
    for (const [found, expected] of [
      [productionSettingWarnings(env), warned],
      [productionSettingProblems(env), refused],
    ] as const) {
      expect(found).toHaveLength(expected.length);
      expected.forEach((start, index) => expect(found[index]).toContain(start));
    }
  });

  test('a setting that cannot work fails the production build; any local build passes', () => {
    expect(() => assertProductionSettings({ NETLIFY: 'true', CONTEXT: 'production', ...configured, PUBLIC_BOOKING_URL: 'calendly' }, () => {})).toThrow(
      /PUBLIC_BOOKING_URL must be an https URL/,
    );
    expect(() => assertProductionSettings({ NETLIFY: 'true', CONTEXT: 'production', ...configured })).not.toThrow();
    expect(() => assertProductionSettings({ NODE_ENV: 'production', SITE_URL: 'http://localhost:8888', PUBLIC_BOOKING_URL: 'calendly' })).not.toThrow();
    expect(() => assertProductionSettings({ NETLIFY: 'true', CONTEXT: 'deploy-preview' })).not.toThrow();
  });
});

// Issue 32: a parent copied `https://placeholder.example/set-PUBLIC_EMAIL_VIDEO_URL` as is.
test("unset, the links are the site's own pages: the stories (videos) and the partnership form (a call)", () => {
  // The test environment sets neither.
  expect(publicEnv.emailVideoUrl).toBe(`${publicEnv.siteUrl}/real-stories`);
  expect(publicEnv.bookingUrl).toBe(`${publicEnv.siteUrl}/partnership-form`);
});
