import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { apiRequest, failureMessage, formatDateTime } from '../../../lib/browser/admin-api';
import { staffEmailSchema } from '../../../lib/shared/schemas/admin';
import { buttonClass, cardClass } from '../../../lib/shared/ui';
import { showToast } from '../../../lib/browser/frame/toast';
import { ReactDialog } from '../../ui/ReactDialog';
import { AdminList, useKeysetList, type AdminColumn, type AdminListText } from './AdminList';
import { SelectField, StatusBadge, TextField } from './fields';
import { useAdminSession } from './session';

interface Passkey {
  id: string;
  label: string;
  createdAt: string;
  lastUsedAt: string | null;
}

interface Person {
  id: string;
  email: string;
  role: 'owner' | 'staff';
  createdAt: string;
  invitedBy: string | null;
  passkeys: Passkey[];
}

interface Invitation {
  id: string;
  email: string;
  role: 'owner' | 'staff';
  invitedBy: string;
  expiresAt: string;
}

interface Created {
  link: string;
  email: string;
  role: 'owner' | 'staff';
  expiresAt: string;
  emailed: boolean;
}

type Removal = { kind: 'person'; person: Person } | { kind: 'passkey'; person: Person; passkey: Passkey } | { kind: 'invitation'; invitation: Invitation };

const roleLabel = { owner: 'Owner', staff: 'Staff' } as const;
const PATH = '/api/admin/staff';

const text: AdminListText = {
  loading: 'Loading…',
  failure: 'The staff list could not be loaded.',
  empty: 'Nobody yet',
  emptyHint: 'The first owner appears here once they register a passkey.',
};

/**
 * Staff (owners only): the people who may sign in, with their passkeys; invitations by email and
 * role (the link is shown here, and emailed by the mail layer when a sender is configured), each
 * open one cancellable; removing a person or one passkey ends their sessions at once.
 */
