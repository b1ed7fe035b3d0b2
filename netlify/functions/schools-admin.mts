import type { Config } from '@netlify/functions';
import { z } from 'zod';
import { evidenceSchema, schoolInputSchema, schoolStatuses } from '../../src/lib/shared/school-record';
import { auditRequest } from '../../src/server/staff/audit';
import { requireAdmin } from '../../src/server/staff/auth';
import { maskAddress } from '../../src/server/data-rights';
import { allowMethods, describeIssues, handle, HttpError, json, readJson, readLimited } from '../../src/server/http';
import { importSchools, MAX_IMPORT_BYTES } from '../../src/server/schools/import';
import { lettersOfSchool } from '../../src/server/schools/letters';
import { countSchoolLetters } from '../../src/server/schools/publication';
import {
  createSchool,
  editSchool,
  letterCounts,
  listSchools,
  mergeSchools,
  openFlags,
  readSchool,
  retireSchool,
  settleFlag,
  verifySchool,
  type School,
} from '../../src/server/schools/records';

const ID = /^[\w-]{1,100}$/;

const listSchema = z
  .object({
    status: z.enum(schoolStatuses).default('proposed'),
    q: z.string().max(80).optional(),
    cursor: z.string().regex(ID, 'cursor is not one this list gave').optional(),
    limit: z.coerce.number().int().min(1).max(100).default(30),
  })
  .strict();

const createSchema = z.object({ school: schoolInputSchema, evidence: evidenceSchema.optional() }).strict();
const verifyRequest = z.object({ evidence: evidenceSchema }).strict();
const mergeRequest = z.object({ into: z.string().regex(ID, 'Choose the school to merge into.') }).strict();
const flagRequest = z.object({ address: z.email().max(254), decision: z.enum(['added', 'dismissed']) }).strict();

/** A school as staff see it, with how many letters it has (a proposal shows what it carries). */
async function views(schools: School[]) {
  const counts = await letterCounts(schools.map((school) => school.id));
  return schools.map((school) => ({ ...school, letters: counts.get(school.id) ?? { letters: 0, confirmed: 0 } }));
}

/**
 * The Schools tab (signed-in staff; every change audited). Schools are records staff verify: a school
 * parents typed is a proposal until then, and nothing public rests on it.
 *
 * - GET /api/admin/schools?status=proposed|verified|retired&q=&cursor=: schools oldest first (a queue);
 *   GET /api/admin/schools/{id}: one, with its letters (addresses masked);
 *   GET /api/admin/schools/flags: letters to a verified school at an address its record does not list.
 * - POST /api/admin/schools {school, evidence?}: add one (verified with evidence, else proposed).
 * - PUT /api/admin/schools/{id} {…school}: change its record; POST …/{id}/verify {evidence};
 *   POST …/{id}/retire; POST …/{id}/merge {into}: its letters, counts and addresses join `into`.
 * - POST /api/admin/schools/import (text/csv): schools from a file, each row reported.
 * - POST /api/admin/schools/{id}/flags {address, decision: added|dismissed}.
 * Verifying, merging or adding an address counts the letters the school already has.
 */
