import type { Config } from '@netlify/functions';
import { serverEnv } from '../../src/server/env';

/**
 * Hourly: asks Netlify for a fresh build so that posts published in HubSpot reach the site.
 * Without BUILD_HOOK_URL it only logs that the schedule is not configured.
 */
export async function triggerRebuild(hookUrl = serverEnv.buildHookUrl, fetchImpl: typeof fetch = fetch): Promise<Response> {
  if (!hookUrl) {
    console.log('[scheduled-rebuild] BUILD_HOOK_URL is not configured; no rebuild triggered.');
    return Response.json({ triggered: false, reason: 'not_configured' });
  }
  try {
    const answer = await fetchImpl(hookUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ trigger_title: 'Hourly rebuild for new blog posts' }),
      signal: AbortSignal.timeout(10_000),
    });
    if (!answer.ok) {
      console.error(`[scheduled-rebuild] the build hook answered HTTP ${answer.status}.`);
      return Response.json({ triggered: false, reason: 'hook_failed', status: answer.status }, { status: 502 });
    }
    console.log('[scheduled-rebuild] rebuild requested.');
    return Response.json({ triggered: true });
  } catch (error) {
    // The hook URL is a secret: log only the kind of failure.
    console.error(`[scheduled-rebuild] the build hook could not be reached (${error instanceof Error ? error.name : 'error'}).`);
    return Response.json({ triggered: false, reason: 'unreachable' }, { status: 502 });
  }
}

export default async () => triggerRebuild();

export const config: Config = { schedule: '@hourly' };
