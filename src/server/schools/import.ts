/**
 * Schools from a CSV file staff upload (a directory they trust, their own spreadsheet): each row a
 * school, checked like a school staff type in, verified on the evidence the import names. A row
 * that is not valid, or whose address another verified school has, is reported by its line and
 * nothing of it is written; the other rows are. Columns (a header row names them, in any order):
 *
 *   name, city, leader_name, leader_role, leader_email, time_zone, days, opens, closes, holidays,
 *   website, email_domains, evidence
 *
 * `days` is "1-5" or "1,2,3,4,5" (0 Sunday … 6 Saturday); `holidays` and `email_domains` are
 * separated by spaces or semicolons; several leaders of one school are several rows with its name
 * and city.
 */

import { DEFAULT_HOURS, foldName, schoolInputSchema, type Leader, type SchoolInput } from '../../lib/shared/school-record';
import { HttpError } from '../http';
import { createSchool, type School } from './records';

/** The largest file an import takes, and the most schools in one. */
export const MAX_IMPORT_BYTES = 512 * 1024;
export const MAX_IMPORT_ROWS = 2000;

/** RFC 4180 fields: quoted fields may hold commas, quotes ("") and line breaks. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const body = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < body.length; i++) {
    const char = body[i]!;
    if (quoted) {
      if (char === '"' && body[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"' && field === '') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && body[i + 1] === '\n') i++;
      row.push(field);
      if (row.some((cell) => cell.trim() !== '')) rows.push(row);
      row = [];
      field = '';
    } else field += char;
  }
  if (quoted) throw new HttpError(400, 'invalid_csv', 'The file ends inside a quoted field: a quote mark is missing.');
  row.push(field);
  if (row.some((cell) => cell.trim() !== '')) rows.push(row);
  return rows;
}

const columns = [
  'name',
  'city',
  'leader_name',
  'leader_role',
  'leader_email',
  'time_zone',
  'days',
  'opens',
  'closes',
  'holidays',
  'website',
  'email_domains',
  'evidence',
] as const;
type Column = (typeof columns)[number];

const listOf = (text: string) =>
  text
    .split(/[\s;]+/)
    .map((item) => item.trim())
    .filter(Boolean);

function daysOf(text: string): number[] {
  const range = /^([0-6])\s*-\s*([0-6])$/.exec(text.trim());
  if (range) {
    const [from, to] = [Number(range[1]), Number(range[2])];
    return Array.from({ length: to - from + 1 }, (_, index) => from + index);
  }
  return text
    .split(/[\s,;]+/)
    .filter(Boolean)
    .map(Number);
}

export interface ImportReport {
  created: Array<{ line: number; id: string; name: string }>;
  refused: Array<{ line: number; message: string }>;
}

/** Imports the schools of a CSV, verified on the evidence each row names (or the import itself). */
export async function importSchools(text: string, by: string, now = new Date()): Promise<ImportReport> {
  const rows = parseCsv(text);
  if (rows.length < 2) throw new HttpError(400, 'invalid_csv', 'The file needs a header row and at least one school.');
  const header = rows[0]!.map((cell) => cell.trim().toLowerCase()) as Column[];
  const unknown = header.filter((name) => !(columns as readonly string[]).includes(name));
  if (unknown.length)
    throw new HttpError(
      400,
      'invalid_csv',
      `The header names columns this import does not know: ${unknown.slice(0, 5).join(', ')}. It knows ${columns.join(', ')}.`,
    );
  for (const required of ['name', 'leader_email', 'time_zone'] as const) {
    if (!header.includes(required)) throw new HttpError(400, 'invalid_csv', `The header has no "${required}" column.`);
  }
  if (rows.length - 1 > MAX_IMPORT_ROWS) throw new HttpError(413, 'too_many_rows', `An import takes at most ${MAX_IMPORT_ROWS} rows.`);
  // Rows of one school (its name and city) are one record with several leaders.
  const schools = new Map<string, { line: number; cells: Record<Column, string>; leaders: Array<{ name: string; role: string; address: string }> }>();
  rows.slice(1).forEach((row, index) => {
    const cells = Object.fromEntries(header.map((name, column) => [name, (row[column] ?? '').trim()])) as Record<Column, string>;
    const key = `${foldName(cells.name ?? '')}|${foldName(cells.city ?? '')}`;
    const leader = { name: cells.leader_name ?? '', role: cells.leader_role ?? '', address: cells.leader_email ?? '' };
    const known = schools.get(key);
    if (known) known.leaders.push(leader);
    else schools.set(key, { line: index + 2, cells, leaders: [leader] });
  });
  const report: ImportReport = { created: [], refused: [] };
  for (const { line, cells, leaders } of schools.values()) {
    const candidate = {
      name: cells.name ?? '',
      ...(cells.city ? { city: cells.city } : {}),
      leaders,
      emailDomains: listOf(cells.email_domains ?? ''),
      ...(cells.website ? { website: cells.website } : {}),
      timeZone: cells.time_zone ?? '',
      hours: {
        days: cells.days ? daysOf(cells.days) : DEFAULT_HOURS.days,
        opens: cells.opens || DEFAULT_HOURS.opens,
        closes: cells.closes || DEFAULT_HOURS.closes,
      },
      holidays: listOf(cells.holidays ?? ''),
    };
    const parsed = schoolInputSchema.safeParse(candidate);
    if (!parsed.success) {
      report.refused.push({
        line,
        message: parsed.error.issues
          .slice(0, 2)
          .map((issue) => `${issue.path.join('.') || 'row'}: ${issue.message}`)
          .join('; '),
      });
      continue;
    }
    const evidence = {
      kind: 'note' as const,
      detail: (cells.evidence || `Imported from a CSV file by ${by} on ${now.toISOString().slice(0, 10)}`).slice(0, 500),
    };
    try {
      const school: School = await createSchool(parsed.data as SchoolInput & { leaders: Leader[] }, by, evidence, 'import', now);
      report.created.push({ line, id: school.id, name: school.name });
    } catch (error) {
      if (error instanceof HttpError) report.refused.push({ line, message: error.message });
      else throw error;
    }
  }
  return report;
}
