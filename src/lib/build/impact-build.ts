/**
 * The impact figures a page is built with: the live site's /api/impact at build (IMPACT_SOURCE_URL,
 * on Netlify the site itself), so the prebuilt page shows the last figures and the live ones replace
 * them without moving anything. Without a source, or if it does not answer in 3 s, every figure
 * reads "fewer than 5".
 */
import { publicEnv } from '../../config/env';
import { figure, type Impact } from '../shared/answer-kinds';

let built: Promise<Impact> | undefined;

export function emptyImpact(): Impact {
  return { schoolsReached: figure(0), schoolsAnswered: figure(0), meetings: figure(0), parentsWrote: figure(0), updatedAt: new Date(0).toISOString() };
}

async function fetchImpact(url: string): Promise<Impact> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(3000), headers: { Accept: 'application/json' } });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const body = (await response.json()) as Partial<Impact>;
    const keys = ['schoolsReached', 'schoolsAnswered', 'meetings', 'parentsWrote'] as const;
    if (!keys.every((key) => typeof body[key]?.display === 'string')) throw new Error('unexpected answer');
    return { ...emptyImpact(), ...body } as Impact;
  } catch (error) {
    console.warn(`[impact] the build could not read ${url} (${error instanceof Error ? error.message : error}); the pages start without figures.`);
    return emptyImpact();
  }
}

export function buildImpact(): Promise<Impact> {
  built ??= publicEnv.impactSourceUrl ? fetchImpact(publicEnv.impactSourceUrl) : Promise.resolve(emptyImpact());
  return built;
}
