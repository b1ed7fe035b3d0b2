import type { Config } from '@netlify/functions';
import { z } from 'zod';
import { allowMethods, HttpError, json, jsonError } from '../../src/server/http';
import { pageHeaders } from '../../src/server/pages/frame';
import { attributionOf, keyOfSegment, readSchoolPage } from '../../src/server/schools/pages';
import { splitLocale } from '../../src/lib/shared/i18n/paths';
import { schoolFigures, schoolPageResponse, unavailableText, unknownSchoolResponse } from '../../src/server/pages/school';

/**
 * GET /schools/{name}-{key} (or /schools/{key}): a school's page (its name, how many parents wrote,
 * the goal, the latest outcome, and the email form with the school filled in), rendered here so
 * that it works without JavaScript; GET /es/schools/{name}-{key}: the same page in Spanish (its
 * frame, words, figures and form; the school's name as recorded). Only the key finds the page; the
 * readable name before it is for people. `ref` (a sharing parent's referral code) and `ambassadorId`
 * go with the form so the new parent's email is attributed; a code that does not verify is ignored.
 * GET /api/schools/{key}: the figures as JSON, for the page's live count. An unknown or forged key:
 * 404 in the path's language (the page offers the email form).
 */
const paramsSchema = z.object({
  key: z
    .string()
    .max(120)
    .transform((segment, context) => {
      const key = keyOfSegment(segment);
      if (!key) context.addIssue({ code: 'custom', message: 'not a school page key' });
      return key ?? '';
    }),
  ref: z.string().max(200).nullable().catch(null),
  ambassadorId: z.string().max(200).nullable().catch(null),
});

export default async (req: Request): Promise<Response> => {
  const url = new URL(req.url);
  const api = url.pathname.startsWith('/api/');
  // The page's language is its path's: /es/schools/… is Spanish.
  const { locale } = splitLocale(url.pathname);
  const wrongMethod = allowMethods(req, ['GET', 'HEAD']);
  if (wrongMethod) return wrongMethod;
  const parsed = paramsSchema.safeParse({
    key: decodeSegment(url.pathname.split('/').pop() ?? ''),
    ref: url.searchParams.get('ref'),
    ambassadorId: url.searchParams.get('ambassadorId'),
  });
  try {
    const page = parsed.success ? await readSchoolPage(parsed.data.key) : undefined;
    if (!page || !parsed.success) {
      return api
        ? jsonError(404, 'unknown_school', 'There is no school page at this address.', { 'Cache-Control': 'no-store' })
        : await unknownSchoolResponse(locale);
    }
    if (api) {
      const { schoolName, parents, goal, percent, countText, goalText, outcome, outcomeText } = schoolFigures(page);
      return json({ schoolName, published: page.published, parents, goal, percent, countText, goalText, outcome: outcome ?? null, outcomeText }, 200, {
        'Cache-Control': 'public, max-age=0, must-revalidate',
        'Netlify-CDN-Cache-Control': 'public, durable, max-age=30',
      });
    }
    const attribution = attributionOf({ referral: parsed.data.ref, ambassadorId: parsed.data.ambassadorId });
    return await schoolPageResponse(page, { attribution, referral: parsed.data.ref ?? undefined, req, locale });
  } catch (error) {
    if (error instanceof HttpError && error.code === 'school_pages_not_configured') {
      return api ? error.toResponse() : unknownSchoolResponse(locale, 503);
    }
    console.error('[school-page]', error instanceof Error ? error.message : 'unknown error');
    if (api) return jsonError(503, 'school_page_unavailable', 'This school page is unavailable right now. Please try again later.');
    return new Response(await unavailableText(locale), {
      status: 503,
      headers: { ...pageHeaders, 'Content-Type': 'text/plain; charset=utf-8' },
    });
  }
};

/** A path segment as written, or '' when its escapes are broken. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment).toLowerCase();
  } catch {
    return '';
  }
}

export const config: Config = {
  path: ['/schools/:key', '/es/schools/:key', '/api/schools/:key'],
  rateLimit: { windowLimit: 120, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
