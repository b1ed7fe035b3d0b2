import { useCallback, useEffect, useRef, useState, type SubmitEvent } from 'react';
import { welcomeFor } from '../../lib/browser/admin-welcome';
import { loginSchema } from '../../lib/shared/schemas';
import { staffEmailSchema } from '../../lib/shared/schemas/admin';
import { apiRequest, ApiError, failureMessage, formatDateTime, setUnauthorizedHandler } from '../../lib/browser/admin-api';
import { ceremonyFailure, passkeysSupported, registerPasskey, signInWithPasskey, type AdminSession } from '../../lib/browser/passkeys-client';
import { buttonClass, cardClass } from '../../lib/shared/ui';
import { showToast } from '../../lib/browser/frame/toast';
import { ReactDialog } from '../ui/ReactDialog';
import { AdminTabs } from './admin/AdminTabs';
import { AdminSessionContext } from './admin/session';
import { TextField, validate } from './admin/fields';

type Session = AdminSession;

type State =
  | { kind: 'checking' }
  | { kind: 'signed-out'; notice?: string; passwordSignIn: boolean }
  | { kind: 'invitation'; token: string }
  | { kind: 'signed-in'; session: Session };

/** The invitation token of `/webhook-config?invite=…`, if the page was opened with one. */
function invitationToken(): string | undefined {
  if (typeof window === 'undefined') return undefined;
  const token = new URLSearchParams(window.location.search).get('invite');
  return token && /^[A-Za-z0-9_-]{1,100}$/.test(token) ? token : undefined;
}

/** Takes the invitation out of the address bar (and the history), once it is used or refused. */
function forgetInvitation() {
  const url = new URL(window.location.href);
  url.searchParams.delete('invite');
  window.history.replaceState(null, '', url.pathname + url.search + url.hash);
}

/**
 * The admin page: a sign-in (a passkey; the admin password only while the site has no owner) until
 * the server confirms a session, then the tabs the person's role allows. An invitation link opens
 * the registration of the invited person's passkey. Any call answering 401 (expired or ended
 * session, a removed person or passkey) brings the sign-in back.
 */
export default function AdminApp() {
  const [state, setState] = useState<State>({ kind: 'checking' });
  const [confirmingEveryone, setConfirmingEveryone] = useState(false);
  const [adding, setAdding] = useState(false);
  // Where focus goes once the next state is drawn: the view a person's action replaced is gone, and
  // focus would fall to the page's body. Not on the page's first check, which takes no focus.
  const focusAfter = useRef<'signed-in' | 'signed-out'>(undefined);
  const signedInRef = useRef<HTMLParagraphElement>(null);
  // A person who signs out has said why the sign-in is back: a tab's call still on its way answers
  // 401 after that and must not replace "You have signed out." Only the latest check draws.
  const signingOut = useRef(false);
  const latestCheck = useRef(0);

  useEffect(() => {
    const target = focusAfter.current;
    if (!target || state.kind !== target) return;
    focusAfter.current = undefined;
    if (target === 'signed-in') signedInRef.current?.focus();
    else document.getElementById('sign-in-title')?.focus();
  }, [state]);

  const checkSession = useCallback(async (notice?: string) => {
    const check = ++latestCheck.current;
    let next: State;
    try {
      const answer = await apiRequest<{ session: Session | null; passwordSignIn: boolean }>('GET', '/api/admin/session', undefined, { quiet401: true });
      next = answer.session ? { kind: 'signed-in', session: answer.session } : { kind: 'signed-out', notice, passwordSignIn: answer.passwordSignIn };
    } catch {
      next = { kind: 'signed-out', notice, passwordSignIn: false };
    }
    if (check === latestCheck.current) setState(next);
  }, []);

  useEffect(() => {
    const token = invitationToken();
    if (token) setState({ kind: 'invitation', token });
    else void checkSession();
    setUnauthorizedHandler((message) => {
      if (signingOut.current) return;
      focusAfter.current = 'signed-out';
      void checkSession(message);
    });
    return () => setUnauthorizedHandler(undefined);
  }, [checkSession]);

  const signOut = useCallback(async () => {
    signingOut.current = true;
    try {
      await apiRequest('DELETE', '/api/admin/session', undefined, { quiet401: true });
    } catch {
      // Signed out on the server or not, this browser forgets the session.
    }
    focusAfter.current = 'signed-out';
    await checkSession('You have signed out.');
  }, [checkSession]);

  const signOutEveryone = useCallback(async () => {
    setConfirmingEveryone(false);
    try {
      await apiRequest('DELETE', '/api/admin/sessions');
      signingOut.current = true;
      focusAfter.current = 'signed-out';
      await checkSession('Everyone has been signed out, you too.');
    } catch (error) {
      showToast({
        title: 'Error',
        description: error instanceof ApiError && error.serverMessage ? error.serverMessage : 'Could not sign everyone out.',
        variant: 'destructive',
      });
    }
  }, [checkSession]);

  const addPasskey = useCallback(async () => {
    setAdding(true);
    try {
      await registerPasskey({ purpose: 'add' });
      showToast({ title: 'Passkey added', description: 'You can now sign in with this passkey too.' });
    } catch (error) {
      showToast({
        title: 'No passkey added',
        description: ceremonyFailure(error, failureMessage(error, 'The passkey could not be added.')),
        variant: 'destructive',
      });
    } finally {
      setAdding(false);
    }
  }, []);

  const onSignedIn = (session: Session) => {
    signingOut.current = false;
    focusAfter.current = 'signed-in';
    setState({ kind: 'signed-in', session });
  };

  if (state.kind === 'invitation') {
    return (
      <InvitationPanel
        token={state.token}
        onDone={(session) => {
          forgetInvitation();
          if (session) onSignedIn(session);
          else void checkSession();
        }}
      />
    );
  }

  if (state.kind === 'signed-in') {
    const { session } = state;
    const owner = session.role === 'owner';
    return (
      <AdminSessionContext.Provider value={session}>
        <div className="mb-6 flex flex-wrap items-center justify-between gap-3 rounded-card border border-line bg-white px-4 py-3">
          <p ref={signedInRef} tabIndex={-1} className="text-sm text-muted outline-none">
            Signed in as <strong className="text-ink">{session.username}</strong>
            {!session.bootstrap && <span> ({owner ? 'owner' : 'staff'})</span>}
          </p>
          <div className="flex flex-wrap gap-2">
            {!session.bootstrap && (
              <button type="button" className={buttonClass('ghost', 'sm')} onClick={addPasskey} disabled={adding} aria-busy={adding}>
                {adding ? 'Adding a passkey…' : 'Add a passkey'}
              </button>
            )}
            {owner && (
              <button type="button" className={buttonClass('ghost', 'sm')} onClick={() => setConfirmingEveryone(true)}>
                Sign everyone out
              </button>
            )}
            <button type="button" className={buttonClass('secondary', 'sm')} onClick={signOut}>
              Sign out
            </button>
          </div>
        </div>
        {session.bootstrap && <FirstOwner onRegistered={onSignedIn} />}
        <AdminTabs key={`${session.username}|${session.role}`} />
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
      </AdminSessionContext.Provider>
    );
  }

  const notice = state.kind === 'signed-out' ? state.notice : undefined;
  if (state.kind === 'signed-out' && !state.passwordSignIn) {
    return <PasskeySignIn notice={notice} onSignedIn={onSignedIn} />;
  }
  return <SignInForm disabled={state.kind === 'checking'} notice={notice} onSignedIn={onSignedIn} />;
}

