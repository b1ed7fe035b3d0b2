/**
 * The admin page's passkey ceremonies. `@simplewebauthn/browser` is imported only when a person
 * starts one (a chunk of its own), so it never loads on public pages nor before it is needed.
 */
import { apiRequest } from './admin-api';

export interface AdminSession {
  username: string;
  expiresAt: string;
  role: 'owner' | 'staff';
  staffId: string | null;
  bootstrap: boolean;
}

export type Ceremony = { purpose: 'bootstrap'; email: string } | { purpose: 'invitation'; token: string } | { purpose: 'add' };

/** Whether this browser can use passkeys at all. */
export function passkeysSupported(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
}

/** The sentence for a ceremony the browser ended (the person cancelled, or it timed out). */
export function ceremonyFailure(error: unknown, fallback: string): string | undefined {
  const name = (error as { name?: string } | undefined)?.name;
  if (name === 'NotAllowedError' || name === 'AbortError') return 'The passkey request was cancelled or timed out. Try again when you are ready.';
  if (name === 'InvalidStateError') return 'This device already holds a passkey for you on this site.';
  return fallback;
}

export async function signInWithPasskey(): Promise<AdminSession> {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  const { options } = await apiRequest<{ options: Parameters<typeof startAuthentication>[0]['optionsJSON'] }>(
    'POST',
    '/api/admin/passkeys/sign-in/options',
    undefined,
    { quiet401: true },
  );
  const response = await startAuthentication({ optionsJSON: options });
  const { session } = await apiRequest<{ session: AdminSession }>('POST', '/api/admin/passkeys/sign-in', { response }, { quiet401: true });
  return session;
}

export async function registerPasskey(ceremony: Ceremony, label?: string): Promise<AdminSession> {
  const { startRegistration } = await import('@simplewebauthn/browser');
  const { options } = await apiRequest<{ options: Parameters<typeof startRegistration>[0]['optionsJSON'] }>(
    'POST',
    '/api/admin/passkeys/register/options',
    ceremony,
    { quiet401: true },
  );
  const response = await startRegistration({ optionsJSON: options });
  const body = label ? { ...ceremony, label, response } : { ...ceremony, response };
  const { session } = await apiRequest<{ session: AdminSession }>('POST', '/api/admin/passkeys/register', body, { quiet401: true });
  return session;
}
