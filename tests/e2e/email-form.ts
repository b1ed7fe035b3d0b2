/** The site's own email form (the generator on /lead-the-change, the referral on /form), filled as a parent does. */
import type { Page } from '@playwright/test';

export interface EmailFormValues {
  email: string;
  choice: "I'll send it myself" | 'Send via our platform';
  school?: string;
  schoolEmail?: string;
  note?: string;
}

/** Fills the native email form (the generator on /lead-the-change, the referral on /form) and sends it. */
export async function fillEmailForm(page: Page, scope: string, values: EmailFormValues) {
  const form = page.locator(`${scope} form[data-native-form]`);
  await form.scrollIntoViewIfNeeded();
  await form.getByLabel(/Your full name/).fill('Ana Lopez');
  await form.getByLabel(/^Your email/).fill(values.email);
  await form.getByLabel(/Child's full name/).fill('Maya Lopez');
  await form.getByLabel(/Child's grade/).fill('5th grade');
  await form.getByLabel(/^School name/).fill(values.school ?? 'Oakwood Academy');
  await form.getByLabel(/School contact name/).fill('Dr. Patel');
  await form.getByLabel(/School contact email/).fill(values.schoolEmail ?? 'head@oakwood.edu');
  for (const [label, value] of [[/Your role to the student/, 'Parent']] as const) {
    if (await form.getByLabel(label).count()) await form.getByLabel(label).selectOption(value);
  }
  for (const label of [/^City/, /^State/]) if (await form.getByLabel(label).count()) await form.getByLabel(label).fill('Austin');
  if (values.note) await form.getByLabel(/Add a personal note/).fill(values.note);
  await form.getByLabel(values.choice).check();
  await form.locator('[data-submit]').click();
}

export const dialog = (page: Page) => page.getByRole('dialog', { name: 'Your Email is Ready' });
