/** Calls the admin functions the way a signed-in browser on this site would. */
import sessionFunction from '../../../netlify/functions/admin-session.mts';

export const ORIGIN = 'https://localhost:8888';
export const ADMIN_PASSWORD = 'unit-admin-password';

type Handler = (req: Request, context: unknown) => Promise<Response>;

export function request(
  path: string,
  init: { method?: string; body?: unknown; cookie?: string; origin?: string | null; headers?: Record<string, string> } = {},
): Request {
  const headers: Record<string, string> = { ...init.headers };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.cookie) headers.cookie = init.cookie;
  const origin = init.origin === undefined ? ORIGIN : init.origin;
  if (origin) headers.origin = origin;
  return new Request(`${ORIGIN}${path}`, {
    method: init.method ?? 'GET',
    headers,
    body: init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
  });
}

export async function call(handler: Handler, path: string, init: Parameters<typeof request>[1] = {}, ip = '203.0.113.7') {
  const response = await handler(request(path, init), { ip });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : undefined };
}

/** Signs in and returns the session cookie ("name=value"). */
export async function signIn(password = ADMIN_PASSWORD, ip = '203.0.113.7'): Promise<string> {
  const answer = await call(sessionFunction as Handler, '/api/admin/session', { method: 'POST', body: { username: 'admin', password } }, ip);
  if (answer.status !== 200) throw new Error(`sign-in failed: ${answer.status} ${answer.text}`);
  return answer.headers.get('set-cookie')!.split(';')[0]!;
}

export function setAdminEnv(): void {
  process.env.ADMIN_PASSWORD = ADMIN_PASSWORD;
  process.env.ADMIN_LOGIN_DELAY_MS = '0';
  process.env.CONFIG_ENCRYPTION_KEY = Buffer.alloc(32, 7).toString('base64');
  process.env.HUBSPOT_RETRY_BASE_MS = '2';
}
