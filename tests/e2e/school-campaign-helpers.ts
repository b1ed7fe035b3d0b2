/** Two or more parents writing to one school through the site's own endpoints, and what HubSpot got. */
import type { APIRequestContext } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { fakeUrls } from '../../playwright.config';
import { expect as baseExpect } from './fixtures';

const expect = baseExpect.configure({ timeout: 15_000 });

const emailFormId = () => {
  const definitions = JSON.parse(readFileSync('dist/api/form-definitions.json', 'utf8')) as Record<string, { purpose: string }>;
  return Object.entries(definitions).find(([, definition]) => definition.purpose === 'emailGenerator')![0];
};

interface FakeContact {
  id: string;
  properties: Record<string, string>;
}

async function contacts(): Promise<FakeContact[]> {
  const response = await fetch(`${fakeUrls.hubspot}/__fake/contacts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  return ((await response.json()) as { contacts: FakeContact[] }).contacts;
}
export const contactOf = async (email: string) => (await contacts()).find((contact) => contact.properties.email === email);

/** The PATCHes of a contact that carried a school update. */
export async function updatesTo(email: string): Promise<number> {
  const contact = await contactOf(email);
  if (!contact) return 0;
  const response = await fetch(`${fakeUrls.hubspot}/__fake/calls`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  const { calls } = (await response.json()) as { calls: Array<{ method: string; path: string; body: unknown }> };
  return calls.filter((call) => call.method === 'PATCH' && call.path.includes(`/contacts/${contact.id}`) && JSON.stringify(call.body).includes('school_update_text')).length;
}

/** An email the parent sent themselves, through the site's own endpoints; returns its share link. */
export async function sentByParent(request: APIRequestContext, parent: string, school: { name: string; email: string }, ref?: string): Promise<string> {
  const submitted = await request.post(`/api/forms/${emailFormId()}`, {
    data: {
      full_name: 'Ana Lopez',
      email: parent,
      child_full_name: 'Maya Lopez',
      child_grade: '5',
      school_name: school.name,
      school_contact_name: 'Dr. Patel',
      school_contact_email: school.email,
      choose_how_to_send_your_email: 'I will send it myself',
      _page: '/lead-the-change',
      ...(ref ? { _ref: ref } : {}),
    },
  });
  expect(submitted.status()).toBe(201);
  const { draft } = await submitted.json();
  const sent = await request.post('/api/email-sent-myself', { data: { submissionId: draft.id, token: draft.token } });
  expect(sent.status()).toBe(201);
  return ((await sent.json()) as { share?: { url: string } }).share?.url ?? '';
}

/** Runs the hourly follow-up now and returns the token set on the parent's contact. */
export async function followUpToken(request: APIRequestContext, parent: string): Promise<string> {
  let link = '';
  await expect
    .poll(
      async () => {
        await request.post('/.netlify/functions/school-followup');
        link = (await contactOf(parent))?.properties.school_answer_followup_url ?? '';
        return link;
      },
      { intervals: [1000] },
    )
    .toMatch(/\/school-answer\?token=/);
  return new URL(link).searchParams.get('token')!;
}

