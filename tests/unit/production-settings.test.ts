import { describe, expect, test } from 'vitest';
import { assertProductionSettings, isProductionBuild, localPlaceholder, productionSettingProblems, publicEnv } from '../../src/config/env';

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
    ['a local Netlify CLI build for the site', { NETLIFY_LOCAL: 'true', CONTEXT: 'production', NODE_ENV: 'production', URL: 'https://masteryparents.netlify.app' }, true],
    ['a production build for a public SITE_URL', { NODE_ENV: 'production', SITE_URL: 'https://masteryparents.org' }, true],
    ['a production build for 127.0.0.1', { NODE_ENV: 'production', SITE_URL: 'http://127.0.0.1:9250' }, false],
    ['a production build without SITE_URL', { NODE_ENV: 'production' }, false],
    ['the dev server', { NODE_ENV: 'development', SITE_URL: 'https://masteryparents.org' }, false],
    ['tests', { NODE_ENV: 'test' }, false],
  ] as const)('%s: %s', (_name, env, expected) => {
    expect(isProductionBuild(env)).toBe(expected);
  });
});

describe('a production build names every missing public setting', () => {
  test('nothing set: both settings named, with what they are for', () => {
    expect(() => assertProductionSettings({ NETLIFY: 'true', CONTEXT: 'production' })).toThrow(
      /PUBLIC_EMAIL_VIDEO_URL is not set \(the overview-video link[^\n]*\n\s+- PUBLIC_BOOKING_URL is not set \(the call-booking link/,
    );
  });

  test.each([
    ['only the video', { PUBLIC_EMAIL_VIDEO_URL: configured.PUBLIC_EMAIL_VIDEO_URL }, ['PUBLIC_BOOKING_URL is not set']],
    ['only the booking link', { PUBLIC_BOOKING_URL: configured.PUBLIC_BOOKING_URL }, ['PUBLIC_EMAIL_VIDEO_URL is not set']],
    ['blanks', { PUBLIC_EMAIL_VIDEO_URL: '  ', PUBLIC_BOOKING_URL: '' }, ['PUBLIC_EMAIL_VIDEO_URL is not set', 'PUBLIC_BOOKING_URL is not set']],
    ['not URLs', { ...configured, PUBLIC_BOOKING_URL: 'calendly' }, ['PUBLIC_BOOKING_URL must be an https URL']],
    ['plain http', { ...configured, PUBLIC_EMAIL_VIDEO_URL: 'http://youtu.be/abc' }, ['PUBLIC_EMAIL_VIDEO_URL must be an https URL']],
    ['the local placeholders', { PUBLIC_EMAIL_VIDEO_URL: localPlaceholder('PUBLIC_EMAIL_VIDEO_URL'), PUBLIC_BOOKING_URL: configured.PUBLIC_BOOKING_URL }, ['PUBLIC_EMAIL_VIDEO_URL must be an https URL']],
    ['both set', configured, []],
  ] as const)('%s', (_name, env, expected) => {
    const problems = productionSettingProblems(env);
    expect(problems).toHaveLength(expected.length);
    expected.forEach((start, index) => expect(problems[index]).toContain(start));
  });

  test('a configured production build and any local build pass', () => {
    expect(() => assertProductionSettings({ NETLIFY: 'true', CONTEXT: 'production', ...configured })).not.toThrow();
    expect(() => assertProductionSettings({ NODE_ENV: 'production', SITE_URL: 'http://localhost:8888' })).not.toThrow();
    expect(() => assertProductionSettings({ NETLIFY: 'true', CONTEXT: 'deploy-preview' })).not.toThrow();
    expect(() => assertProductionSettings({ NETLIFY_LOCAL: 'true', CONTEXT: 'production', NODE_ENV: 'production', SITE_URL: 'http://localhost:8888' })).not.toThrow();
  });
});

test('locally the links are visible placeholders on a reserved domain, never a real page', () => {
  // The test environment sets neither.
  expect(publicEnv.emailVideoUrl).toBe('https://placeholder.example/set-PUBLIC_EMAIL_VIDEO_URL');
  expect(publicEnv.bookingUrl).toBe('https://placeholder.example/set-PUBLIC_BOOKING_URL');
});
