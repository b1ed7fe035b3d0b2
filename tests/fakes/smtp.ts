/**
 * A real SMTP server on loopback (smtp-server) that keeps every message it receives, parsed from
 * the wire with mailparser, so tests read the To, Reply-To, From, Subject and body a school would
 * get. Like a mail provider it can require credentials, refuse a recipient (550) or defer it (451),
 * and answer slowly.
 *
 * In-process: `const sink = await startSmtpFake()`. As a process (for `npm start` in e2e):
 * `node tests/fakes/smtp.ts --port 8914 --http-port 8915`; `GET /__fake/messages` lists what
 * arrived, `POST /__fake/reset`, `/__fake/fail` (`{ codes: [550] }`) and `/__fake/config`
 * (`{ delayMs }`) steer it.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { simpleParser, type AddressObject } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { listen, readBody } from './_http.ts';

export interface ReceivedAddress {
  name: string;
  address: string;
}

export interface ReceivedMessage {
  /** The SMTP envelope: who the server was told the message is from and for. */
  envelope: { mailFrom: string; rcptTo: string[] };
  /** Authenticated user, when the server asked for credentials. */
  user?: string;
  messageId: string;
  from: ReceivedAddress[];
  to: ReceivedAddress[];
  replyTo: ReceivedAddress[];
  cc: ReceivedAddress[];
  bcc: ReceivedAddress[];
  subject: string;
  text: string;
  html: string;
  /** The whole message as it came over the wire (for DKIM checks and spam scoring). */
  raw: string;
  /** Every header as it came over the wire (folded lines kept), in order. */
  headerLines: Array<{ key: string; line: string }>;
  receivedAt: string;
}

export interface SmtpFake {
  /** The SMTP port and an smtp:// URL for it. */
  port: number;
  smtpUrl: string;
  messages: ReceivedMessage[];
  /** The next recipients (RCPT TO), in order, are answered with these reply codes (e.g. 550, 451). */
  /**
   * The next recipients are refused, each with a code (its RFC 5321 text) or a whole reply as real
   * servers write it ("550 5.1.1 The email account that you tried to reach does not exist").
   */
  failNext(...replies: Array<number | string>): void;
  delayMs: number;
  reset(): void;
  close(): Promise<void>;
}

const replies: Record<number, string> = {
  421: 'Service not available, closing transmission channel',
  450: 'Requested mail action not taken: mailbox unavailable',
  451: 'Requested action aborted: local error in processing',
  452: 'Requested action not taken: insufficient system storage',
  550: 'Requested action not taken: mailbox unavailable',
  552: 'Requested mail action aborted: exceeded storage allocation',
  553: 'Requested action not taken: mailbox name not allowed',
  554: 'Transaction failed',
};

const addresses = (field: AddressObject | AddressObject[] | undefined): ReceivedAddress[] =>
  (Array.isArray(field) ? field : field ? [field] : [])
    .flatMap((group) => group.value)
    .map((entry) => ({ name: entry.name ?? '', address: entry.address ?? '' }));

/** What greetAtOnce reaches of smtp-server's connections (its own names; the package has no types for them). */
interface Connection {
  init(): void;
  _setListeners(ready: () => void): void;
  connectionReady(): void;
}

/**
 * smtp-server greets a client 100 ms after it connects, to catch "early talkers" (spam software that
 * speaks before the greeting). The site opens a connection per email, so each email in a function
 * test waited 100 ms with nothing to do (about half of send-email.test.ts's time). The fake greets
 * at once: the same listeners and checks, the pause left out; what it says and accepts is
 * smtp-server's own.
 */
function greetAtOnce(server: SMTPServer): void {
  const connections = (server as unknown as { connections: Set<Connection> }).connections;
  const add = connections.add.bind(connections);
  connections.add = (connection: Connection) => {
    connection.init = () => connection._setListeners(() => connection.connectionReady());
    return add(connection);
  };
}