/** Signing in once the site has an owner: a passkey, no username or password. */
function PasskeySignIn({ notice, onSignedIn }: { notice?: string; onSignedIn: (session: Session) => void }) {
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);

  async function start() {
    setFailure(undefined);
    setBusy(true);
    try {
      const session = await signInWithPasskey();
      showToast({ title: 'Signed in', description: welcomeFor(session.username) });
      onSignedIn(session);
    } catch (error) {
      setFailure(ceremonyFailure(error, failureMessage(error, 'Sign-in failed. Please try again.')));
      buttonRef.current?.focus();
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="sign-in-title" className={`${cardClass} mx-auto max-w-md`} aria-busy={busy}>
      <h2 id="sign-in-title" tabIndex={-1} className="text-xl font-bold outline-none">
        Sign in
      </h2>
      <p className="mt-1 text-sm text-muted">Staff sign in with their own passkey: your device asks for your fingerprint, face or screen lock.</p>
      <div role="status" aria-live="polite">
        {notice && !failure && <p className="mt-4 rounded-lg bg-brand-50 px-3 py-2 text-sm text-brand-700">{notice}</p>}
      </div>
      <div role="alert">{failure && <p className="mt-4 rounded-lg bg-danger-50 px-3 py-2 text-sm font-medium text-danger-600">{failure}</p>}</div>
      {passkeysSupported() ? (
        <button ref={buttonRef} type="button" className={buttonClass('primary', 'md', 'mt-4 w-full')} onClick={start} disabled={busy}>
          {busy ? 'Waiting for your passkey…' : 'Sign in with a passkey'}
        </button>
      ) : (
        <p className="mt-4 text-sm text-danger-600">This browser cannot use passkeys. Open this page in a current browser.</p>
      )}
      <p className="mt-4 text-xs text-muted">No passkey yet? Ask an owner of the site for an invitation.</p>
    </section>
  );
}

