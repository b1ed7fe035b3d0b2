/**
 * The `forms` collection's loader: one entry per form of `src/config/forms.ts`, keyed by purpose.
 * With the HubSpot source (see `serverEnv.formsSource`) each definition is read from HubSpot's
 * Marketing Forms v3 API at build, so marketers keep editing forms in HubSpot and the scheduled
 * rebuild picks their changes up; otherwise from `content/forms/*.yaml`. A definition that cannot
 * be read or does not fit the schema stops the build, naming the form.
 */
import type { Client } from '@hubspot/api-client';
import type { Loader, LoaderContext } from 'astro/loaders';
import yaml from 'js-yaml';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { formPurposes, forms, type FormPurpose, type FormRender } from '../config/forms';
import { serverEnv } from '../server/env';
import { hubspotClient, statusOf, withRetry } from '../server/hubspot';
import { unsupportedParts } from '../lib/shared/forms/fields';

export class FormSourceError extends Error {
  override name = 'FormSourceError';
}

/** Where the committed definitions live. */
export const FORMS_DIR = 'content/forms';

function reasonOf(error: unknown): string {
  const status = statusOf(error);
  if (status === 404) return 'HubSpot has no form with this id (HTTP 404)';
  if (status === 401 || status === 403) return `HubSpot refused the access token (HTTP ${status}; the token needs the "forms" scope)`;
  if (status) return `HubSpot answered HTTP ${status}`;
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/Bearer\s+\S+/gi, 'Bearer ***').slice(0, 300);
}

/** The parts of HubSpot's answer the definition schema reads, as plain JSON (no class instances or dates). */
function plain(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value ?? null));
}

export async function fetchDefinition(client: Client, formId: string): Promise<unknown> {
  const form = await withRetry(() => client.marketing.forms.formsApi.getById(formId));
  return plain(form);
}

export async function readLocalDefinition(purpose: FormPurpose, root = process.cwd()): Promise<unknown> {
  const path = join(root, FORMS_DIR, forms[purpose].file);
  const text = await readFile(path, 'utf8');
  return yaml.load(text, { filename: path });
}

export interface FormEntryData {
  purpose: FormPurpose;
  render: FormRender;
  source: 'hubspot' | 'local';
}

/** Loads every configured form into the collection. `root` is the project folder (tests use others). */
export function formsLoader(options: { root?: string } = {}): Loader {
  return {
    name: 'forms',
    load: async (context) => loadForms(context, options.root),
  };
}

export async function loadForms(context: LoaderContext, root?: string): Promise<void> {
  const source = serverEnv.formsSource;
  const client = source === 'hubspot' ? hubspotClient() : undefined;
  const loaded = await Promise.all(
    formPurposes.map(async (purpose) => {
      const { formId, file } = forms[purpose];
      try {
        const raw = client ? await fetchDefinition(client, formId) : await readLocalDefinition(purpose, root);
        return { purpose, raw: { ...(raw as object), id: formId } };
      } catch (error) {
        const where = client ? `from HubSpot (form id ${formId})` : `from ${FORMS_DIR}/${file}`;
        throw new FormSourceError(
          `Could not load the "${purpose}" form ${where}: ${client ? reasonOf(error) : (error as Error).message}. ` +
            (client ? 'Check the form id (PUBLIC_HUBSPOT_FORM_*) and HUBSPOT_ACCESS_TOKEN, or set FORMS_SOURCE=local.' : ''),
        );
      }
    }),
  );

  context.store.clear();
  for (const { purpose, raw } of loaded) {
    const { formId, file } = forms[purpose];
    let render = forms[purpose].render;
    const entry = { ...raw, purpose, source, render };
    let data: Record<string, unknown>;
    try {
      data = await context.parseData({ id: purpose, data: entry, ...(client ? {} : { filePath: join(FORMS_DIR, file) }) });
    } catch (error) {
      throw new FormSourceError(
        `The "${purpose}" form ${client ? `from HubSpot (form id ${formId})` : `in ${FORMS_DIR}/${file}`} does not fit the form schema: ${(error as Error).message}`,
      );
    }
    const unsupported = unsupportedParts(data as never);
    if (render === 'native' && unsupported.length) {
      render = 'embed';
      context.logger.warn(
        `The "${purpose}" form (${formId}) uses ${unsupported.join(', ')}, which the site's own forms do not support: it is shown with HubSpot's embed instead.`,
      );
    }
    context.store.set({ id: purpose, data: { ...data, render }, digest: context.generateDigest({ ...entry, render }) });
  }
  context.logger.info(`Loaded ${loaded.length} form definitions from ${source === 'hubspot' ? 'HubSpot' : FORMS_DIR}.`);
}
