import { useEffect, useState, type SubmitEvent } from 'react';
import { apiRequest, failureMessage } from '../../../lib/browser/admin-api';
import { connectionTestSchema } from '../../../lib/shared/schemas';
import { buttonClass, cardClass } from '../../../lib/shared/ui';
import { showToast } from '../../../lib/browser/frame/toast';
import { ReactDialog } from '../../ui/ReactDialog';
import { TextField, DialogActions, validate } from './fields';

const services = [
  {
    key: 'calendly',
    name: 'Calendly',
    path: '/api/test-calendly-connection',
    text: 'Checks a Calendly personal access token by asking Calendly who it belongs to.',
  },
  {
    key: 'hubspot',
    name: 'HubSpot',
    path: '/api/test-hubspot-connection',
    text: 'Checks a HubSpot private-app token by reading the account details.',
  },
] as const;

type Service = (typeof services)[number];

export function TestConnectionsTab() {
  const [testing, setTesting] = useState<Service | null>(null);
  return (
    <section aria-labelledby="tests-title">
      <h2 id="tests-title" className="text-xl font-bold">
        Test Connections
      </h2>
      <p className="mb-4 text-sm text-muted">Nothing you enter here is stored.</p>
      <div className="grid gap-4 md:grid-cols-2">
        {services.map((service) => (
          <article key={service.key} className={cardClass} aria-labelledby={`test-${service.key}`}>
            <h3 id={`test-${service.key}`} className="text-lg font-bold">
              {service.name} connection
            </h3>
            <p className="mt-1 text-sm text-ink-soft">{service.text}</p>
            <button type="button" className={buttonClass('secondary', 'sm', 'mt-4')} onClick={() => setTesting(service)}>
              Test {service.name} Connection
            </button>
          </article>
        ))}
      </div>
      <TestDialog service={testing} onClose={() => setTesting(null)} />
    </section>
  );
}

function TestDialog({ service, onClose }: { service: Service | null; onClose: () => void }) {
  const [accessToken, setAccessToken] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a token typed for one service is cleared when the service changes
  useEffect(() => {
    setAccessToken('');
    setError(undefined);
  }, [service]);

  async function submit(event: SubmitEvent) {
    event.preventDefault();
    if (!service) return;
    const values = validate(connectionTestSchema, { accessToken }, (errors) => setError(errors.accessToken));
    if (!values) return;
    setBusy(true);
    try {
      await apiRequest('POST', service.path, values);
      showToast({ title: 'Success', description: `${service.name} connection test successful` });
      onClose();
    } catch (failure) {
      showToast({
        title: 'Connection Failed',
        description: failureMessage(failure, `Failed to connect to the ${service.name} API`),
        variant: 'destructive',
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <ReactDialog open={service !== null} onClose={onClose} title={`Test ${service?.name ?? ''} Connection`}>
      <form onSubmit={submit} noValidate className="space-y-4">
        <TextField
          label="Access token"
          name="accessToken"
          type="password"
          required
          value={accessToken}
          onChange={setAccessToken}
          error={error}
          autoComplete="off"
        />
        <DialogActions onCancel={onClose} busy={busy} label="Test Connection" busyLabel="Testing…" />
      </form>
    </ReactDialog>
  );
}
