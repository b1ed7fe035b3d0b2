/**
 * The admin page's calls (§7): credentials included, a JSON body only when there is one, and any
 * non-success answer raised as an error whose message is "{status}: {body text or status text}".
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The server's own sentence (`error.message` of the JSON body), for toasts. */
    readonly serverMessage: string | undefined,
  ) {
    super(message);
  }
}

/** Told when any call answers 401, so the page can ask to sign in again. */
let onUnauthorized: ((message: string) => void) | undefined;
export function setUnauthorizedHandler(handler: ((message: string) => void) | undefined): void {
  onUnauthorized = handler;
}

export async function apiRequest<T>(method: string, path: string, body?: unknown, options: { quiet401?: boolean } = {}): Promise<T> {
  const response = await fetch(path, {
    method,
    credentials: 'include',
    headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) {
    let serverMessage: string | undefined;
    try {
      serverMessage = (JSON.parse(text) as { error?: { message?: string } }).error?.message;
    } catch {
      serverMessage = undefined;
    }
    if (response.status === 401 && !options.quiet401) onUnauthorized?.(serverMessage ?? 'Please sign in again.');
    throw new ApiError(response.status, `${response.status}: ${text || response.statusText}`, serverMessage);
  }
  return (text ? JSON.parse(text) : undefined) as T;
}

/** The sentence to show for a failed call: the server's, else the given fallback. */
export function failureMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.serverMessage ? error.serverMessage : fallback;
}

export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
}

export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleDateString('en-US', { dateStyle: 'medium' });
}

/** Field-by-field messages from a zod error, the first one for each field. */
export function fieldErrors(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? 'form');
    errors[field] ??= issue.message;
  }
  return errors;
}
