/**
 * What a test of pages and emails sent to a parent needs around it, set up once per file (or per
 * `describe`): a test database, a mail catcher the site sends to by SMTP (emptied before each
 * test), the site's built shell for pages drawn by functions, the admin's settings and SITE_URL.
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { setAdminEnv } from './admin';
import { startTestDatabase, type TestDatabase } from './database';
import { MAIL_FROM, useMail, type MailCatcher } from './mail';
import { useSiteShell } from './site';

export function useMailedSite(): { readonly mail: MailCatcher } {
  let database: TestDatabase;
  let mail: MailCatcher;
  let shell: ReturnType<typeof useSiteShell>;
  beforeAll(async () => {
    database = await startTestDatabase();
    mail = await useMail();
    shell = useSiteShell();
    setAdminEnv();
    process.env.SITE_URL = 'https://site.example';
  });
  afterAll(async () => {
    await database.stop();
    await mail.close();
    shell.remove();
    delete process.env.SITE_URL;
  });
  beforeEach(() => {
    mail.reset();
    process.env.MAIL_SENDER = 'smtp';
    process.env.SMTP_URL = mail.sink.smtpUrl;
    process.env.MAIL_FROM_ADDRESS = MAIL_FROM;
  });
  return {
    get mail() {
      return mail;
    },
  };
}