export async function startSmtpFake(options: { port?: number; auth?: { user: string; pass: string } } = {}): Promise<SmtpFake> {
  let failures: Array<number | string> = [];
  const fake = {
    port: 0,
    smtpUrl: '',
    messages: [] as ReceivedMessage[],
    delayMs: 0,
    failNext(...codes: number[]) {
      failures.push(...codes);
    },
    reset() {
      failures = [];
      fake.messages = [];
      fake.delayMs = 0;
    },
    close: async () => {},
  };

  const server = new SMTPServer({
    // Loopback only, plain text: credentials are allowed without TLS here as they would not be in production.
    disabledCommands: options.auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !options.auth,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (options.auth && auth.username === options.auth.user && auth.password === options.auth.pass) return callback(null, { user: auth.username });
      return callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onRcptTo(_address, _session, callback) {
      const failure = failures.shift();
      if (failure === undefined) return callback();
      const [code, text] = typeof failure === 'number' ? [failure, replies[failure] ?? 'Refused'] : [Number(failure.slice(0, 3)), failure.slice(4)];
      callback(Object.assign(new Error(text), { responseCode: code }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      new Promise<Buffer>((resolve, reject) => {
        stream.on('end', () => resolve(Buffer.concat(chunks)));
        stream.on('error', reject);
      })
        .then(async (raw) => ({ raw, parsed: await simpleParser(raw, { skipHtmlToText: true }) }))
        .then(async ({ raw, parsed }) => {
          if (fake.delayMs) await new Promise((resolve) => setTimeout(resolve, fake.delayMs));
          fake.messages.push({
            envelope: {
              mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              rcptTo: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            },
            ...(typeof session.user === 'string' ? { user: session.user } : {}),
            messageId: parsed.messageId ?? '',
            from: addresses(parsed.from),
            to: addresses(parsed.to),
            replyTo: addresses(parsed.replyTo),
            cc: addresses(parsed.cc),
            bcc: addresses(parsed.bcc),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            raw: raw.toString('utf8'),
            headerLines: parsed.headerLines.map(({ key, line }) => ({ key, line })),
            receivedAt: new Date().toISOString(),
          });
          callback();
        })
        .catch((error: unknown) => callback(error instanceof Error ? error : new Error('unreadable message')));
    },
  });
  server.on('error', (error) => console.error('[smtp fake]', error.message));
  greetAtOnce(server);
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  fake.port = (server.server.address() as AddressInfo).port;
  fake.smtpUrl = `smtp://127.0.0.1:${fake.port}`;
  fake.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return fake;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json;charset=utf-8' });
  res.end(JSON.stringify(body));
}

/** The HTTP side for a fake run as a process: what arrived, and the controls. */
export async function serveSmtpFakeControl(fake: SmtpFake, port = 0) {
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const input = ((await readBody(req)) ?? {}) as Record<string, unknown>;
    switch (path) {
      case '/__fake/messages':
        return send(res, 200, { messages: fake.messages });
      case '/__fake/reset':
        fake.reset();
        return send(res, 200, { ok: true });
      case '/__fake/fail':
        fake.failNext(...((input.codes as number[]) ?? []));
        return send(res, 200, { ok: true });
      case '/__fake/config':
        if (typeof input.delayMs === 'number') fake.delayMs = input.delayMs;
        return send(res, 200, { ok: true });
      default:
        return send(res, 404, { error: 'unknown control path' });
    }
  });
  return listen(server, port);
}

// Run as a process: node tests/fakes/smtp.ts --port 8914 --http-port 8915
if (import.meta.url === `file://${process.argv[1]}`) {
  const option = (name: string) => {
    const index = process.argv.indexOf(name);
    return index > 0 ? process.argv[index + 1] : undefined;
  };
  const fake = await startSmtpFake({ port: Number(option('--port') ?? 8914) });
  const control = await serveSmtpFakeControl(fake, Number(option('--http-port') ?? 8915));
  console.log(`SMTP fake listening on ${fake.smtpUrl}, messages at ${control.url}/__fake/messages`);
}
