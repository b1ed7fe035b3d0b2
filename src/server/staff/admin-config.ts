/**
 * The admin page's configuration records in the database (tables `webhook_configs`, `hubspot_configs`):
 * Calendly webhook configurations and HubSpot configurations. Secrets are sealed at rest and
 * only their masked form ever leaves this module through the `public*` views.
 */
import { randomBytes } from 'node:crypto';
import type { HubSpotConfigInput, WebhookConfigInput } from '../../lib/shared/schemas';
import { decryptSecret, encryptSecret, maskSecret } from '../crypto';
import { serverEnv } from '../env';
import { query, queryOne, sql } from '../db';
import { recordKey } from '../ids';
import type { PublicHubSpotConfig, PublicWebhook } from '../../lib/shared/schemas/admin';

/** Record ids sort newest first. */
export const recordIdPattern = /^\d{13}-[0-9a-f-]{36}$/;

export interface StoredWebhookConfig {
  id: string;
  name: string;
  description: string;
  calendlyWebhookUrl: string;
  events: string[];
  scope: 'organization' | 'user';
  organization: string;
  user: string;
  signingKeySealed: string;
  signingKeyHint: string;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
  /** The Calendly subscription created for it, or null while it is not registered. */
  calendlySubscriptionUri: string | null;
}

export function publicWebhookConfig(config: StoredWebhookConfig): PublicWebhook {
  const { signingKeySealed: _sealed, signingKeyHint, ...rest } = config;
  return { ...rest, signingKey: signingKeyHint, registered: Boolean(config.calendlySubscriptionUri) };
}

export async function listWebhookConfigs(): Promise<StoredWebhookConfig[]> {
  return (await query<{ record: StoredWebhookConfig }>(sql`SELECT record FROM webhook_configs ORDER BY id`)).map((row) => row.record);
}

export async function getWebhookConfig(id: string): Promise<StoredWebhookConfig | null> {
  if (!recordIdPattern.test(id)) return null;
  return (await queryOne<{ record: StoredWebhookConfig }>(sql`SELECT record FROM webhook_configs WHERE id = ${id}`))?.record ?? null;
}

/** Builds the record; a missing signing key is generated, since every delivery must be signed. */
export function newWebhookConfig(input: WebhookConfigInput): { record: StoredWebhookConfig; signingKey: string } {
  const signingKey = input.signingKey || randomBytes(32).toString('base64url');
  const now = new Date();
  return {
    signingKey,
    record: {
      id: recordKey(now),
      name: input.name,
      description: input.description,
      calendlyWebhookUrl: input.calendlyWebhookUrl,
      events: [...input.events],
      scope: input.scope,
      organization: input.organization,
      user: input.user,
      signingKeySealed: encryptSecret(signingKey),
      signingKeyHint: maskSecret(signingKey),
      isActive: input.isActive,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
      calendlySubscriptionUri: null,
    },
  };
}

export async function saveWebhookConfig(record: StoredWebhookConfig): Promise<void> {
  await query(sql`
    INSERT INTO webhook_configs (id, is_active, created_at, record) VALUES (${record.id}, ${record.isActive}, ${record.createdAt}, ${record})
    ON CONFLICT (id) DO UPDATE SET is_active = EXCLUDED.is_active, record = EXCLUDED.record`);
}

export async function deleteWebhookConfig(id: string): Promise<void> {
  await query(sql`DELETE FROM webhook_configs WHERE id = ${id}`);
}

/** The signing keys of the active configurations, for the receiver. */
export async function activeSigningKeys(): Promise<Array<{ webhookId: string; key: string }>> {
  const configs = await listWebhookConfigs();
  return configs
    .filter((config) => config.isActive)
    .flatMap((config) => {
      try {
        return [{ webhookId: config.id, key: decryptSecret(config.signingKeySealed) }];
      } catch {
        console.error(`[webhook-configs] the signing key of ${config.id} cannot be decrypted (was CONFIG_ENCRYPTION_KEY changed?)`);
        return [];
      }
    });
}

export interface StoredHubSpotConfig {
  id: string;
  name: string;
  description: string;
  accessTokenSealed: string;
  accessTokenHint: string;
  refreshTokenSealed: string;
  refreshTokenHint: string;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
}

export function publicHubSpotConfig(config: StoredHubSpotConfig): PublicHubSpotConfig {
  return {
    id: config.id,
    name: config.name,
    description: config.description,
    accessToken: config.accessTokenHint,
    refreshToken: config.refreshTokenHint,
    isActive: config.isActive,
    createdAt: config.createdAt,
    updatedAt: config.updatedAt,
  };
}

export async function listHubSpotConfigs(): Promise<StoredHubSpotConfig[]> {
  return (await query<{ record: StoredHubSpotConfig }>(sql`SELECT record FROM hubspot_configs ORDER BY id`)).map((row) => row.record);
}

/** Stores a configuration; an active one replaces the previously active one. */
export async function createHubSpotConfig(input: HubSpotConfigInput): Promise<StoredHubSpotConfig> {
  const now = new Date();
  const record: StoredHubSpotConfig = {
    id: recordKey(now),
    name: input.name,
    description: input.description,
    accessTokenSealed: encryptSecret(input.accessToken),
    accessTokenHint: maskSecret(input.accessToken),
    refreshTokenSealed: input.refreshToken ? encryptSecret(input.refreshToken) : '',
    refreshTokenHint: maskSecret(input.refreshToken),
    isActive: input.isActive,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  // An active one replaces the active one in the same statement (at most one is active: a unique index).
  await query(sql`
    WITH replaced AS (
      UPDATE hubspot_configs SET is_active = false,
        record = record || jsonb_build_object('isActive', false, 'updatedAt', ${record.updatedAt}::text)
      WHERE is_active AND ${record.isActive}::boolean
      RETURNING id
    )
    INSERT INTO hubspot_configs (id, is_active, created_at, record)
    SELECT ${record.id}, ${record.isActive}, ${record.createdAt}, ${record}
    FROM (SELECT count(*) FROM replaced) AS done`);
  return record;
}

/** The configuration the page shows: the active one, else the newest. */
export async function currentHubSpotConfig(): Promise<StoredHubSpotConfig | null> {
  const configs = await listHubSpotConfigs();
  return configs.find((config) => config.isActive) ?? configs[0] ?? null;
}

/** The HubSpot token functions use: the active stored configuration's, else HUBSPOT_ACCESS_TOKEN. */
export async function activeHubSpotToken(): Promise<string | undefined> {
  const active = (await listHubSpotConfigs()).find((config) => config.isActive);
  if (active) {
    try {
      return decryptSecret(active.accessTokenSealed);
    } catch {
      console.error(`[hubspot-configs] the token of ${active.id} cannot be decrypted (was CONFIG_ENCRYPTION_KEY changed?)`);
    }
  }
  return serverEnv.hubspotAccessToken;
}
