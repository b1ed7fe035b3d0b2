/**
 * The form definitions the build used (written to dist/api/form-definitions.json from the `forms`
 * collection), so that the endpoint validates a submission against exactly the form the visitor saw.
 * Read once per function instance.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { formPurposes, type FormPurpose } from '../../config/forms';
import { formDefinitionSchema } from '../../lib/shared/forms/definition';
import { serverEnv } from '../env';

export const storedDefinitionSchema = formDefinitionSchema.extend({
  purpose: z.enum(formPurposes as [FormPurpose, ...FormPurpose[]]),
  source: z.enum(['hubspot', 'local']),
  render: z.enum(['native', 'embed']),
});
export type StoredDefinition = z.infer<typeof storedDefinitionSchema>;

let cache: { file: string; definitions: Promise<Map<string, StoredDefinition>> } | undefined;

export function definitionsFile(): string {
  return serverEnv.formDefinitionsFile ?? join(process.cwd(), 'dist', 'api', 'form-definitions.json');
}

async function read(file: string): Promise<Map<string, StoredDefinition>> {
  const parsed = z.record(z.string(), storedDefinitionSchema).parse(JSON.parse(await readFile(file, 'utf8')));
  return new Map(Object.entries(parsed));
}

/** Every definition by HubSpot form id. Throws when the build's file is missing or damaged. */
export function formDefinitions(): Promise<Map<string, StoredDefinition>> {
  const file = definitionsFile();
  if (cache?.file !== file) {
    const definitions = read(file);
    cache = { file, definitions };
    // A failed read is not cached: the next call tries again.
    definitions.catch(() => {
      if (cache?.definitions === definitions) cache = undefined;
    });
  }
  return cache.definitions;
}

/** The definition of one form, or undefined for an id the site does not have. */
export async function formDefinition(formId: string): Promise<StoredDefinition | undefined> {
  return (await formDefinitions()).get(formId);
}
