/**
 * The only way the functions (and the blog loader) talk to HubSpot: the official client, pointed
 * at `HUBSPOT_BASE_PATH` (a local fake in tests), with our own bounded retry on 429 and 5xx.
 */
import { createRequire } from 'node:module';
import type { Client } from '@hubspot/api-client';
import { serverEnv } from './env';
import { HttpError } from './http';

export interface ContactResult {
  id: string;
  properties: Record<string, string | null>;
}

/**
 * The client's class, loaded at its first use, under a name the functions' packager (nft) does not
 * follow: tracing the package walks every API its Client can load on demand (2,600 files, about
 * 15 s of packaging for each function, most of `netlify serve`'s start). netlify.toml's
 * included_files ship the package with the APIs the functions call and its dependencies;
 * tests/unit/function-bundle.test.ts traces it and fails when that list misses a file.
 */
let clientClass: typeof Client | undefined;
function hubspotClientClass(): typeof Client {
  clientClass ??= (createRequire(import.meta.url)(['@hubspot', 'api-client'].join('/')) as typeof import('@hubspot/api-client')).Client;
  return clientClass;
}

/** A HubSpot token: the active admin configuration's if the caller has one, else the environment's. */
export function hubspotClient(accessToken = serverEnv.hubspotAccessToken): Client {
  if (!accessToken) {
    throw new HttpError(503, 'hubspot_not_configured', 'HubSpot is not configured on this site yet (no access token).');
  }
  const HubSpotClient = hubspotClientClass();
  return new HubSpotClient({ accessToken, basePath: serverEnv.hubspotBasePath, numberOfApiCallRetries: 0 });
}

/** The HTTP status of a failed HubSpot call, or undefined for a network failure. */
export function statusOf(error: unknown): number | undefined {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'number' ? code : undefined;
}

export function isRetryable(error: unknown): boolean {
  const status = statusOf(error);
  return status === undefined || status === 429 || status >= 500;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Retries `operation` on 429, 5xx and network errors with exponential backoff and jitter. */
export async function withRetry<T>(operation: () => Promise<T>, options: { attempts?: number; baseMs?: number } = {}): Promise<T> {
  const attempts = options.attempts ?? 4;
  const baseMs = options.baseMs ?? serverEnv.hubspotRetryBaseMs;
  let lastError: unknown;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      return await operation();
    } catch (error) {
      lastError = error;
      if (!isRetryable(error) || attempt === attempts) break;
      await sleep(baseMs * 2 ** (attempt - 1) * (0.75 + Math.random() * 0.5));
    }
  }
  throw lastError;
}

/** Finds contacts by exact email; `properties` are the ones to read back. */
export async function searchContactsByEmail(client: Client, email: string, properties: string[]): Promise<{ total: number; results: ContactResult[] }> {
  const answer = await withRetry(() =>
    client.crm.contacts.searchApi.doSearch({
      filterGroups: [{ filters: [{ propertyName: 'email', operator: 'EQ' as never, value: email }] }],
      properties,
      limit: 10,
      after: '0',
      sorts: [],
    }),
  );
  return {
    total: answer.total,
    results: answer.results.map((result) => ({ id: result.id, properties: { ...result.properties } })),
  };
}

/** One contact by id, with `properties` read back. */
export async function getContact(client: Client, contactId: string, properties: string[]): Promise<ContactResult> {
  const contact = await withRetry(() => client.crm.contacts.basicApi.getById(contactId, properties));
  return { id: contact.id, properties: { ...contact.properties } };
}

export async function updateContact(client: Client, contactId: string, properties: Record<string, string>): Promise<void> {
  await withRetry(() => client.crm.contacts.basicApi.update(contactId, { properties }));
}

/**
 * For an email nobody verified (a nomination, a Calendly booking): creates the contact with
 * `fill` and `always`, or on an existing contact writes `always` and only those properties of
 * `fill` that are empty there, so that naming someone else's address never rewrites their name,
 * city or school. Returns the contact's id.
 *
 * HubSpot's search is eventually consistent, so a contact made moments ago may not be found; its
 * create then answers 409 "Contact already exists. Existing ID: {id}", and that contact is read
 * by id and filled the same way.
 */
export async function createOrFillContactByEmail(
  client: Client,
  email: string,
  properties: { fill: Record<string, string>; always?: Record<string, string> },
): Promise<string> {
  const always = properties.always ?? {};
  const names = Object.keys(properties.fill);
  const fillExisting = async (contact: ContactResult) => {
    const empty = Object.fromEntries(Object.entries(properties.fill).filter(([name]) => (contact.properties[name] ?? '').trim() === ''));
    const changes = { ...empty, ...always };
    if (Object.keys(changes).length) await updateContact(client, contact.id, changes);
    return contact.id;
  };
  const existing = (await searchContactsByEmail(client, email, names)).results[0];
  if (existing) return fillExisting(existing);
  try {
    const created = await withRetry(() => client.crm.contacts.basicApi.create({ properties: { email, ...properties.fill, ...always }, associations: [] }));
    return created.id;
  } catch (error) {
    const said = `${JSON.stringify((error as { body?: unknown })?.body ?? '')} ${(error as Error)?.message ?? ''}`;
    const id = statusOf(error) === 409 ? /Existing ID: (\d+)/.exec(said)?.[1] : undefined;
    if (!id) throw error;
    return fillExisting(await getContact(client, id, names));
  }
}
