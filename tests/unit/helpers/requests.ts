/** Builds requests for function handlers called directly, as Netlify would call them. */
export function jsonRequest(path: string, body: unknown, init: { method?: string; headers?: Record<string, string> } = {}): Request {
  return new Request(`http://localhost${path}`, {
    method: init.method ?? 'POST',
    headers: { 'content-type': 'application/json', ...init.headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export type Handler = (req: Request, context: unknown) => Promise<Response>;

export async function call(handler: Handler, req: Request): Promise<{ status: number; body: any }> {
  const response = await handler(req, {});
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** The malformed requests every JSON endpoint must answer with a 4xx, never a 500. */
export function malformedRequests(path: string): Array<[string, Request, number]> {
  return [
    ['GET instead of POST', new Request(`http://localhost${path}`), 405],
    ['a text body', new Request(`http://localhost${path}`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hi' }), 415],
    ['broken JSON', jsonRequest(path, '{"email": '), 400],
    ['an empty body', jsonRequest(path, ''), 400],
    ['a JSON array', jsonRequest(path, '[]'), 400],
    ['JSON null', jsonRequest(path, 'null'), 400],
    ['a huge body', jsonRequest(path, JSON.stringify({ x: 'y'.repeat(1_100_000) })), 413],
  ];
}

/**
 * A function's context as Netlify gives it: the client's address, and `waitUntil`, whose work goes
 * on after the answer. `settled()` waits for that work (what a test reads after the answer).
 */
export function netlifyContext(ip = '203.0.113.50') {
  const pending: Promise<unknown>[] = [];
  return {
    ip,
    waitUntil: (promise: Promise<unknown>) => void pending.push(promise),
    settled: () => Promise.allSettled(pending),
    pending,
  };
}
