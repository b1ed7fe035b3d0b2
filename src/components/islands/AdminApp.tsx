import { useCallback, useEffect, useRef, useState, type SubmitEvent } from 'react';
import { loginSchema } from '../../lib/schemas';
import { apiRequest, ApiError, fieldErrors, setUnauthorizedHandler } from '../../lib/admin-api';
import { buttonClass, cardClass } from '../../lib/ui';
import { showToast } from '../../stores/toast';
import { ReactDialog } from '../ui/ReactDialog';
import { AdminTabs } from './admin/AdminTabs';
import { TextField } from './admin/fields';

interface Session {
  username: string;
  expiresAt: string;
}

type State = { kind: 'checking' } | { kind: 'signed-out'; notice?: string } | { kind: 'signed-in'; session: Session };

/**
 * The admin page: a sign-in form until the server confirms a session, then the four tabs.
 * Any call answering 401 (expired or ended session) brings the sign-in form back.
 */
export default function AdminApp() {
  const [state, setState] = useState<State>({ kind: 'checking' });
  const [confirmingEveryone, setConfirmingEveryone] = useState(false);

  useEffect(() => {
    let live = true;
    apiRequest<{ session: Session | null }>('GET', '/api/admin/session', undefined, { quiet401: true })
      .then(({ session }) => live && setState(session ? { kind: 'signed-in', session } : { kind: 'signed-out' }))
      .catch(() => live && setState({ kind: 'signed-out' }));
    setUnauthorizedHandler((message) => setState({ kind: 'signed-out', notice: message }));
    return () => {
      live = false;
      setUnauthorizedHandler(undefined);
    };
  }, []);

  const signOut = useCallback(async () => {
    try {
      await apiRequest('DELETE', '/api/admin/session', undefined, { quiet401: true });
    } catch {
      // Signed out on the server or not, this browser forgets the session.
    }
    setState({ kind: 'signed-out', notice: 'You have signed out.' });
  }, []);

  const signOutEveryone = useCallback(async () => {
    setConfirmingEveryone(false);
    try {
      await apiRequest('DELETE', '/api/admin/sessions');
      setState({ kind: 'signed-out', notice: 'Everyone has been signed out, you too.' });
    } catch (error) {
      showToast({ title: 'Error', description: error instanceof ApiError && error.serverMessage ? error.serverMessage : 'Could not sign everyone out.', variant: 'destructive' });
    }
  }, []);

  if (state.kind === 'signed-in') {
    return (
      <div>
        <div className="mb-6 flex flex-wrap items-center justify-between gap-3 rounded-card border border-line bg-white px-4 py-3">
          <p className="text-sm text-muted">
            Signed in as <strong className="text-ink">{state.session.username}</strong>
          </p>
          <div className="flex flex-wrap gap-2">
            <button type="button" className={buttonClass('ghost', 'sm')} onClick={() => setConfirmingEveryone(true)}>
              Sign everyone out
            </button>
            <button type="button" className={buttonClass('secondary', 'sm')} onClick={signOut}>
              Sign out
            </button>
          </div>
        </div>
        <AdminTabs />
        <ReactDialog open={confirmingEveryone} onClose={() => setConfirmingEveryone(false)} title="Sign everyone out?">
          <p className="text-sm text-ink-soft">Every admin session ends at once, on every device, this one too. Everyone has to sign in again.</p>
          <div className="mt-6 flex justify-end gap-2">
            <button type="button" className={buttonClass('secondary', 'sm')} onClick={() => setConfirmingEveryone(false)}>
              Cancel
            </button>
            <button type="button" className={buttonClass('primary', 'sm', 'bg-danger-600 hover:bg-danger-600/90')} onClick={signOutEveryone}>
              Sign everyone out
            </button>
          </div>
        </ReactDialog>
      </div>
    );
  }

  return (
    <SignInForm
      disabled={state.kind === 'checking'}
      notice={state.kind === 'signed-out' ? state.notice : undefined}
      onSignedIn={(session) => setState({ kind: 'signed-in', session })}
    />
  );
}

function SignInForm({ disabled, notice, onSignedIn }: { disabled: boolean; notice?: string; onSignedIn: (session: Session) => void }) {
  const [username, setUsername] = useState('admin');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const passwordRef = useRef<HTMLDivElement>(null);

  async function submit(event: SubmitEvent) {
    event.preventDefault();
    setFailure(undefined);
    const parsed = loginSchema.safeParse({ username, password });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error.issues));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const { session } = await apiRequest<{ session: Session }>('POST', '/api/admin/session', parsed.data, { quiet401: true });
      setPassword('');
      showToast({ title: 'Signed in', description: `Welcome back, ${session.username}.` });
      onSignedIn(session);
    } catch (error) {
      setFailure(error instanceof ApiError && error.serverMessage ? error.serverMessage : 'Sign-in failed. Please try again.');
      setPassword('');
      passwordRef.current?.querySelector('input')?.focus();
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="sign-in-title" className={`${cardClass} mx-auto max-w-md`}>
      <h2 id="sign-in-title" className="text-xl font-bold">
        Sign in
      </h2>
      <p className="mt-1 text-sm text-muted">This page holds access tokens: sign in with the site's admin account.</p>
      <div role="status" aria-live="polite">
        {notice && !failure && <p className="mt-4 rounded-lg bg-brand-50 px-3 py-2 text-sm text-brand-700">{notice}</p>}
      </div>
      <div role="alert">{failure && <p className="mt-4 rounded-lg bg-danger-50 px-3 py-2 text-sm font-medium text-danger-600">{failure}</p>}</div>
      <form className="mt-4 space-y-4" onSubmit={submit} noValidate aria-busy={disabled || busy}>
        <fieldset disabled={disabled || busy} className="space-y-4">
          <legend className="sr-only">Admin account</legend>
          <TextField label="Username" name="username" required value={username} onChange={setUsername} error={errors.username} autoComplete="username" />
          <div ref={passwordRef}>
            <TextField
              label="Password"
              name="password"
              type="password"
              required
              value={password}
              onChange={setPassword}
              error={errors.password}
              autoComplete="current-password"
            />
          </div>
          <button type="submit" className={buttonClass('primary', 'md', 'w-full')}>
            {busy ? 'Signing in…' : 'Sign in'}
          </button>
        </fieldset>
      </form>
    </section>
  );
}
