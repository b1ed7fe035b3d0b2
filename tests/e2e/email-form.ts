/** The site's own email form and the dialog it opens: one filler for every spec (tests/e2e/helpers.ts). */
import type { Page } from '@playwright/test';

export { fillEmailForm, type EmailFormValues } from './helpers';

export const dialog = (page: Page) => page.getByRole('dialog', { name: 'Your Email is Ready' });
