import { useState } from 'react';
import type { PublicWebhook as Webhook } from '../../../lib/shared/schemas/admin';
import { apiRequest, failureMessage, formatDate } from '../../../lib/browser/admin-api';
import { webhookConfigSchema, webhookEvents } from '../../../lib/shared/schemas';
import { buttonClass, cardClass } from '../../../lib/shared/ui';
import { showToast } from '../../../lib/browser/frame/toast';
import { ReactDialog } from '../../ui/ReactDialog';
import { replacing, useKeysetList, useRowTask } from './AdminList';
import {
  CheckboxField,
  CheckboxGroup,
  DialogActions,
  EmptyState,
  ErrorNote,
  SectionHeader,
  SelectField,
  StatusBadge,
  TextAreaField,
  TextField,
  useAddForm,
} from './fields';

const PATH = '/api/calendly-webhooks';

export function WebhooksTab() {
  const list = useKeysetList(PATH, async () => ({ rows: (await apiRequest<{ webhooks: Webhook[] }>('GET', PATH)).webhooks }));
  const webhooks = list.rows;
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const { busy: busyId, run } = useRowTask();

  const toggle = (webhook: Webhook) =>
    run(webhook.id, 'Failed to update webhook configuration', async () => {
      const answer = await apiRequest<{ webhook: Webhook }>('PATCH', `${PATH}/${webhook.id}`, { isActive: !webhook.isActive });
      list.update(replacing(answer.webhook));
      showToast({ title: 'Success', description: `Webhook configuration ${webhook.isActive ? 'deactivated' : 'activated'}` });
    });

  const remove = (webhook: Webhook) =>
    run(webhook.id, 'Failed to delete webhook configuration', async () => {
      await apiRequest('DELETE', `${PATH}/${webhook.id}`);
      showToast({ title: 'Success', description: 'Webhook configuration deleted' });
      setDeleting(null);
      list.update((rows) => rows.filter((entry) => entry.id !== webhook.id));
    });

  return (
    <section aria-labelledby="webhooks-title">
      <SectionHeader
        id="webhooks-title"
        title="Calendly Webhooks"
        actions={
          <button type="button" className={buttonClass('primary', 'sm')} onClick={() => setAdding(true)}>
            Add Webhook
          </button>
        }
      >
        Bookings made in Calendly reach this site through these subscriptions.
      </SectionHeader>

      {list.error !== undefined && <ErrorNote>{failureMessage(list.error, 'The webhook configurations could not be loaded.')}</ErrorNote>}
      {!webhooks && list.error === undefined && (
        <p className="text-sm text-muted" role="status">
          Loading webhooks…
        </p>
      )}
      {webhooks?.length === 0 && <EmptyState title="No webhooks configured yet">Add one to send Calendly bookings to HubSpot.</EmptyState>}
      {webhooks && webhooks.length > 0 && (
        <ul className="space-y-4" aria-label="Webhook configurations">
          {webhooks.map((webhook) => (
            <li key={webhook.id} className={cardClass}>
              <div className="flex flex-wrap items-start justify-between gap-3">
                <div className="min-w-0">
                  <h3 className="flex flex-wrap items-center gap-2 text-lg font-bold">
                    <span className="break-words">{webhook.name}</span>
                    <StatusBadge tone={webhook.isActive ? 'success' : 'neutral'}>{webhook.isActive ? 'Active' : 'Inactive'}</StatusBadge>
                    <StatusBadge tone={webhook.registered ? 'brand' : 'pending'}>
                      {webhook.registered ? 'Registered with Calendly' : 'Not registered yet'}
                    </StatusBadge>
                  </h3>
                  {webhook.description && <p className="mt-1 text-sm text-ink-soft">{webhook.description}</p>}
                </div>
                <div className="flex gap-2">
                  <button type="button" className={buttonClass('secondary', 'sm')} disabled={busyId === webhook.id} onClick={() => toggle(webhook)}>
                    {webhook.isActive ? 'Deactivate' : 'Activate'}
                    <span className="sr-only"> {webhook.name}</span>
                  </button>
                  <button
                    type="button"
                    className={buttonClass('ghost', 'sm', 'text-danger-600 hover:bg-danger-50')}
                    disabled={busyId === webhook.id}
                    onClick={() => setDeleting(webhook)}
                  >
                    Delete<span className="sr-only"> {webhook.name}</span>
                  </button>
                </div>
              </div>
              <dl className="mt-4 grid gap-x-6 gap-y-3 text-sm sm:grid-cols-[auto_1fr]">
                <dt className="font-semibold text-muted">URL</dt>
                <dd className="break-all font-mono text-[0.8rem]">{webhook.calendlyWebhookUrl}</dd>
                <dt className="font-semibold text-muted">Events</dt>
                <dd className="flex flex-wrap gap-1.5">
                  {webhook.events.map((event) => (
                    <code key={event} className="rounded bg-canvas px-2 py-0.5 text-[0.8rem]">
                      {event}
                    </code>
                  ))}
                </dd>
                <dt className="font-semibold text-muted">Scope</dt>
                <dd className="capitalize">{webhook.scope}</dd>
                <dt className="font-semibold text-muted">Signing key</dt>
                <dd className="font-mono text-[0.8rem]">{webhook.signingKey}</dd>
                <dt className="font-semibold text-muted">Created</dt>
                <dd>{formatDate(webhook.createdAt)}</dd>
              </dl>
            </li>
          ))}
        </ul>
      )}

      <AddWebhookDialog
        open={adding}
        onClose={() => setAdding(false)}
        onCreated={async () => {
          setAdding(false);
          await list.reload();
        }}
      />
      <ReactDialog open={deleting !== null} onClose={() => setDeleting(null)} title="Delete webhook?">
        <p className="text-sm text-ink-soft">
          <strong className="text-ink">{deleting?.name}</strong> will be removed
          {deleting?.registered ? ', and its Calendly subscription with it' : ''}. Bookings will no longer reach HubSpot through it.
        </p>
        <div className="mt-6 flex justify-end gap-2">
          <button type="button" className={buttonClass('secondary', 'sm')} onClick={() => setDeleting(null)}>
            Cancel
          </button>
          <button
            type="button"
            className={buttonClass('primary', 'sm', 'bg-danger-600 hover:bg-danger-600/90')}
            disabled={!deleting || busyId === deleting.id}
            onClick={() => deleting && remove(deleting)}
          >
            Delete webhook
          </button>
        </div>
      </ReactDialog>
    </section>
  );
}

