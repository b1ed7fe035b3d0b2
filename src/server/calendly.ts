/**
 * Calendly's v2 API, as far as the site uses it: who a token belongs to (the connection test) and
 * webhook subscriptions. The base URL points at a local fake in tests.
 */
import { serverEnv } from './env';

export class CalendlyError extends Error {
  constructor(
    readonly status: number | undefined,
    message: string,
  ) {
    super(message);
  }
}

async function call<T>(token: string, method: string, path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${serverEnv.calendlyBaseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(8000),
    });
  } catch {
    throw new CalendlyError(undefined, 'Calendly could not be reached.');
  }
  if (response.status === 204) return undefined as T;
  const data = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) {
    // Calendly's error body: { title, message, details: [{ parameter, message }] }
    const details = Array.isArray(data.details)
      ? (data.details as Array<{ parameter?: string; message?: string }>).map((d) => [d.parameter, d.message].filter(Boolean).join(' ')).join('; ')
      : '';
    const text = [typeof data.message === 'string' ? data.message : response.statusText, details].filter(Boolean).join(': ');
    throw new CalendlyError(response.status, text || `Calendly answered ${response.status}.`);
  }
  return data as T;
}

export interface CalendlyUser {
  uri: string;
  name: string;
  email: string;
  current_organization: string;
}

export async function currentUser(token: string): Promise<CalendlyUser> {
  const answer = await call<{ resource: CalendlyUser }>(token, 'GET', '/users/me');
  return answer.resource;
}

export interface SubscriptionRequest {
  url: string;
  events: string[];
  organization: string;
  user?: string;
  scope: 'organization' | 'user';
  signing_key: string;
}

export async function createSubscription(token: string, request: SubscriptionRequest): Promise<{ uri: string; state: string }> {
  const answer = await call<{ resource: { uri: string; state: string } }>(token, 'POST', '/webhook_subscriptions', request);
  return { uri: answer.resource.uri, state: answer.resource.state };
}

export async function deleteSubscription(token: string, uri: string): Promise<void> {
  const uuid = uri.split('/').pop();
  if (!uuid) return;
  try {
    await call<void>(token, 'DELETE', `/webhook_subscriptions/${encodeURIComponent(uuid)}`);
  } catch (error) {
    // Already gone at Calendly: nothing left to remove.
    if (error instanceof CalendlyError && error.status === 404) return;
    throw error;
  }
}
