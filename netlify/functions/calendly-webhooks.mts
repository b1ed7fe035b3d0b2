import type { Config } from '@netlify/functions';
import { z } from 'zod';
import { webhookConfigSchema } from '../../src/lib/shared/schemas';
import {
  deleteWebhookConfig,
  getWebhookConfig,
  listWebhookConfigs,
  newWebhookConfig,
  publicWebhookConfig,
  saveWebhookConfig,
} from '../../src/server/staff/admin-config';
import { auditRequest } from '../../src/server/staff/audit';
import { requireOwner } from '../../src/server/staff/auth';
import { CalendlyError, createSubscription, deleteSubscription } from '../../src/server/calendly';
import { serverEnv } from '../../src/server/env';
import { allowMethods, handle, HttpError, json, readJson } from '../../src/server/http';

const toggleSchema = z.object({ isActive: z.boolean() }).strict();

function calendlyFailure(error: unknown, action: string): HttpError {
  if (error instanceof CalendlyError) {
    const status = error.status === 401 || error.status === 403 ? 'refused the Calendly access token' : 'answered';
    return new HttpError(502, 'calendly_error', `Calendly ${status} while ${action}: ${error.message}`);
  }
  throw error;
}

/**
 * Calendly webhook configurations. GET lists them; POST validates, registers the subscription
 * with Calendly when a token is configured, and stores it; PATCH /{id} activates or deactivates;
 * DELETE /{id} removes it (and its Calendly subscription).
 */
export default handle(async (req, context) => {
  const refused = allowMethods(req, ['GET', 'POST', 'PATCH', 'DELETE']);
  if (refused) return refused;
  const session = await requireOwner(req, context);
  const id = new URL(req.url).pathname.match(/^\/api\/calendly-webhooks\/([^/]+)$/)?.[1];

  if (!id) {
    if (req.method === 'GET') {
      const configs = await listWebhookConfigs();
      return json({ webhooks: configs.map(publicWebhookConfig), calendlyConfigured: Boolean(serverEnv.calendlyAccessToken) });
    }
    if (req.method !== 'POST') throw new HttpError(405, 'method_not_allowed', 'Use GET or POST on the list, PATCH or DELETE on one webhook.');
    const input = await readJson(req, webhookConfigSchema);
    const { record, signingKey } = newWebhookConfig(input);
    const token = serverEnv.calendlyAccessToken;
    if (token) {
      try {
        const subscription = await createSubscription(token, {
          url: input.calendlyWebhookUrl,
          events: input.events,
          organization: input.organization,
          ...(input.scope === 'user' && input.user ? { user: input.user } : {}),
          scope: input.scope,
          signing_key: signingKey,
        });
        record.calendlySubscriptionUri = subscription.uri;
      } catch (error) {
        throw calendlyFailure(error, 'creating the subscription');
      }
    }
    try {
      await saveWebhookConfig(record);
    } catch (error) {
      // Not saved: remove the subscription again, or sending this form again would be refused
      // by Calendly as a duplicate and deliveries would come signed with a key nobody has.
      if (token && record.calendlySubscriptionUri) {
        await deleteSubscription(token, record.calendlySubscriptionUri).catch(() => {
          console.error('[calendly-webhooks] a subscription was left at Calendly after the save failed:', record.calendlySubscriptionUri);
        });
      }
      // The save may have run with only its answer lost: a record left would claim a subscription
      // that no longer exists (and be listed twice once the form is sent again).
      await deleteWebhookConfig(record.id).catch(() => undefined);
      throw error;
    }
    await auditRequest(req, context, session, 'webhook.created', record.id);
    return json(
      {
        webhook: publicWebhookConfig(record),
        message: token ? 'Registered with Calendly.' : 'Not registered with Calendly yet: no Calendly access token is configured on this site.',
      },
      201,
    );
  }

  if (req.method !== 'PATCH' && req.method !== 'DELETE') {
    throw new HttpError(405, 'method_not_allowed', 'Use PATCH or DELETE on one webhook.');
  }
  const existing = await getWebhookConfig(decodeURIComponent(id));
  if (!existing) throw new HttpError(404, 'not_found', 'No webhook configuration with this id.');

  if (req.method === 'PATCH') {
    const { isActive } = await readJson(req, toggleSchema);
    const updated = { ...existing, isActive, updatedAt: new Date().toISOString() };
    await saveWebhookConfig(updated);
    await auditRequest(req, context, session, 'webhook.updated', `${existing.id} ${isActive ? 'on' : 'off'}`);
    return json({ webhook: publicWebhookConfig(updated) });
  }

  const token = serverEnv.calendlyAccessToken;
  if (existing.calendlySubscriptionUri && token) {
    try {
      await deleteSubscription(token, existing.calendlySubscriptionUri);
    } catch (error) {
      throw calendlyFailure(error, 'removing the subscription');
    }
  }
  await deleteWebhookConfig(existing.id);
  await auditRequest(req, context, session, 'webhook.deleted', existing.id);
  return json({ ok: true });
});

export const config: Config = { path: ['/api/calendly-webhooks', '/api/calendly-webhooks/:id'], method: ['GET', 'POST', 'PATCH', 'DELETE'] };
