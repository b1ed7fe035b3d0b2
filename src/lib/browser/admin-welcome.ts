/**
 * The greeting after signing in to the admin page: "Welcome back" only when this device saw that
 * person sign in before, so a first sign-in never hears it ("Welcome back, admin." greeted the
 * site's very first sign-in). Kept in this browser's localStorage, by name; nothing else.
 */
const KEY = 'admin-signed-in-before';

function seen(): string[] {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) ?? '[]') as unknown;
    return Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}

/** The greeting for `username`, remembering that they have now signed in on this device. */
export function welcomeFor(username: string): string {
  const before = seen();
  const back = before.includes(username);
  if (!back) {
    try {
      localStorage.setItem(KEY, JSON.stringify([...before, username].slice(-20)));
    } catch {
      // No storage: every sign-in on this device is greeted as a first one.
    }
  }
  return back ? `Welcome back, ${username}.` : `Welcome, ${username}.`;
}
