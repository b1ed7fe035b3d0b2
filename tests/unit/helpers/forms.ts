/**
 * The form definitions a build writes (dist/api/form-definitions.json), made here from the
 * committed content/forms/*.yaml, so function tests validate against exactly what the pages show.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import formsFunction from '../../../netlify/functions/forms.mts';
import { formPurposes, forms, type FormPurpose } from '../../../src/config/forms';
import { readLocalDefinition } from '../../../src/content-loaders/forms';
import { storedDefinitionSchema, type StoredDefinition } from '../../../src/server/forms/definitions';
import { startTestDatabase, type TestDatabase } from './database';
import { useSiteShell } from './site';

export async function committedDefinitions(): Promise<Record<FormPurpose, StoredDefinition>> {
  const entries = await Promise.all(
    formPurposes.map(async (purpose) => {
      const raw = (await readLocalDefinition(purpose)) as object;
      return [purpose, storedDefinitionSchema.parse({ ...raw, id: forms[purpose].formId, purpose, source: 'local', render: 'native' })] as const;
    }),
  );
  return Object.fromEntries(entries) as Record<FormPurpose, StoredDefinition>;
}

/** Writes the definitions (changed by `change`) to a scratch file and points the functions at it. */
export async function useFormDefinitions(change: (definitions: Record<FormPurpose, StoredDefinition>) => void = () => {}) {
  const dir = mkdtempSync(join(tmpdir(), 'forms-'));
  const file = join(dir, 'form-definitions.json');
  const definitions = await committedDefinitions();
  change(definitions);
  writeFileSync(file, JSON.stringify(Object.fromEntries(Object.values(definitions).map((definition) => [definition.id, definition]))));
  process.env.FORM_DEFINITIONS_FILE = file;
  return {
    file,
    definitions,
    remove() {
      rmSync(dir, { recursive: true, force: true });
      delete process.env.FORM_DEFINITIONS_FILE;
    },
  };
}

let parents = 0;

/** An acceptable email-generator submission (HubSpot field names), a new parent address each time. */
export function emailFormValues<T extends Record<string, unknown>>(overrides: T = {} as T) {
  return {
    full_name: 'Ana Lopez',
    email: `ana${++parents}@example.org`,
    child_full_name: 'Leo Lopez',
    child_grade: '5th grade',
    school_name: 'Oakwood Academy',
    school_contact_name: 'Dr. Patel',
    school_contact_email: 'head@oakwood.edu',
    choose_how_to_send_your_email: 'I will send it myself',
    ...overrides,
  };
}

/**
 * What a test of the forms function needs around it, set up once per file or `describe`: the
 * site's built shell (for the pages it answers without JavaScript), a test database and the
 * committed form definitions.
 */
export function useFormsFunctionSite(): void {
  let database: TestDatabase;
  let shell: ReturnType<typeof useSiteShell>;
  let definitions: Awaited<ReturnType<typeof useFormDefinitions>>;
  beforeAll(async () => {
    shell = useSiteShell();
    database = await startTestDatabase();
    definitions = await useFormDefinitions();
  });
  afterAll(async () => {
    definitions.remove();
    shell.remove();
    await database.stop();
  });
}

/**
 * Posts `values` to the forms function as a page's form does, after the half-minute a person
 * takes: as JSON, as the page's script sends it, or with `browser` as the form posts without
 * JavaScript (urlencoded, a field of several values as repeated names, asking for a page), from
 * the network `ip`.
 */
export function postForm(
  purpose: FormPurpose,
  values: Record<string, string | string[]>,
  { ip, browser = false }: { ip: string; browser?: boolean },
): Promise<Response> {
  const filled = { _elapsed: '30000', ...values };
  return formsFunction(
    new Request(`http://localhost/api/forms/${forms[purpose].formId}`, {
      method: 'POST',
      headers: browser
        ? { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' }
        : { 'content-type': 'application/json', accept: 'application/json' },
      body: browser
        ? new URLSearchParams(
            Object.entries(filled).flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((each) => [name, each])),
          ).toString()
        : JSON.stringify(filled),
    }),
    { ip } as never,
  );
}
