import type { LoaderContext } from 'astro/loaders';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { emailFormFields, formPurposes, forms, sendChoiceField } from '../../src/config/forms';
import { formDefinitionSchema } from '../../src/lib/shared/forms/definition';
import { allFields } from '../../src/lib/shared/forms/fields';
import { FormSourceError, loadForms, readLocalDefinition } from '../../src/content-loaders/forms';
import { startHubSpotFake, type HubSpotFake } from '../fakes/hubspot';
import { z } from 'zod';

let fake: HubSpotFake;

beforeAll(async () => {
  fake = await startHubSpotFake();
  process.env.HUBSPOT_BASE_PATH = fake.url;
  process.env.HUBSPOT_RETRY_BASE_MS = '5';
});
afterAll(async () => {
  await fake.close();
  for (const name of ['HUBSPOT_BASE_PATH', 'HUBSPOT_RETRY_BASE_MS', 'HUBSPOT_ACCESS_TOKEN', 'FORMS_SOURCE']) delete process.env[name];
});
beforeEach(() => {
  fake.reset();
  delete process.env.HUBSPOT_ACCESS_TOKEN;
  delete process.env.FORMS_SOURCE;
});

const entrySchema = formDefinitionSchema.extend({ purpose: z.string(), source: z.string(), render: z.string() });

/** A LoaderContext with a real in-memory store and the collection's schema, as Astro gives it. */
function context() {
  const entries = new Map<string, { id: string; data: Record<string, unknown> }>();
  const warnings: string[] = [];
  const ctx = {
    collection: 'forms',
    store: {
      set: (entry: { id: string; data: Record<string, unknown> }) => (entries.set(entry.id, entry), true),
      clear: () => entries.clear(),
    },
    logger: { info: () => {}, warn: (message: string) => warnings.push(message), error: () => {}, debug: () => {} },
    parseData: async ({ data }: { data: Record<string, unknown> }) => entrySchema.parseAsync(data),
    generateDigest: (data: unknown) => JSON.stringify(data).length.toString(36),
  } as unknown as LoaderContext;
  return { ctx, entries, warnings };
}

async function addCommittedForms(): Promise<void> {
  for (const purpose of formPurposes) {
    fake.addForm({ ...((await readLocalDefinition(purpose)) as object), id: forms[purpose].formId });
  }
}