const emptyForm = {
  name: '',
  description: '',
  calendlyWebhookUrl: '',
  events: [] as string[],
  scope: '',
  organization: '',
  user: '',
  signingKey: '',
  isActive: true,
};

function AddWebhookDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: () => Promise<void> }) {
  const { form, errors, busy, set, submit } = useAddForm({
    open,
    // Where Calendly reaches this site, as the page knows it.
    initial: () => ({ ...emptyForm, calendlyWebhookUrl: `${window.location.origin}/api/calendly/webhook` }),
    schema: webhookConfigSchema,
    path: PATH,
    failure: 'Failed to create webhook configuration',
    done: async (answer: { webhook: Webhook }) => {
      showToast({
        title: 'Success',
        description: answer.webhook.registered
          ? 'Webhook configuration created successfully'
          : 'Webhook configuration created successfully. It is not registered with Calendly yet: no Calendly access token is configured.',
      });
      await onCreated();
    },
  });

  return (
    <ReactDialog open={open} onClose={onClose} title="Add Webhook" size="lg">
      <form onSubmit={submit} noValidate className="space-y-4">
        <TextField label="Name" name="name" required value={form.name} onChange={set('name')} error={errors.name} />
        <TextAreaField label="Description" name="description" value={form.description} onChange={set('description')} error={errors.description} />
        <TextField
          label="Calendly webhook URL"
          name="calendlyWebhookUrl"
          type="url"
          required
          value={form.calendlyWebhookUrl}
          onChange={set('calendlyWebhookUrl')}
          error={errors.calendlyWebhookUrl}
          hint="Where Calendly sends bookings: this site's /api/calendly/webhook."
        />
        <CheckboxGroup legend="Events" name="events" required options={webhookEvents} values={form.events} onChange={set('events')} error={errors.events} />
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            label="Scope"
            name="scope"
            required
            placeholder="Select a scope"
            value={form.scope}
            onChange={set('scope')}
            error={errors.scope}
            options={[
              { value: 'organization', label: 'Organization' },
              { value: 'user', label: 'User' },
            ]}
          />
          <TextField
            label="Organization"
            name="organization"
            required
            value={form.organization}
            onChange={set('organization')}
            error={errors.organization}
            placeholder="https://api.calendly.com/organizations/…"
          />
        </div>
        <TextField
          label="User"
          name="user"
          value={form.user}
          onChange={set('user')}
          error={errors.user}
          placeholder="https://api.calendly.com/users/…"
          hint="Needed for the user scope."
        />
        <TextField
          label="Signing key"
          name="signingKey"
          type="password"
          value={form.signingKey}
          onChange={set('signingKey')}
          error={errors.signingKey}
          autoComplete="new-password"
          hint="Left empty, a random key is generated. It is stored encrypted and shown masked."
        />
        <CheckboxField label="Active" name="isActive" checked={form.isActive} onChange={set('isActive')} hint="Only active webhooks accept deliveries." />
        <DialogActions onCancel={onClose} busy={busy} label="Create Webhook" busyLabel="Creating…" />
      </form>
    </ReactDialog>
  );
}
