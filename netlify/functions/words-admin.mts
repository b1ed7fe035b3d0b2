import type { Config } from '@netlify/functions';
import { z } from 'zod';
import { auditRequest } from '../../src/server/staff/audit';
import { requireAdmin } from '../../src/server/staff/auth';
import { allowMethods, describeIssues, handle, HttpError, json, readJson } from '../../src/server/http';
import { listParentWords, starSchema, starWords, unstarWords } from '../../src/server/schools/starred-words';

const listSchema = z
  .object({
    cursor: z
      .string()
      .regex(/^[0-9a-f-]{1,100}$/, 'cursor is not valid')
      .optional(),
  })
  .strict();

/**
 * Parents' words (signed in; every read is on the audit log). GET /api/admin/words?cursor=…: the
 * words parents wrote in the emails that went out, newest first; POST /api/admin/words/star and
 * /api/admin/words/unstar { messageId, field } choose which may appear on the school's page.
 */
export default handle(async (req, context) => {
  const refused = allowMethods(req, ['GET', 'POST']);
  if (refused) return refused;
  const session = await requireAdmin(req);
  const action = new URL(req.url).pathname.split('/').slice(4).join('/'); // after /api/admin/words
  if (action === '') {
    if (req.method !== 'GET') throw new HttpError(405, 'method_not_allowed', 'Read the words with GET.');
    const parsed = listSchema.safeParse(Object.fromEntries(new URL(req.url).searchParams));
    if (!parsed.success) throw new HttpError(400, 'invalid_request', describeIssues(parsed.error));
    const page = await listParentWords(parsed.data.cursor);
    await auditRequest(req, context, session, 'words.viewed', `${page.words.length} words${parsed.data.cursor ? ` after ${parsed.data.cursor}` : ''}`);
    return json(page);
  }
  if (action === 'star' || action === 'unstar') {
    if (req.method !== 'POST') throw new HttpError(405, 'method_not_allowed', 'Use POST.');
    const input = await readJson(req, starSchema);
    if (action === 'star') await starWords(input, session.username);
    else await unstarWords(input);
    await auditRequest(req, context, session, action === 'star' ? 'words.starred' : 'words.unstarred', `${input.messageId} ${input.field}`);
    return json({ starred: action === 'star' });
  }
  throw new HttpError(404, 'not_found', 'There is no such action.');
});

export const config: Config = { path: ['/api/admin/words', '/api/admin/words/*'] };
