import type { Config, Context } from '@netlify/functions';
import { handleSubmission, postedByBrowser } from '../../src/server/forms/submit';
import { HttpError, json, jsonError, StoreUnavailableError } from '../../src/server/http';
import { problemPage } from '../../src/server/pages/frame';

/**
 * POST /api/forms/{formId}: a submission to one of the site's own forms, as JSON (the enhanced
 * form) or form-encoded (a browser without JavaScript). Checked against the form's definition,
 * stored in the database, then forwarded to HubSpot (here if HubSpot answers in time, else by the
 * scheduled `forms-deliver`). The email forms also get their school email composed on the server
 * and a one-time token to send it. A browser that posted the form itself is answered with a 303 to
 * the result page (or the form again, with each problem next to its field).
 */
export default async (req: Request, context?: Context): Promise<Response> => {
  const browser = postedByBrowser(req);
  const page = { current: undefined as string | undefined };
  try {
    const answer = await handleSubmission(req, context, browser, page);
    if (answer.kind === 'page') return answer.response;
    if (answer.kind === 'redirect') return new Response(null, { status: 303, headers: { Location: answer.location, 'Cache-Control': 'no-store' } });
    return json(answer.body, answer.status, answer.headers);
  } catch (error) {
    const failure = error instanceof HttpError ? error : undefined;
    if (!failure && !(error instanceof StoreUnavailableError)) console.error('[forms]', error instanceof Error ? error.message : 'unknown error');
    const status = failure?.status ?? (error instanceof StoreUnavailableError ? 503 : 500);
    const code = failure?.code ?? (status === 503 ? 'store_unavailable' : 'internal_error');
    const message =
      failure?.message ??
      (status === 503
        ? 'We could not save your form just now. Nothing was lost from this page; please try again in a moment.'
        : 'Something went wrong on our side. Please try again in a moment.');
    if (browser) return problemPage(status, status === 429 ? 'Please wait a moment' : 'Your form was not sent', message, page.current);
    return jsonError(status, code, message);
  }
};

export const config: Config = {
  path: '/api/forms/:formId',
  rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
