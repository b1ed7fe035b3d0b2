/**
 * The shape every function answers in: JSON, security headers, and errors as
 * `{ error: { code, message } }`. Never a stack, a token or someone else's data.
 */
import type { z } from 'zod';

/** Bodies larger than this are refused before parsing. */
export const MAX_BODY_BYTES = 1024 * 1024;

const securityHeaders: Record<string, string> = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'DENY',
  'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
};

export function json(body: unknown, status = 200, headers: HeadersInit = {}): Response {
  const merged = new Headers(securityHeaders);
  // Several cookies are several Set-Cookie headers: appended, never one replacing another.
  for (const [key, value] of new Headers(headers)) merged[key.toLowerCase() === 'set-cookie' ? 'append' : 'set'](key, value);
  return Response.json(body, { status, headers: merged });
}

export function jsonError(status: number, code: string, message: string, headers: HeadersInit = {}): Response {
  return json({ error: { code, message } }, status, headers);
}

/** Answers 405 unless the request uses one of `methods`. */
export function allowMethods(req: Request, methods: string[]): Response | undefined {
  if (methods.includes(req.method)) return undefined;
  return jsonError(405, 'method_not_allowed', `Use ${methods.join(' or ')} for this endpoint.`, {
    Allow: methods.join(', '),
  });
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }

  toResponse(): Response {
    return jsonError(this.status, this.code, this.message);
  }
}

/** A readable sentence from the first problems zod found. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

/**
 * Reads and validates a JSON body: 415 for another content type, 413 over 1 MB,
 * 400 for malformed JSON, 400 with the field named when the schema refuses it.
 */
export async function readJson<T extends z.ZodType>(req: Request, schema: T): Promise<z.infer<T>> {
  const type = req.headers.get('content-type') ?? '';
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(type)) {
    throw new HttpError(415, 'unsupported_media_type', 'Send the body as JSON (Content-Type: application/json).');
  }
  const declared = Number(req.headers.get('content-length') ?? 0);
  if (declared > MAX_BODY_BYTES) throw new HttpError(413, 'payload_too_large', 'The body is larger than 1 MB.');
  let text: string;
  try {
    text = await readLimited(req, MAX_BODY_BYTES);
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new HttpError(400, 'unreadable_body', 'The body could not be read.');
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'invalid_json', 'The body is not valid JSON.');
  }
  // No text the site keeps may hold a NUL (the database refuses it): a clear 400, never a 5xx.
  if (text.includes('\\u0000') && holdsNul(data)) {
    throw new HttpError(400, 'invalid_request', 'The text contains a NUL character, which no field accepts.');
  }
  const result = schema.safeParse(data);
  if (!result.success) throw new HttpError(400, 'invalid_request', describeIssues(result.error));
  return result.data;
}

/** Whether any string (or key) in a parsed JSON value holds U+0000. */
function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(holdsNul);
  if (value && typeof value === 'object') return Object.entries(value).some(([key, item]) => key.includes('\u0000') || holdsNul(item));
  return false;
}

export async function readLimited(req: Request, limit: number): Promise<string> {
  if (!req.body) return '';
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new HttpError(
        413,
        'payload_too_large',
        `The body is larger than ${limit >= 1024 * 1024 ? `${limit / (1024 * 1024)} MB` : `${Math.floor(limit / 1024)} KB`}.`,
      );
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/**
 * Wraps a handler so that expected failures become their JSON answer and anything unexpected
 * becomes a generic 500 with no detail, logged on the server only.
 */
/** `localhost`, `127.0.0.1` and `::1`: the addresses of this machine. */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * A request over plain http to this machine (`npm start`, `npm run dev`): never the case on
 * Netlify, which serves every site over https.
 */
export function isPlainLoopback(req: Request): boolean {
  const url = new URL(req.url);
  return url.protocol === 'http:' && LOOPBACK.has(url.hostname);
}

/**
 * The name a `__Host-` cookie has on this request: as is over https; without the prefix over plain
 * http to this machine, where Firefox and Safari refuse `__Host-` and `Secure` cookies (Chromium
 * alone treats http://localhost as secure for cookies).
 */
export function cookieName(req: Request, name: `__Host-${string}`): string {
  return isPlainLoopback(req) ? name.slice('__Host-'.length) : name;
}

/** The response's `__Host-` cookies as `cookieName` names them, without `Secure` over plain loopback http. */
function forPlainLoopback(req: Request, response: Response): Response {
  const cookies = response.headers.getSetCookie();
  if (!isPlainLoopback(req) || !cookies.some((cookie) => cookie.startsWith('__Host-'))) return response;
  const headers = new Headers(response.headers);
  headers.delete('set-cookie');
  for (const cookie of cookies) {
    headers.append('set-cookie', cookie.startsWith('__Host-') ? cookie.slice('__Host-'.length).replace(/;\s*Secure(?=;|$)/i, '') : cookie);
  }
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

export function handle(handler: (req: Request, context: unknown) => Promise<Response>) {
  return async (req: Request, context: unknown): Promise<Response> => {
    try {
      return forPlainLoopback(req, await handler(req, context));
    } catch (error) {
      if (error instanceof HttpError) return error.toResponse();
      if (error instanceof StoreUnavailableError) return storeUnavailable();
      console.error(`[${new URL(req.url).pathname}]`, error instanceof Error ? error.message : 'unknown error');
      return jsonError(500, 'internal_error', 'Something went wrong on our side. Please try again.');
    }
  };
}

/**
 * A scheduled function's body, beside `handle()` for the ones a request calls: runs `work`, logs
 * its summary as `[name] {...}` and answers it as JSON. While the database cannot be reached the
 * run stops, says so in the log and answers 503 (the next run takes up what is left: every run's
 * work is a set of rows still due); anything else is thrown, for Netlify's log of the run.
 */
export function scheduled<Summary extends object>(name: string, work: () => Promise<Summary>): (req?: Request) => Promise<Response> {
  return async () => {
    try {
      const summary = await work();
      console.log(`[${name}]`, JSON.stringify(summary));
      return Response.json(summary);
    } catch (error) {
      if (!(error instanceof StoreUnavailableError)) throw error;
      console.error(`[${name}] the store is unavailable; stopping this run.`);
      return storeUnavailable();
    }
  };
}

/** Thrown by the data layer when the database cannot be reached (src/server/db.ts). */
export class StoreUnavailableError extends Error {}

/** The answer while the database cannot be reached. */
export function storeUnavailable(): Response {
  return jsonError(503, 'store_unavailable', 'Storage is unavailable right now. Nothing was saved; please try again shortly.');
}

/** The caller's IP as Netlify reports it, for rate limits. */
export function clientIp(req: Request, context?: unknown): string {
  const fromContext = (context as { ip?: string } | undefined)?.ip;
  return fromContext || req.headers.get('x-nf-client-connection-ip') || req.headers.get('x-forwarded-for')?.split(',')[0]?.trim() || 'unknown';
}
