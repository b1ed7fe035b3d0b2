import { useEffect, useId, useState, type ChangeEvent, type SubmitEvent } from 'react';
import { ApiError, apiRequest, failureMessage, fieldErrors, formatDateTime } from '../../../lib/browser/admin-api';
import {
  DEFAULT_HOURS,
  evidenceKinds,
  evidenceLabels,
  evidenceSchema,
  schoolInputSchema,
  sourceLabels,
  statusLabels,
  type SchoolStatus,
  type SchoolView,
} from '../../../lib/shared/school-record';
import { buttonClass } from '../../../lib/shared/ui';
import { showToast } from '../../../lib/browser/frame/toast';
import { ReactDialog } from '../../ui/ReactDialog';
import { AdminList, RefreshButton, RowActions, useKeysetList, useRowTask, withCursor, type AdminColumn, type AdminListText } from './AdminList';
import { DialogActions, SectionHeader, SelectField, StatusBadge, TextAreaField, TextField } from './fields';

const PATH = '/api/admin/schools';

type School = SchoolView & { letters: { letters: number; confirmed: number } };
interface Flag {
  schoolId: string;
  schoolName: string;
  address: string;
  letters: number;
  createdAt: string;
}

const texts: Record<SchoolStatus, AdminListText> = {
  proposed: {
    loading: 'Loading the proposed schools…',
    failure: 'The proposed schools could not be loaded.',
    empty: 'No school waits for a check',
    emptyHint: 'A school a parent writes to, or nominates, that the site does not know waits here until you verify it.',
    more: 'Load more schools',
  },
  verified: {
    loading: 'Loading the verified schools…',
    failure: 'The verified schools could not be loaded.',
    empty: 'No verified school yet',
    emptyHint: 'Add one, import a CSV, or verify a proposal.',
    more: 'Load more schools',
  },
  retired: {
    loading: 'Loading the retired schools…',
    failure: 'The retired schools could not be loaded.',
    empty: 'No retired school',
    more: 'Load more schools',
  },
};

const dayNames = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

interface Draft {
  name: string;
  city: string;
  leaders: Array<{ name: string; role: string; address: string }>;
  timeZone: string;
  days: number[];
  opens: string;
  closes: string;
  holidays: string;
  website: string;
  emailDomains: string;
  evidenceKind: string;
  evidenceDetail: string;
}

const emptyDraft = (): Draft => ({
  name: '',
  city: '',
  leaders: [{ name: '', role: '', address: '' }],
  timeZone: 'America/New_York',
  days: [...DEFAULT_HOURS.days],
  opens: DEFAULT_HOURS.opens,
  closes: DEFAULT_HOURS.closes,
  holidays: '',
  website: '',
  emailDomains: '',
  evidenceKind: '',
  evidenceDetail: '',
});

const draftOf = (school: School): Draft => ({
  name: school.name,
  city: school.city ?? '',
  leaders: school.leaders.length ? school.leaders.map((leader) => ({ ...leader })) : [{ name: '', role: '', address: '' }],
  timeZone: school.timeZone,
  days: [...school.hours.days],
  opens: school.hours.opens,
  closes: school.hours.closes,
  holidays: school.holidays.join(' '),
  website: school.website ?? '',
  emailDomains: school.emailDomains.join(' '),
  evidenceKind: '',
  evidenceDetail: '',
});

const words = (text: string) => text.split(/[\s,;]+/).filter(Boolean);

/** The record a draft makes, as the server reads it. */
const recordOf = (draft: Draft) => ({
  name: draft.name,
  ...(draft.city.trim() ? { city: draft.city } : {}),
  leaders: draft.leaders.filter((leader) => leader.address.trim() || leader.name.trim()),
  emailDomains: words(draft.emailDomains),
  ...(draft.website.trim() ? { website: draft.website.trim() } : {}),
  timeZone: draft.timeZone,
  hours: { days: draft.days, opens: draft.opens, closes: draft.closes },
  holidays: words(draft.holidays),
});

