/**
 * Mail on this machine: MailDev (SMTP and a web view with its REST API) in this process, and the
 * site's SMTP sender pointed at it, unless another sender is configured (SMTP_URL or SMTP_HOST,
 * MAIL_SENDER=hubspot, or HubSpot's single-send email id without MAIL_SENDER=smtp). Every email the
 * site sends then lands in MailDev, nothing leaves the machine, and nothing is downloaded.
 *
 * Ports: MAILDEV_SMTP_PORT (1025) and MAILDEV_WEB_PORT (1080). A port given and taken is an error
 * that names it; a default port that another checkout holds gives way to a free one.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The From address of local mail when MAIL_FROM_ADDRESS is not set: the organisation's own address
 * (`site.email` in src/config/site.ts, read from its source since that module needs Vite to load).
 * Not hello@localhost: the senders accept only addresses on a domain with a top-level domain.
 */
export const localMailFrom = (() => {
  const address = /\bemail:\s*'([^'\s@]+@[^'\s@]+\.[^'\s@]+)'/.exec(readFileSync(join(root, 'src', 'config', 'site.ts'), 'utf8'))?.[1];
  if (!address) throw new Error('src/config/site.ts names no site email address (site.email) for the local From address.');
  return address;
})();

/**
 * Which sender the environment already configures, or null when the site would send nothing.
 * @param {Record<string, string | undefined>} [env]
 * @returns {string | null}
 */
export function configuredSender(env = process.env) {
  const wanted = (env.MAIL_SENDER || env.SCHOOL_EMAIL_SENDER || 'auto').toLowerCase();
  if (wanted === 'hubspot') return 'HubSpot single-send (MAIL_SENDER=hubspot)';
  if (env.SMTP_URL || env.SMTP_HOST) return `SMTP (${env.SMTP_URL ? 'SMTP_URL' : 'SMTP_HOST'})`;
  if (wanted !== 'smtp' && env.HUBSPOT_TRANSACTIONAL_EMAIL_ID) return 'HubSpot single-send (HUBSPOT_TRANSACTIONAL_EMAIL_ID)';
  return null;
}

/** Whether a port on loopback is free to listen on. */
function portFree(port) {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** The port to use: the one asked for (which must be free), else the default or, when taken, any free one (0). */
async function choosePort(variable, fallback, env) {
  const given = env[variable];
  if (given !== undefined && given !== '') {
    const port = Number(given);
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`${variable} must be a port number, got "${given}".`);
    if (!(await portFree(port))) throw new Error(`${variable}=${port} is taken: MailDev cannot listen there. Stop what holds it or choose another port.`);
    return port;
  }
  return (await portFree(fallback)) ? fallback : 0;
}

/**
 * Starts MailDev unless another sender is configured. Returns the environment the site's functions
 * need (SMTP_URL, MAIL_SENDER, MAIL_FROM_ADDRESS), the web view's URL and `stop`; or, with another
 * sender, only a line saying which.
 * @param {Record<string, string | undefined>} [env]
 * @returns {Promise<{ env: Record<string, string>; sender: string; webUrl: string | undefined; stop: () => Promise<void> }>}
 */
export async function startLocalMail(env = process.env) {
  const other = configuredSender(env);
  if (other) return { env: {}, sender: other, webUrl: undefined, stop: async () => undefined };

  const smtpPort = await choosePort('MAILDEV_SMTP_PORT', 1025, env);
  const webPort = await choosePort('MAILDEV_WEB_PORT', 1080, env);
  // Kept per checkout, so the inbox survives a restart and no other checkout's MailDev shares it
  // (MAILDEV_MAIL_DIRECTORY, MailDev's own variable, puts it elsewhere).
  const mailDirectory = env.MAILDEV_MAIL_DIRECTORY || join(root, '.netlify', 'maildev');
  mkdirSync(mailDirectory, { recursive: true });
  const { MailDev } = await import('maildev');
  const maildev = new MailDev({ smtp: smtpPort, web: webPort, ip: '127.0.0.1', webIp: '127.0.0.1', mailDirectory, maxEmails: 2000, silent: true });
  const servers = await maildev.start();
  const smtp = servers.smtp.getAddress().port;
  const web = servers.api?.getAddress()?.port ?? webPort;
  return {
    env: {
      SMTP_URL: `smtp://127.0.0.1:${smtp}`,
      MAIL_SENDER: 'smtp',
      ...(env.MAIL_FROM_ADDRESS || env.SCHOOL_EMAIL_FROM_ADDRESS ? {} : { MAIL_FROM_ADDRESS: localMailFrom }),
    },
    sender: `MailDev (SMTP on 127.0.0.1:${smtp})`,
    webUrl: `http://localhost:${web}`,
    stop: () => maildev.stop(),
  };
}

/** startLocalMail for a script that has started the local database: on failure, says why, stops it and exits. */
export async function startLocalMailOrExit(database) {
  try {
    return await startLocalMail();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    await database.db.stop().catch(() => undefined);
    process.exit(1);
  }
}
