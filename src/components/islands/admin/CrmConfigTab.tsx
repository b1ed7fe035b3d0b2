import { useCallback, useEffect, useState } from 'react';
import type { HubSpotConfigAnswer } from '../../../lib/shared/schemas/admin';
import { apiRequest, failureMessage, formatDateTime } from '../../../lib/browser/admin-api';
import { hubspotConfigSchema } from '../../../lib/shared/schemas';
import { buttonClass, cardClass } from '../../../lib/shared/ui';
import { showToast } from '../../../lib/browser/frame/toast';
import { ReactDialog } from '../../ui/ReactDialog';
import { CheckboxField, DialogActions, EmptyState, ErrorNote, SectionHeader, StatusBadge, TextAreaField, TextField, useAddForm } from './fields';

type Answer = HubSpotConfigAnswer;

export function CrmConfigTab() {
  const [data, setData] = useState<Answer | null>(null);
  const [loadError, setLoadError] = useState<string>();
  const [adding, setAdding] = useState(false);

  const load = useCallback(async () => {
    try {
      setData(await apiRequest<Answer>('GET', '/api/hubspot-config'));
      setLoadError(undefined);
    } catch (error) {
      setLoadError(failureMessage(error, 'The HubSpot configuration could not be loaded.'));
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const config = data?.config;
  return (
    <section aria-labelledby="crm-title">
      <SectionHeader
        id="crm-title"
        title="HubSpot Configuration"
        actions={
          <button type="button" className={buttonClass('primary', 'sm')} onClick={() => setAdding(true)}>
            Add Configuration
          </button>
        }
      >
        The private-app token the site uses to write bookings onto contacts.
      </SectionHeader>

      {loadError && <ErrorNote>{loadError}</ErrorNote>}
      {!data && !loadError && (
        <p className="text-sm text-muted" role="status">
          Loading configuration…
        </p>
      )}
      {data && !config && (
        <EmptyState title="No HubSpot configuration found">
          {data.environmentTokenConfigured
            ? 'The site uses the HubSpot token from its environment (HUBSPOT_ACCESS_TOKEN) until you add one.'
            : 'HubSpot is not configured yet: add a configuration with a private-app access token.'}
        </EmptyState>
      )}
      {config && (
        <article className={cardClass} aria-labelledby="crm-config-name">
          <div className="flex flex-wrap items-center gap-2">
            <h3 id="crm-config-name" className="text-lg font-bold">
              {config.name}
            </h3>
            <StatusBadge tone={config.isActive ? 'success' : 'neutral'}>{config.isActive ? 'Active' : 'Inactive'}</StatusBadge>
          </div>
          {config.description && <p className="mt-1 text-sm text-ink-soft">{config.description}</p>}
          <dl className="mt-4 grid gap-x-6 gap-y-3 text-sm sm:grid-cols-[auto_1fr]">
            <dt className="font-semibold text-muted">Access token</dt>
            <dd className="font-mono text-[0.8rem]">{config.accessToken}</dd>
            <dt className="font-semibold text-muted">Created</dt>
            <dd>{formatDateTime(config.createdAt)}</dd>
            <dt className="font-semibold text-muted">Last updated</dt>
            <dd>{formatDateTime(config.updatedAt)}</dd>
          </dl>
          {!config.isActive && (
            <p className="mt-4 text-sm text-muted">
              {data?.environmentTokenConfigured
                ? 'Inactive: the site uses the HubSpot token from its environment.'
                : 'Inactive: HubSpot is not configured until a configuration is active.'}
            </p>
          )}
        </article>
      )}

      <AddConfigDialog
        open={adding}
        onClose={() => setAdding(false)}
        onCreated={async () => {
          setAdding(false);
          await load();
        }}
      />
    </section>
  );
}

const emptyForm = { name: '', description: '', accessToken: '', refreshToken: '', isActive: true };

function AddConfigDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: () => Promise<void> }) {
  const { form, errors, busy, set, submit } = useAddForm({
    open,
    initial: () => emptyForm,
    schema: hubspotConfigSchema,
    path: '/api/hubspot-config',
    failure: 'Failed to create CRM configuration',
    done: async () => {
      showToast({ title: 'Success', description: 'HubSpot configuration created successfully' });
      await onCreated();
    },
  });

  return (
    <ReactDialog open={open} onClose={onClose} title="Add HubSpot Configuration">
      <form onSubmit={submit} noValidate className="space-y-4">
        <TextField label="Name" name="name" required value={form.name} onChange={set('name')} error={errors.name} />
        <TextAreaField label="Description" name="description" value={form.description} onChange={set('description')} error={errors.description} />
        <TextField
          label="Access token"
          name="accessToken"
          type="password"
          required
          value={form.accessToken}
          onChange={set('accessToken')}
          error={errors.accessToken}
          autoComplete="new-password"
          hint="Stored encrypted; afterwards only its last four characters are shown."
        />
        <TextField
          label="Refresh token"
          name="refreshToken"
          type="password"
          value={form.refreshToken}
          onChange={set('refreshToken')}
          error={errors.refreshToken}
          autoComplete="new-password"
        />
        <CheckboxField
          label="Active"
          name="isActive"
          checked={form.isActive}
          onChange={set('isActive')}
          hint="An active configuration replaces the current one."
        />
        <DialogActions onCancel={onClose} busy={busy} label="Save Configuration" busyLabel="Saving…" />
      </form>
    </ReactDialog>
  );
}