type Dialog =
  | { kind: 'add' }
  | { kind: 'edit'; school: School }
  | { kind: 'verify'; school: School }
  | { kind: 'retire'; school: School }
  | { kind: 'merge'; school: School };

/**
 * Schools (staff): the records every public fact about a school rests on. A school a parent typed
 * (or nominated) is a proposal: its letters go to the address the parent typed, but it has no page,
 * count or outcome until staff verify it on their evidence. Verified schools are offered to
 * parents as they type, with the addresses their record lists. Every change is audited.
 */
export function SchoolsTab() {
  const [status, setStatus] = useState<SchoolStatus>('proposed');
  const [search, setSearch] = useState('');
  const [text, setText] = useState('');
  const [dialog, setDialog] = useState<Dialog>();
  const [flags, setFlags] = useState<Flag[]>();
  const [importing, setImporting] = useState(false);
  const [report, setReport] = useState<string>();
  const task = useRowTask();
  const id = useId();
  const query = `${PATH}?status=${status}${text ? `&q=${encodeURIComponent(text)}` : ''}`;
  const list = useKeysetList(query, async (cursor) => {
    const page = await apiRequest<{ schools: School[]; nextCursor?: string }>('GET', withCursor(query, cursor));
    return { rows: page.schools, nextCursor: page.nextCursor };
  });

  useEffect(() => {
    const timer = setTimeout(() => setText(search.trim()), 300);
    return () => clearTimeout(timer);
  }, [search]);

  async function loadFlags() {
    try {
      setFlags((await apiRequest<{ flags: Flag[] }>('GET', `${PATH}/flags`)).flags);
    } catch {
      setFlags([]);
    }
  }
  // biome-ignore lint/correctness/useExhaustiveDependencies: loaded once, when the tab opens; loadFlags() is redefined on every render
  useEffect(() => {
    void loadFlags();
  }, []);

  function changed(school: School, message: string) {
    list.update((rows) => (school.status === status ? rows.map((row) => (row.id === school.id ? school : row)) : rows.filter((row) => row.id !== school.id)));
    showToast({ title: 'Saved', description: message });
  }

  function settleFlag(flag: Flag, decision: 'added' | 'dismissed') {
    void task.run(`${flag.schoolId}|${flag.address}`, 'The address could not be settled.', async () => {
      try {
        await apiRequest('POST', `${PATH}/${flag.schoolId}/flags`, { address: flag.address, decision });
        setFlags((current) => current?.filter((entry) => entry !== flag));
        showToast({
          title: decision === 'added' ? 'Address added' : 'Dismissed',
          description:
            decision === 'added' ? `Letters to it now count for ${flag.schoolName}.` : 'It stays the parents’ own choice; it is never offered to others.',
        });
      } catch (error) {
        showToast({ title: 'Not done', description: failureMessage(error, 'The address could not be settled.'), variant: 'destructive' });
      }
    });
  }

  async function importFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setImporting(true);
    setReport(undefined);
    try {
      const response = await fetch(`${PATH}/import`, {
        method: 'POST',
        credentials: 'include',
        headers: { 'content-type': 'text/csv', accept: 'application/json' },
        body: await file.text(),
      });
      const answer = (await response.json()) as {
        created?: Array<{ line: number; name: string }>;
        refused?: Array<{ line: number; message: string }>;
        error?: { message: string };
      };
      if (!response.ok) throw new ApiError(response.status, `${response.status}`, answer.error?.message);
      const refused = answer.refused ?? [];
      setReport(
        `${answer.created?.length ?? 0} schools added and verified.${
          refused.length
            ? ` Not added: ${refused
                .slice(0, 10)
                .map((row) => `line ${row.line} (${row.message})`)
                .join('; ')}${refused.length > 10 ? `, and ${refused.length - 10} more` : ''}.`
            : ''
        }`,
      );
      if (status === 'verified') await list.reload();
    } catch (error) {
      setReport(failureMessage(error, 'The file could not be imported.'));
    } finally {
      setImporting(false);
    }
  }

  const columns: ReadonlyArray<AdminColumn<School>> = [
    {
      header: 'School',
      kind: 'title',
      className: 'lg:align-top',
      cell: (school) => (
        <>
          {school.name}
          {school.city && <span className="font-normal text-muted">, {school.city}</span>}
          <span className="block text-xs font-normal text-muted">
            {sourceLabels[school.source]} · {formatDateTime(school.createdAt)}
          </span>
        </>
      ),
    },
    {
      header: 'Writes to',
      className: 'lg:align-top wrap-anywhere',
      cell: (school) =>
        school.leaders.length ? (
          <ul className="space-y-1">
            {school.leaders.map((leader) => (
              <li key={leader.address}>
                {[leader.name, leader.role].filter(Boolean).join(', ') || <span className="text-muted">No name</span>}
                <span className="block text-xs text-muted">{leader.address}</span>
              </li>
            ))}
          </ul>
        ) : (
          <span className="text-muted">No address yet</span>
        ),
    },
    {
      header: 'Letters',
      className: 'lg:align-top tabular-nums',
      cell: (school) => (
        <>
          {school.letters.letters}
          <span className="block text-xs text-muted">{school.letters.confirmed} confirmed</span>
        </>
      ),
    },
    {
      header: 'Status',
      className: 'lg:align-top',
      cell: (school) => (
        <>
          <StatusBadge tone={school.status === 'verified' ? 'success' : school.status === 'proposed' ? 'pending' : 'neutral'}>
            {statusLabels[school.status]}
          </StatusBadge>
          {school.evidence && (
            <span className="mt-1 block text-xs text-muted">
              {evidenceLabels[school.evidence.kind]}: {school.evidence.detail}
              {school.verifiedBy ? ` (${school.verifiedBy})` : ''}
            </span>
          )}
          {school.status === 'verified' && (
            <a
              className="mt-1 block text-xs font-semibold text-brand-700 underline"
              href={`/schools/${school.slug}-${school.pageKey}`}
              target="_blank"
              rel="noopener"
            >
              Its page<span className="sr-only"> (opens in a new tab)</span>
            </a>
          )}
        </>
      ),
    },
    {
      header: 'Actions',
      kind: 'actions',
      hideHeader: true,
      className: 'lg:align-top',
      cell: (school) =>
        school.status === 'retired' ? (
          <span className="text-xs text-muted">{school.mergedInto ? 'Merged into another record' : 'Retired'}</span>
        ) : (
          <RowActions>
            {school.status === 'proposed' && (
              <button
                type="button"
                className={buttonClass('primary', 'sm')}
                onClick={() => setDialog({ kind: 'verify', school })}
                aria-label={`Verify ${school.name}`}
              >
                Verify
              </button>
            )}
            <button
              type="button"
              className={buttonClass('secondary', 'sm')}
              onClick={() => setDialog({ kind: 'edit', school })}
              aria-label={`Edit ${school.name}`}
            >
              Edit
            </button>
            <button
              type="button"
              className={buttonClass('secondary', 'sm')}
              onClick={() => setDialog({ kind: 'merge', school })}
              aria-label={`Merge ${school.name} into another school`}
            >
              Merge
            </button>
            <button
              type="button"
              className={buttonClass('secondary', 'sm')}
              onClick={() => setDialog({ kind: 'retire', school })}
              aria-label={`Retire ${school.name}`}
            >
              Retire
            </button>
          </RowActions>
        ),
    },
  ];

  return (
    <div className="space-y-10">
      <section aria-labelledby="schools-title">
        <SectionHeader
          id="schools-title"
          title="Schools"
          actions={
            <div className="flex flex-wrap gap-2">
              <button type="button" className={buttonClass('primary', 'sm')} onClick={() => setDialog({ kind: 'add' })}>
                Add a school
              </button>
              <label className={`${buttonClass('secondary', 'sm')} cursor-pointer`} aria-busy={importing}>
                {importing ? 'Importing…' : 'Import a CSV'}
                <input type="file" accept=".csv,text/csv" className="sr-only" onChange={importFile} disabled={importing} />
              </label>
              <RefreshButton list={list} />
            </div>
          }
        >
          Every page, count and outcome rests on a school you verified. A school parents type is a proposal: its letters still go, to the address the parent
          typed, but nothing public shows until you verify it, with what you relied on. A CSV has the columns name, city, leader_name, leader_role,
          leader_email, time_zone, days, opens, closes.
        </SectionHeader>
        {report && (
          <p className="mb-4 rounded-card border border-line bg-white p-4 text-sm" role="status">
            {report}
          </p>
        )}
        <div className="mb-4 flex flex-wrap items-end gap-3">
          <div>
            <label htmlFor={`${id}-status`} className="block text-sm font-semibold">
              Show
            </label>
            <select
              id={`${id}-status`}
              value={status}
              onChange={(event) => setStatus(event.target.value as SchoolStatus)}
              className="mt-1 rounded-lg border border-line bg-white px-3 py-2 text-sm"
            >
              <option value="proposed">Proposed: waiting for a check</option>
              <option value="verified">Verified</option>
              <option value="retired">Retired</option>
            </select>
          </div>
          <div className="min-w-56 grow">
            <label htmlFor={`${id}-search`} className="block text-sm font-semibold">
              Name or city
            </label>
            <input
              id={`${id}-search`}
              type="search"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              className="mt-1 block w-full rounded-lg border border-line bg-white px-3 py-2 text-sm"
            />
          </div>
        </div>
        <AdminList label="School records" list={list} text={texts[status]} columns={columns} />
      </section>

      <section aria-labelledby="school-flags-title">
        <SectionHeader
          id="school-flags-title"
          title="Addresses parents wrote to"
          actions={
            <button type="button" className={buttonClass('secondary', 'sm')} onClick={() => void loadFlags()}>
              Refresh
            </button>
          }
        >
          Letters to a verified school at an address its record does not list: each parent’s own choice, never offered to other parents and not counted on the
          school’s page. Add the address to the record if it is the school’s, or dismiss it.
        </SectionHeader>
        {flags === undefined ? (
          <p className="text-sm text-muted" role="status">
            Loading…
          </p>
        ) : flags.length === 0 ? (
          <p className="text-sm text-muted">No address to check.</p>
        ) : (
          <ul className="space-y-3">
            {flags.map((flag) => (
              <li
                key={`${flag.schoolId}|${flag.address}`}
                className="flex flex-wrap items-center justify-between gap-3 rounded-card border border-line bg-white p-4"
              >
                <span>
                  <span className="font-semibold">{flag.schoolName}</span>: {flag.address}
                  <span className="block text-xs text-muted">
                    {flag.letters} {flag.letters === 1 ? 'letter' : 'letters'} since {formatDateTime(flag.createdAt)}
                  </span>
                </span>
                <span className="flex gap-2">
                  <button type="button" className={buttonClass('secondary', 'sm')} disabled={task.busy !== undefined} onClick={() => settleFlag(flag, 'added')}>
                    Add to the record
                  </button>
                  <button
                    type="button"
                    className={buttonClass('secondary', 'sm')}
                    disabled={task.busy !== undefined}
                    onClick={() => settleFlag(flag, 'dismissed')}
                  >
                    Dismiss
                  </button>
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>

      <SchoolDialog
        dialog={dialog}
        onClose={() => setDialog(undefined)}
        onDone={(school, message) => {
          changed(school, message);
          setDialog(undefined);
        }}
        onAdded={() => {
          setDialog(undefined);
          void list.reload();
        }}
      />
    </div>
  );
}

function SchoolDialog({
  dialog,
  onClose,
  onDone,
  onAdded,
}: {
  dialog?: Dialog;
  onClose: () => void;
  onDone: (school: School, message: string) => void;
  onAdded: () => void;
}) {
  const [draft, setDraft] = useState<Draft>(emptyDraft);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [evidence, setEvidence] = useState({ kind: 'website', detail: '' });
  const [target, setTarget] = useState('');
  const [candidates, setCandidates] = useState<School[]>([]);

  useEffect(() => {
    if (!dialog) return;
    setErrors({});
    setEvidence({ kind: 'website', detail: '' });
    setTarget('');
    setDraft(dialog.kind === 'edit' ? draftOf(dialog.school) : emptyDraft());
    if (dialog.kind === 'merge') {
      void apiRequest<{ schools: School[] }>('GET', `${PATH}?status=verified&limit=100`).then(
        (page) => setCandidates(page.schools.filter((school) => school.id !== dialog.school.id)),
        () => setCandidates([]),
      );
    }
  }, [dialog]);

  const set =
    <K extends keyof Draft>(key: K) =>
    (value: Draft[K]) =>
      setDraft((current) => ({ ...current, [key]: value }));
  const setLeader = (index: number, key: 'name' | 'role' | 'address') => (value: string) =>
    setDraft((current) => ({ ...current, leaders: current.leaders.map((leader, at) => (at === index ? { ...leader, [key]: value } : leader)) }));

  async function submit(event: SubmitEvent) {
    event.preventDefault();
    if (!dialog) return;
    setBusy(true);
    try {
      if (dialog.kind === 'add' || dialog.kind === 'edit') {
        const parsed = schoolInputSchema.safeParse(recordOf(draft));
        const proof = draft.evidenceKind ? evidenceSchema.safeParse({ kind: draft.evidenceKind, detail: draft.evidenceDetail }) : undefined;
        if (!parsed.success || (proof && !proof.success)) {
          setErrors({
            ...(parsed.success ? {} : fieldErrors(parsed.error.issues)),
            ...(proof && !proof.success ? { evidence: proof.error.issues[0]?.message ?? 'Say what you checked.' } : {}),
          });
          return;
        }
        if (dialog.kind === 'add') {
          await apiRequest('POST', PATH, { school: parsed.data, ...(proof?.success ? { evidence: proof.data } : {}) });
          showToast({ title: 'School added', description: proof?.success ? `${parsed.data.name} is verified.` : `${parsed.data.name} waits for a check.` });
          onAdded();
        } else {
          const answer = await apiRequest<{ school: School }>('PUT', `${PATH}/${dialog.school.id}`, parsed.data);
          onDone(answer.school, `${answer.school.name} changed.`);
        }
      } else if (dialog.kind === 'verify') {
        const proof = evidenceSchema.safeParse(evidence);
        if (!proof.success) {
          setErrors({ evidence: proof.error.issues[0]?.message ?? 'Say what you checked.' });
          return;
        }
        const answer = await apiRequest<{ school: School; counted: number }>('POST', `${PATH}/${dialog.school.id}/verify`, { evidence: proof.data });
        onDone(answer.school, `${answer.school.name} is verified; its page opened with ${answer.counted} ${answer.counted === 1 ? 'letter' : 'letters'}.`);
      } else if (dialog.kind === 'retire') {
        const answer = await apiRequest<{ school: School }>('POST', `${PATH}/${dialog.school.id}/retire`, {});
        onDone(answer.school, `${answer.school.name} is retired: its page is gone, its letters stay.`);
      } else {
        if (!target) {
          setErrors({ target: 'Choose the school to merge into.' });
          return;
        }
        const answer = await apiRequest<{ school: School }>('POST', `${PATH}/${dialog.school.id}/merge`, { into: target });
        onDone(
          { ...dialog.school, status: 'retired', mergedInto: target },
          `${dialog.school.name} was merged into ${answer.school.name}: its letters and addresses are there now.`,
        );
      }
    } catch (error) {
      if (error instanceof ApiError && (error.status === 400 || error.status === 409)) setErrors({ form: failureMessage(error, 'This could not be saved.') });
      else {
        onClose();
        showToast({ title: 'Not saved', description: failureMessage(error, 'This could not be saved.'), variant: 'destructive' });
      }
    } finally {
      setBusy(false);
    }
  }

  const titles = {
    add: 'Add a school',
    edit: 'Edit the school’s record',
    verify: 'Verify this school',
    retire: 'Retire this school?',
    merge: 'Merge into another school',
  };
  const labels = {
    add: ['Add', 'Adding…'],
    edit: ['Save', 'Saving…'],
    verify: ['Verify', 'Verifying…'],
    retire: ['Retire', 'Retiring…'],
    merge: ['Merge', 'Merging…'],
  } as const;

  return (
    <ReactDialog open={dialog !== undefined} onClose={onClose} title={dialog ? titles[dialog.kind] : ''}>
      <form onSubmit={submit} noValidate aria-busy={busy} className="space-y-4">
        {errors.form && (
          <p className="text-sm font-medium text-danger-600" role="alert">
            {errors.form}
          </p>
        )}
        {(dialog?.kind === 'add' || dialog?.kind === 'edit') && (
          <>
            <TextField label="School’s name" name="name" required value={draft.name} onChange={set('name')} error={errors.name} />
            <TextField label="City" name="city" value={draft.city} onChange={set('city')} error={errors.city} />
            <fieldset className="space-y-3">
              <legend className="text-sm font-semibold text-ink">Who parents write to</legend>
              {errors.leaders && <p className="text-sm font-medium text-danger-600">{errors.leaders}</p>}
              {draft.leaders.map((leader, index) => (
                <div key={index} className="grid gap-2 rounded-lg border border-line p-3 sm:grid-cols-3">
                  <TextField label={`Name ${index + 1}`} name={`leader-name-${index}`} value={leader.name} onChange={setLeader(index, 'name')} />
                  <TextField label={`Role ${index + 1}`} name={`leader-role-${index}`} value={leader.role} onChange={setLeader(index, 'role')} />
                  <TextField
                    label={`Email ${index + 1}`}
                    name={`leader-address-${index}`}
                    type="email"
                    required
                    value={leader.address}
                    onChange={setLeader(index, 'address')}
                  />
                  {draft.leaders.length > 1 && (
                    <button
                      type="button"
                      className="justify-self-start text-sm font-semibold text-brand-700 underline"
                      onClick={() => set('leaders')(draft.leaders.filter((_, at) => at !== index))}
                    >
                      Remove {leader.name || `person ${index + 1}`}
                    </button>
                  )}
                </div>
              ))}
              {draft.leaders.length < 10 && (
                <button
                  type="button"
                  className={buttonClass('secondary', 'sm')}
                  onClick={() => set('leaders')([...draft.leaders, { name: '', role: '', address: '' }])}
                >
                  Add a person
                </button>
              )}
            </fieldset>
            <TextField
              label="Time zone"
              name="time-zone"
              required
              value={draft.timeZone}
              onChange={set('timeZone')}
              error={errors.timeZone}
              hint="As America/New_York; letters go in the school’s hours there."
            />
            <fieldset>
              <legend className="text-sm font-semibold text-ink">Open on</legend>
              <div className="mt-2 flex flex-wrap gap-2">
                {dayNames.map((day, index) => (
                  <label key={day} className="flex items-center gap-2 rounded-lg border border-line px-3 py-2 text-sm">
                    <input
                      type="checkbox"
                      checked={draft.days.includes(index)}
                      onChange={(event) => set('days')(event.target.checked ? [...draft.days, index].sort() : draft.days.filter((value) => value !== index))}
                      className="h-4 w-4 accent-brand-600"
                    />
                    {day}
                  </label>
                ))}
              </div>
              {errors.hours && <p className="mt-1 text-sm font-medium text-danger-600">{errors.hours}</p>}
            </fieldset>
            <div className="grid gap-3 sm:grid-cols-2">
              <TextField label="Opens" name="opens" type="time" value={draft.opens} onChange={set('opens')} />
              <TextField label="Closes" name="closes" type="time" value={draft.closes} onChange={set('closes')} />
            </div>
            <TextField
              label="Holidays"
              name="holidays"
              value={draft.holidays}
              onChange={set('holidays')}
              error={errors.holidays}
              hint="Dates as 2026-12-24, separated by spaces."
            />
            <TextField label="Website" name="website" value={draft.website} onChange={set('website')} />
            <TextField
              label="Email domains"
              name="domains"
              value={draft.emailDomains}
              onChange={set('emailDomains')}
              error={errors.emailDomains}
              hint="The school’s own, separated by spaces."
            />
            {dialog.kind === 'add' && (
              <>
                <SelectField
                  label="Verified on (leave empty to add it as a proposal)"
                  name="evidence-kind"
                  value={draft.evidenceKind}
                  onChange={set('evidenceKind')}
                  placeholder="Not verified yet"
                  options={evidenceKinds.map((kind) => ({ value: kind, label: evidenceLabels[kind] }))}
                />
                {draft.evidenceKind && (
                  <TextAreaField
                    label="What you checked"
                    name="evidence-detail"
                    value={draft.evidenceDetail}
                    onChange={set('evidenceDetail')}
                    error={errors.evidence}
                  />
                )}
              </>
            )}
          </>
        )}
        {dialog?.kind === 'verify' && (
          <>
            <p className="text-sm text-ink-soft">
              {dialog.school.name} gets a page, its letters to {dialog.school.leaders.map((leader) => leader.address).join(', ') || 'its addresses'} count, and
              it is offered to parents as they type. Say what you relied on.
            </p>
            <SelectField
              label="Verified on"
              name="evidence-kind"
              required
              value={evidence.kind}
              onChange={(kind) => setEvidence((current) => ({ ...current, kind }))}
              placeholder="Choose"
              options={evidenceKinds.map((kind) => ({ value: kind, label: evidenceLabels[kind] }))}
            />
            <TextAreaField
              label="What you checked"
              name="evidence-detail"
              value={evidence.detail}
              onChange={(detail) => setEvidence((current) => ({ ...current, detail }))}
              error={errors.evidence}
              hint="The page that lists the address, the reply you got, or how you know."
            />
          </>
        )}
        {dialog?.kind === 'retire' && (
          <p className="text-sm text-ink-soft">
            {dialog.school.name}’s page closes and its addresses are no longer offered to parents. Its letters and what they counted stay in the records.
          </p>
        )}
        {dialog?.kind === 'merge' && (
          <>
            <p className="text-sm text-ink-soft">
              {dialog.school.name}’s letters, counts and addresses join the school you choose, each letter counted once, and {dialog.school.name} is retired.
            </p>
            <SelectField
              label="Merge into"
              name="target"
              required
              value={target}
              onChange={setTarget}
              error={errors.target}
              placeholder={candidates.length ? 'Choose a verified school' : 'No other verified school'}
              options={candidates.map((school) => ({ value: school.id, label: `${school.name}${school.city ? `, ${school.city}` : ''}` }))}
            />
          </>
        )}
        {dialog && <DialogActions onCancel={onClose} busy={busy} label={labels[dialog.kind][0]} busyLabel={labels[dialog.kind][1]} />}
      </form>
    </ReactDialog>
  );
}