export function StaffTab() {
  const me = useAdminSession();
  const people = useKeysetList(PATH, async () => {
    const answer = await apiRequest<{ staff: Person[]; invitations: Invitation[] }>('GET', PATH);
    return { rows: answer.staff, summary: answer.invitations };
  });
  const load = people.reload;
  const invitations = people.summary ?? [];
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<'owner' | 'staff'>('staff');
  const [inviteError, setInviteError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<Created>();
  const [removal, setRemoval] = useState<Removal>();
  const [status, setStatus] = useState('');
  const linkRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (created) linkRef.current?.focus();
  }, [created]);

  async function invite(event: SubmitEvent) {
    event.preventDefault();
    setInviteError(undefined);
    const checked = staffEmailSchema.safeParse(email);
    if (!checked.success) {
      setInviteError(checked.error.issues[0]?.message);
      return;
    }
    setBusy(true);
    try {
      const answer = await apiRequest<{ invitation: Created }>('POST', `${PATH}/invitations`, { email: checked.data, role });
      setCreated(answer.invitation);
      setEmail('');
      setStatus(`Invitation created for ${answer.invitation.email}.`);
      await load();
    } catch (error) {
      setInviteError(failureMessage(error, 'The invitation could not be created.'));
    } finally {
      setBusy(false);
    }
  }

  async function confirmRemoval() {
    if (!removal) return;
    const current = removal;
    setRemoval(undefined);
    try {
      if (current.kind === 'invitation') {
        await apiRequest('DELETE', `${PATH}/invitations/${current.invitation.id}`);
        showToast({ title: 'Invitation cancelled', description: `The link sent to ${current.invitation.email} no longer works.` });
      } else if (current.kind === 'person') {
        await apiRequest('DELETE', `${PATH}/${current.person.id}`);
        setStatus(`${current.person.email} was removed; their sessions have ended.`);
      } else {
        await apiRequest('DELETE', `${PATH}/${current.person.id}/passkeys/${current.passkey.id}`);
        setStatus(`The passkey "${current.passkey.label}" of ${current.person.email} was removed.`);
      }
      await load();
    } catch (error) {
      showToast(
        current.kind === 'invitation'
          ? { title: 'Not cancelled', description: failureMessage(error, 'The invitation could not be cancelled.'), variant: 'destructive' }
          : { title: 'Not removed', description: failureMessage(error, 'It could not be removed.'), variant: 'destructive' },
      );
      // An invitation used or cancelled meanwhile is no longer open: the list says so.
      if (current.kind === 'invitation') await load();
    }
  }

  async function changeRole(person: Person, next: 'owner' | 'staff') {
    try {
      await apiRequest('PATCH', `${PATH}/${person.id}`, { role: next });
      setStatus(`${person.email} is now ${roleLabel[next].toLowerCase()}.`);
      await load();
    } catch (error) {
      showToast({ title: 'Role not changed', description: failureMessage(error, 'The role could not be changed.'), variant: 'destructive' });
    }
  }

  const columns: ReadonlyArray<AdminColumn<Person>> = [
    {
      header: 'Person',
      kind: 'title',
      className: 'lg:align-top',
      cell: (person) => (
        <>
          {person.email}
          {person.id === me?.staffId && <span className="ml-2 text-xs font-normal text-muted">(you)</span>}
        </>
      ),
    },
    {
      header: 'Role',
      className: 'lg:align-top',
      cell: (person) => (
        <>
          <StatusBadge tone={person.role === 'owner' ? 'success' : 'neutral'}>{roleLabel[person.role]}</StatusBadge>
          <button
            type="button"
            className={buttonClass('ghost', 'sm', 'mt-1 block')}
            onClick={() => changeRole(person, person.role === 'owner' ? 'staff' : 'owner')}
            aria-label={`Make ${person.email} ${person.role === 'owner' ? 'staff' : 'an owner'}`}
          >
            {person.role === 'owner' ? 'Make staff' : 'Make owner'}
          </button>
        </>
      ),
    },
    {
      header: 'Passkeys',
      className: 'lg:align-top',
      cell: (person) => (
        <ul className="space-y-2">
          {person.passkeys.map((passkey) => (
            <li key={passkey.id} className="flex flex-wrap items-center gap-2">
              <span>
                <span className="font-medium">{passkey.label}</span>
                <span className="block text-xs text-muted">{passkey.lastUsedAt ? `Last used ${formatDateTime(passkey.lastUsedAt)}` : 'Not used yet'}</span>
              </span>
              <button
                type="button"
                className={buttonClass('ghost', 'sm')}
                onClick={() => setRemoval({ kind: 'passkey', person, passkey })}
                aria-label={`Remove the passkey ${passkey.label} of ${person.email}`}
              >
                Remove passkey
              </button>
            </li>
          ))}
        </ul>
      ),
    },
    {
      header: 'Actions',
      kind: 'actions',
      hideHeader: true,
      className: 'lg:align-top lg:text-right',
      cell: (person) => (
        <button
          type="button"
          className={buttonClass('secondary', 'sm')}
          onClick={() => setRemoval({ kind: 'person', person })}
          aria-label={`Remove ${person.email}`}
        >
          Remove
        </button>
      ),
    },
  ];

  return (
    <div className="space-y-6">
      <p aria-live="polite" className="sr-only">
        {status}
      </p>
      <section aria-labelledby="staff-invite-title" className={cardClass}>
        <h2 id="staff-invite-title" className="text-lg font-bold">
          Invite a person
        </h2>
        <p className="mt-1 text-sm text-muted">
          They get a link valid for 72 hours, usable once, to create a passkey on their device. Owners manage staff, HubSpot, Calendly and webhooks; staff see
          submissions, the outbox, impact and logs.
        </p>
        <form className="mt-4 grid gap-4 sm:grid-cols-[1fr_12rem_auto] sm:items-end" onSubmit={invite} noValidate aria-busy={busy}>
          <TextField label="Email address" name="invite-email" type="email" required value={email} onChange={setEmail} error={inviteError} autoComplete="off" />
          <SelectField
            label="Role"
            name="invite-role"
            required
            value={role}
            onChange={(value) => setRole(value === 'owner' ? 'owner' : 'staff')}
            placeholder="Choose a role"
            options={[
              { value: 'staff', label: 'Staff' },
              { value: 'owner', label: 'Owner' },
            ]}
          />
          <button type="submit" className={buttonClass('primary', 'md')} disabled={busy}>
            {busy ? 'Inviting…' : 'Invite'}
          </button>
        </form>
        {created && (
          <div className="mt-4 rounded-lg bg-brand-50 p-4 text-sm">
            <label htmlFor="staff-invite-link" className="block font-semibold text-ink">
              Invitation link for {created.email} ({roleLabel[created.role].toLowerCase()}), valid until {formatDateTime(created.expiresAt)}
            </label>
            <input
              ref={linkRef}
              id="staff-invite-link"
              readOnly
              value={created.link}
              onFocus={(event) => event.currentTarget.select()}
              className="mt-2 block w-full rounded-lg border border-line bg-white px-3 py-2 font-mono text-xs"
            />
            <p className="mt-2 text-muted">
              {created.emailed ? 'It was also emailed to them.' : 'Send it to them yourself: no mail sender is configured to email it.'}
            </p>
          </div>
        )}
      </section>

      <section aria-labelledby="staff-list-title">
        <h2 id="staff-list-title" className="text-lg font-bold">
          People
        </h2>
        <div className="mt-3">
          <AdminList label="People and their passkeys" list={people} text={text} columns={columns} />
        </div>
        {invitations.length > 0 && (
          <div className="mt-6">
            <h3 className="text-base font-bold">Open invitations</h3>
            <ul className="mt-2 space-y-2 text-sm">
              {invitations.map((invitation) => (
                <li
                  key={invitation.id}
                  className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 rounded-lg border border-line bg-white px-3 py-2"
                >
                  <span className="min-w-0 wrap-anywhere">
                    {invitation.email} ({roleLabel[invitation.role].toLowerCase()}), invited by {invitation.invitedBy}, valid until{' '}
                    {formatDateTime(invitation.expiresAt)}
                  </span>
                  <button
                    type="button"
                    className={buttonClass('secondary', 'sm')}
                    onClick={() => setRemoval({ kind: 'invitation', invitation })}
                    aria-label={`Cancel the invitation of ${invitation.email}`}
                  >
                    Cancel
                  </button>
                </li>
              ))}
            </ul>
          </div>
        )}
      </section>

      <ReactDialog
        open={removal !== undefined}
        onClose={() => setRemoval(undefined)}
        title={
          removal?.kind === 'invitation'
            ? `Cancel the invitation of ${removal.invitation.email}?`
            : removal?.kind === 'person'
              ? `Remove ${removal.person.email}?`
              : removal
                ? `Remove the passkey "${removal.passkey.label}"?`
                : 'Remove?'
        }
      >
        <p className="text-sm text-ink-soft">
          {removal?.kind === 'invitation'
            ? 'The link stops working at once. You can invite them again later.'
            : removal?.kind === 'person'
              ? 'Their passkeys stop working and their sessions end at once. They need a new invitation to come back.'
              : 'It stops working, and the sessions opened with it end at once.'}
        </p>
        <div className="mt-6 flex justify-end gap-2">
          <button type="button" className={buttonClass('secondary', 'sm')} onClick={() => setRemoval(undefined)}>
            {removal?.kind === 'invitation' ? 'Keep it' : 'Cancel'}
          </button>
          <button type="button" className={buttonClass('primary', 'sm', 'bg-danger-600 hover:bg-danger-600/90')} onClick={confirmRemoval}>
            {removal?.kind === 'invitation' ? 'Cancel invitation' : 'Remove'}
          </button>
        </div>
      </ReactDialog>
    </div>
  );
}
