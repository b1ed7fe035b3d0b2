/**
 * Netlify Database (Postgres): the one way the server layer reads and writes records.
 *
 * Queries are written with the `sql` tag, which turns every interpolated value into a numbered
 * parameter ($1, $2, …); a fragment made with `sql` may be nested in another, and nothing else is
 * ever spliced into the text. Every rule the data keeps (one send per parent and school, a cap a
 * day, a claim on a delivery) is one statement: a constraint, an `ON CONFLICT`, a conditional
 * `UPDATE … RETURNING`, or several writes in one `WITH`. One statement is atomic on its own, needs
 * one round trip on Netlify's serverless driver, and is also what the local emulator (PGlite behind
 * the wire protocol, one session shared by every connection) can keep under concurrency, where
 * interleaved `BEGIN … COMMIT` blocks from two connections could not be told apart.
 */
import { getDatabase, MissingDatabaseConnectionError } from '@netlify/database';
import { StoreUnavailableError } from './http';

export interface SqlQuery {
  readonly text: string;
  readonly values: unknown[];
}

class Fragment implements SqlQuery {
  constructor(
    readonly strings: readonly string[],
    readonly parts: readonly unknown[],
  ) {}

  get text(): string {
    return this.build().text;
  }

  get values(): unknown[] {
    return this.build().values;
  }

  /** The text with numbered parameters, nested fragments inlined with their own values renumbered. */
  build(offset = 0): { text: string; values: unknown[] } {
    let text = this.strings[0] ?? '';
    const values: unknown[] = [];
    this.parts.forEach((part, index) => {
      if (part instanceof Fragment) {
        const inner = part.build(offset + values.length);
        text += inner.text;
        values.push(...inner.values);
      } else {
        values.push(part);
        text += `$${offset + values.length}`;
      }
      text += this.strings[index + 1] ?? '';
    });
    return { text, values };
  }
}

/** A parameterised query: `sql\`SELECT * FROM outbox_messages WHERE id = ${id}\``. */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): Fragment {
  return new Fragment(strings, values);
}

/** Fragments joined by a separator (itself fixed text, never a value). */
sql.join = (fragments: Fragment[], separator: ', ' | ' AND ' | ' OR ' = ', '): Fragment => {
  if (fragments.length === 0) return sql``;
  const strings = ['', ...fragments.slice(1).map(() => separator), ''];
  return new Fragment(strings, fragments);
};

/** An empty fragment, for optional parts of a query. */
sql.empty = () => sql``;

/** SQLSTATE classes and codes that mean the database cannot be used now, not that the query is wrong. */
const unavailableStates = /^(08|53|57P0[1-3]|58)/;
const unavailableErrors = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH']);

export class DatabaseError extends Error {
  constructor(
    message: string,
    /** The SQLSTATE code, e.g. 23505 for a unique violation. */
    readonly code: string,
    /** The constraint a violation names, e.g. `send_pairs_pkey`. */
    readonly constraint?: string,
  ) {
    super(message);
  }
}

export const isUniqueViolation = (error: unknown, constraint?: string) =>
  error instanceof DatabaseError && error.code === '23505' && (!constraint || error.constraint === constraint);
export const isCheckViolation = (error: unknown, constraint?: string) =>
  error instanceof DatabaseError && error.code === '23514' && (!constraint || error.constraint === constraint);

function translate(error: unknown): Error {
  if (error instanceof StoreUnavailableError || error instanceof DatabaseError) return error;
  const { code, constraint, message } = (error ?? {}) as { code?: unknown; constraint?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : 'database error';
  if (error instanceof MissingDatabaseConnectionError) return new StoreUnavailableError('The database is not configured.');
  if (typeof code === 'string' && (unavailableStates.test(code) || unavailableErrors.has(code))) return new StoreUnavailableError(text);
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return new DatabaseError(text, code, typeof constraint === 'string' ? constraint : undefined);
  // A connection that ended or timed out has no SQLSTATE.
  return new StoreUnavailableError(text);
}

interface Pool {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[]; rowCount: number | null }>;
  on?(event: 'error', listener: (error: Error) => void): unknown;
}

const pools = new Map<string, Pool>();

/** One pool per connection string for the life of the process (a function instance, a test file). */
function pool(): Pool {
  let connectionString: string | undefined;
  try {
    connectionString = process.env.NETLIFY_DB_URL;
    const key = `${process.env.NETLIFY_DB_DRIVER ?? ''}|${connectionString ?? ''}`;
    let found = pools.get(key);
    if (!found) {
      found = getDatabase().pool as unknown as Pool;
      // An idle connection the server closed must not crash the process; the next query reconnects.
      found.on?.('error', (error) => console.error('[db] idle connection lost:', error.message));
      pools.set(key, found);
    }
    return found;
  } catch (error) {
    throw translate(error);
  }
}

/** Runs one statement and returns its rows. */
export async function query<Row>(statement: SqlQuery): Promise<Row[]> {
  const { text, values } = statement instanceof Fragment ? statement.build() : statement;
  try {
    const result = await pool().query(text, values);
    return result.rows as Row[];
  } catch (error) {
    throw translate(error);
  }
}

/** The first row of a statement, or undefined. */
export async function queryOne<Row>(statement: SqlQuery): Promise<Row | undefined> {
  return (await query<Row>(statement))[0];
}

/** Ends this process's connections (tests, scripts). */
export async function closeDatabase(): Promise<void> {
  const open = [...pools.values()];
  pools.clear();
  await Promise.all(open.map((p) => (p as unknown as { end?: () => Promise<void> }).end?.().catch(() => undefined)));
}