/** The bootstrap session's invitation to become the site's first owner. */
function FirstOwner({ onRegistered }: { onRegistered: (session: Session) => void }) {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function submit(event: SubmitEvent) {
    event.preventDefault();
    setError(undefined);
    const checked = staffEmailSchema.safeParse(email);
    if (!checked.success) {
      setError(checked.error.issues[0]?.message);
      return;
    }
    setBusy(true);
    try {
      const session = await registerPasskey({ purpose: 'bootstrap', email: checked.data });
      showToast({ title: 'You are the owner', description: 'Sign in with your passkey from now on; the admin password no longer opens this page.' });
      onRegistered(session);
    } catch (failure) {
      setError(ceremonyFailure(failure, failureMessage(failure, 'The passkey could not be registered.')));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="first-owner-title" className={`${cardClass} mb-6`}>
      <h2 id="first-owner-title" className="text-lg font-bold">
        Become this site's first owner
      </h2>
      <p className="mt-1 text-sm text-ink-soft">
        You signed in with the site's admin password. Register a passkey with your email address to become the first owner; then invite the rest of the staff.
        After that, the admin password no longer opens this page.
      </p>
      <form className="mt-4 grid gap-4 sm:grid-cols-[1fr_auto] sm:items-end" onSubmit={submit} noValidate aria-busy={busy}>
        <TextField label="Your email address" name="owner-email" type="email" required value={email} onChange={setEmail} error={error} autoComplete="email" />
        <button type="submit" className={buttonClass('primary', 'md')} disabled={busy}>
          {busy ? 'Registering…' : 'Register a passkey'}
        </button>
      </form>
    </section>
  );
}

/** An invitation link: what it is for, then the invited person's passkey. */
function InvitationPanel({ token, onDone }: { token: string; onDone: (session?: Session) => void }) {
  const [invitation, setInvitation] = useState<{ email: string; role: 'owner' | 'staff'; expiresAt: string } | null>(null);
  const [failure, setFailure] = useState<string>();
  const [refused, setRefused] = useState(false);
  const [busy, setBusy] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    apiRequest<{ invitation: { email: string; role: 'owner' | 'staff'; expiresAt: string } }>('POST', '/api/admin/invitation', { token }, { quiet401: true })
      .then((answer) => setInvitation(answer.invitation))
      .catch((error: unknown) => {
        setRefused(true);
        setFailure(failureMessage(error, 'This invitation link is not valid.'));
      });
  }, [token]);

  useEffect(() => {
    if (invitation || refused) headingRef.current?.focus();
  }, [invitation, refused]);

  async function register() {
    setFailure(undefined);
    setBusy(true);
    try {
      const session = await registerPasskey({ purpose: 'invitation', token });
      showToast({ title: 'Welcome', description: `You are signed in as ${session.username}.` });
      onDone(session);
    } catch (error) {
      setFailure(ceremonyFailure(error, failureMessage(error, 'The passkey could not be registered.')));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="invitation-title" className={`${cardClass} mx-auto max-w-md`} aria-busy={busy || (!invitation && !refused)}>
      <h2 id="invitation-title" ref={headingRef} tabIndex={-1} className="text-xl font-bold outline-none">
        Join the staff
      </h2>
      {invitation && (
        <p className="mt-1 text-sm text-ink-soft">
          You are invited as <strong>{invitation.role === 'owner' ? 'an owner' : 'staff'}</strong> with <strong>{invitation.email}</strong>. Create a passkey on
          this device to sign in; the link works once, until {formatDateTime(invitation.expiresAt)}.
        </p>
      )}
      {!invitation && !refused && <p className="mt-1 text-sm text-muted">Checking your invitation…</p>}
      <div role="alert">{failure && <p className="mt-4 rounded-lg bg-danger-50 px-3 py-2 text-sm font-medium text-danger-600">{failure}</p>}</div>
      {invitation && (
        <button type="button" className={buttonClass('primary', 'md', 'mt-4 w-full')} onClick={register} disabled={busy}>
          {busy ? 'Waiting for your passkey…' : 'Create a passkey'}
        </button>
      )}
      {refused && (
        <button type="button" className={buttonClass('secondary', 'md', 'mt-4 w-full')} onClick={() => onDone()}>
          Go to the sign-in
        </button>
      )}
    </section>
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
    const credentials = validate(loginSchema, { username, password }, setErrors);
    if (!credentials) return;
    setBusy(true);
    try {
      const { session } = await apiRequest<{ session: Session }>('POST', '/api/admin/session', credentials, { quiet401: true });
      setPassword('');
      showToast({ title: 'Signed in', description: welcomeFor(session.username) });
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
      <h2 id="sign-in-title" tabIndex={-1} className="text-xl font-bold outline-none">
        Sign in
      </h2>
      <p className="mt-1 text-sm text-muted">
        {disabled
          ? // Prerendered (and all a browser without JavaScript shows): whether the site has an owner is not known yet.
            "Staff sign in with their own passkey. Only on a new site, before it has an owner, does the site's admin password open this page, to register the first owner's passkey."
          : "This site has no owner yet: sign in with the site's admin password, then register a passkey to become its first owner. After that, staff sign in with passkeys only."}
      </p>
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