describe('the committed definitions (content/forms)', () => {
  test.each(formPurposes)('%s parses and has what its page needs', async (purpose) => {
    const definition = formDefinitionSchema.parse({ ...((await readLocalDefinition(purpose)) as object), id: forms[purpose].formId });
    const names = allFields(definition).map((field) => field.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain('email');
    if (purpose === 'emailGenerator' || purpose === 'referSchool') {
      const needed =
        purpose === 'referSchool'
          ? Object.values(emailFormFields)
          : Object.values(emailFormFields).filter((n) => !['role_to_student', 'state', 'city'].includes(n));
      expect(names).toEqual(expect.arrayContaining([...needed, sendChoiceField.name, 'referral_source']));
      const choice = allFields(definition).find((field) => field.name === sendChoiceField.name);
      expect(choice?.options?.map((option) => option.value)).toContain(sendChoiceField.platformValue);
    }
  });
});

describe('loading the forms collection', () => {
  test('without a token, every configured form comes from content/forms', async () => {
    const { ctx, entries } = context();
    await loadForms(ctx);
    expect([...entries.keys()].sort()).toEqual([...formPurposes].sort());
    const newsletter = entries.get('newsletter')!.data;
    expect(newsletter).toMatchObject({ id: forms.newsletter.formId, purpose: 'newsletter', source: 'local', render: 'native' });
    expect(fake.calls).toEqual([]);
  });

  test('with a token, every definition is read from the Marketing Forms v3 API', async () => {
    process.env.HUBSPOT_ACCESS_TOKEN = fake.token;
    await addCommittedForms();
    const edited = fake.forms.get(forms.contact.formId)!;
    (edited.displayOptions as Record<string, unknown>).submitButtonText = 'Ask us';
    const { ctx, entries } = context();
    await loadForms(ctx);
    expect(entries.size).toBe(formPurposes.length);
    expect(entries.get('contact')!.data).toMatchObject({ source: 'hubspot', displayOptions: { submitButtonText: 'Ask us' } });
    const paths = fake.calls.map((call) => `${call.method} ${call.path}`);
    expect(paths).toContain(`GET /marketing/v3/forms/${forms.contact.formId}`);
    expect(fake.calls.every((call) => call.authorization === `Bearer ${fake.token}`)).toBe(true);
  });

  test('HubSpot field types, options and dependent fields survive the client', async () => {
    process.env.HUBSPOT_ACCESS_TOKEN = fake.token;
    await addCommittedForms();
    const { ctx, entries } = context();
    await loadForms(ctx);
    const partnership = formDefinitionSchema.parse(entries.get('partnership')!.data);
    const relationship = allFields(partnership).find((field) => field.name === 'relationship_to_school')!;
    expect(relationship.options?.map((option) => option.value)).toContain('Parent');
    expect(relationship.dependentFields[0]).toMatchObject({
      dependentCondition: { operator: 'eq', value: 'Parent' },
      dependentField: { name: 'child_grade', required: true },
    });
    const newsletter = formDefinitionSchema.parse(entries.get('newsletter')!.data);
    expect(newsletter.legalConsentOptions).toMatchObject({ type: 'implicit_consent_to_process', communicationsCheckboxes: [{ subscriptionTypeId: 1001 }] });
  });

  test('a form HubSpot does not have fails the build, naming the form and its id', async () => {
    process.env.HUBSPOT_ACCESS_TOKEN = fake.token;
    await addCommittedForms();
    fake.forms.delete(forms.toolkit.formId);
    const { ctx } = context();
    const error = await loadForms(ctx).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FormSourceError);
    expect((error as Error).message).toContain('"toolkit" form from HubSpot');
    expect((error as Error).message).toContain(forms.toolkit.formId);
    expect((error as Error).message).toContain('404');
  });

  test('a refused token fails the build without echoing it', async () => {
    process.env.HUBSPOT_ACCESS_TOKEN = 'pat-na1-wrong-token';
    await addCommittedForms();
    const error = (await loadForms(context().ctx).catch((e: unknown) => e)) as Error;
    expect(error.message).toContain('refused the access token (HTTP 401');
    expect(error.message).not.toContain('pat-na1-wrong-token');
  });

  test('429 and 5xx answers are retried', async () => {
    process.env.HUBSPOT_ACCESS_TOKEN = fake.token;
    await addCommittedForms();
    fake.failNext(429, 500);
    const { ctx, entries } = context();
    await loadForms(ctx);
    expect(entries.size).toBe(formPurposes.length);
  });

  test('a definition that does not fit the schema fails the build naming the form', async () => {
    process.env.HUBSPOT_ACCESS_TOKEN = fake.token;
    await addCommittedForms();
    fake.forms.get(forms.resources.formId)!.fieldGroups = [];
    const error = (await loadForms(context().ctx).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(FormSourceError);
    expect(error.message).toContain('"resources" form from HubSpot');
  });

  test('a form with a file upload falls back to the embed with a warning naming form and field', async () => {
    process.env.HUBSPOT_ACCESS_TOKEN = fake.token;
    await addCommittedForms();
    const partnership = fake.forms.get(forms.partnership.formId)!;
    (partnership.fieldGroups as Array<{ fields: unknown[] }>)[0]!.fields.push({
      name: 'school_brochure',
      label: 'Brochure',
      fieldType: 'file',
      objectTypeId: '0-1',
      required: false,
      hidden: false,
      dependentFields: [],
      allowMultipleFiles: false,
    });
    const { ctx, entries, warnings } = context();
    await loadForms(ctx);
    expect(entries.get('partnership')!.data.render).toBe('embed');
    expect(entries.get('contact')!.data.render).toBe('native');
    expect(warnings).toEqual([expect.stringContaining('"partnership" form')]);
    expect(warnings[0]).toContain('school_brochure (file)');
  });

  test('FORMS_SOURCE=local ignores the token; a wrong value is refused', async () => {
    process.env.HUBSPOT_ACCESS_TOKEN = fake.token;
    process.env.FORMS_SOURCE = 'local';
    const { ctx, entries } = context();
    await loadForms(ctx);
    expect(entries.get('newsletter')!.data.source).toBe('local');
    process.env.FORMS_SOURCE = 'hubspt';
    await expect(loadForms(context().ctx)).rejects.toThrow('FORMS_SOURCE must be');
  });
});