export default handle(async (req, context) => {
  const refused = allowMethods(req, ['GET', 'POST', 'PUT']);
  if (refused) return refused;
  const session = await requireAdmin(req);
  const url = new URL(req.url);
  const [, , , , id, action] = url.pathname.split('/');
  if (req.method === 'GET') {
    if (id === 'flags') {
      // Staff judge whether an address is the school's: they see it whole (the read is audited).
      const flags = await openFlags();
      await auditRequest(req, context, session, 'schools.viewed', 'flags');
      return json({ flags });
    }
    if (id) {
      if (!ID.test(id)) throw new HttpError(404, 'not_found', 'There is no school with this id.');
      const school = await readSchool(id);
      if (!school) throw new HttpError(404, 'not_found', 'There is no school with this id.');
      const letters = await lettersOfSchool(id, 200);
      await auditRequest(req, context, session, 'schools.viewed', id);
      return json({ school: (await views([school]))[0], letters: letters.map((letter) => ({ ...letter, to: maskAddress(letter.to) })) });
    }
    const parsed = listSchema.safeParse(Object.fromEntries(url.searchParams));
    if (!parsed.success) throw new HttpError(400, 'invalid_request', describeIssues(parsed.error));
    const page = await listSchools({ status: parsed.data.status, text: parsed.data.q, cursor: parsed.data.cursor, limit: parsed.data.limit });
    await auditRequest(req, context, session, 'schools.viewed', parsed.data.status);
    return json({ schools: await views(page.schools), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) });
  }
  if (id === 'import' && req.method === 'POST') {
    if (!/^text\/(csv|plain)\b/i.test(req.headers.get('content-type') ?? ''))
      throw new HttpError(415, 'unsupported_media_type', 'Send the CSV file as text/csv.');
    let text: string;
    try {
      text = await readLimited(req, MAX_IMPORT_BYTES);
    } catch (error) {
      if (error instanceof HttpError) throw error;
      throw new HttpError(400, 'unreadable_body', 'The file could not be read.');
    }
    // eslint-disable-next-line no-control-regex
    if (/\u0000/.test(text)) throw new HttpError(400, 'invalid_csv', 'The file is not a text file (it holds a NUL character).');
    const report = await importSchools(text, session.username);
    for (const created of report.created) await countSchoolLetters(created.id);
    await auditRequest(req, context, session, 'school.imported', `${report.created.length} added, ${report.refused.length} refused`);
    return json(report, report.created.length ? 201 : 200);
  }
  if (!id) {
    if (req.method !== 'POST') throw new HttpError(405, 'method_not_allowed', 'Add a school with POST /api/admin/schools.');
    const input = await readJson(req, createSchema);
    const school = await createSchool(input.school, session.username, input.evidence);
    if (school.status === 'verified') await countSchoolLetters(school.id);
    await auditRequest(req, context, session, 'school.created', `${school.id} ${school.status}`);
    return json({ school: (await views([school]))[0] }, 201);
  }
  if (!ID.test(id)) throw new HttpError(404, 'not_found', 'There is no school with this id.');
  if (req.method === 'PUT' && !action) {
    const input = await readJson(req, schoolInputSchema);
    const school = await editSchool(id, input);
    if (school.status === 'verified') await countSchoolLetters(id);
    await auditRequest(req, context, session, 'school.edited', id);
    return json({ school: (await views([school]))[0] });
  }
  if (req.method !== 'POST') throw new HttpError(405, 'method_not_allowed', 'Use POST for this action.');
  switch (action) {
    case 'verify': {
      const input = await readJson(req, verifyRequest);
      const school = await verifySchool(id, input.evidence, session.username);
      const counted = await countSchoolLetters(id);
      await auditRequest(req, context, session, 'school.verified', `${id} (${input.evidence.kind}); ${counted} letters count`);
      return json({ school: (await views([school]))[0], counted });
    }
    case 'retire': {
      const school = await retireSchool(id);
      await auditRequest(req, context, session, 'school.retired', id);
      return json({ school: (await views([school]))[0] });
    }
    case 'merge': {
      const input = await readJson(req, mergeRequest);
      const school = await mergeSchools(id, input.into);
      const counted = school.status === 'verified' ? await countSchoolLetters(school.id) : 0;
      await auditRequest(req, context, session, 'school.merged', `${id} into ${input.into}`);
      return json({ school: (await views([school]))[0], counted });
    }
    case 'flags': {
      const input = await readJson(req, flagRequest);
      const school = await settleFlag(id, input.address, input.decision);
      const counted = school?.status === 'verified' ? await countSchoolLetters(id) : 0;
      await auditRequest(req, context, session, 'school.flag_settled', `${id} ${input.decision}`);
      return json({ settled: input.decision, counted, ...(school ? { school: (await views([school]))[0] } : {}) });
    }
    default:
      throw new HttpError(404, 'not_found', 'No such action: verify, retire, merge or flags.');
  }
});

export const config: Config = {
  path: ['/api/admin/schools', '/api/admin/schools/:id', '/api/admin/schools/:id/:action'],
  method: ['GET', 'POST', 'PUT'],
};
