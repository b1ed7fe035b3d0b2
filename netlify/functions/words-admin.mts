import type { Config } from '@netlify/functions';
import { z } from 'zod';
import { auditRequest } from '../../src/server/staff/audit';
import { requireAdmin } from '../../src/server/staff/auth';
import { allowMethods, describeIssues, handle, HttpError, json, readJson } from '../../src/server/http';
import { listParentWords, starSchema, starWords, unstarSchema, unstarWords } from '../../src/server/schools/starred-words';

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
 * words of parents who agreed to be quoted, from letters that reached their school, newest first;
 * POST /api/admin/words/star { messageId, field, words? } puts them (or staff's cut copy, `words`;
 * again: a new copy) on the school's page, /api/admin/words/unstar { messageId, field } takes them
 * off. A star without the parent's agreement, or of a letter not delivered, is a 409.
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
  if (action === 'star') {
    if (req.method !== 'POST') throw new HttpError(405, 'method_not_allowed', 'Use POST.');
    const input = await readJson(req, starSchema);
    const starred = await starWords(input, session.username);
    await auditRequest(req, context, session, starred.outcome === 'edited' ? 'words.edited' : 'words.starred', `${input.messageId} ${input.field}`);
    return json({ starred: true, words: starred.words });
  }
  if (action === 'unstar') {
    if (req.method !== 'POST') throw new HttpError(405, 'method_not_allowed', 'Use POST.');
    const input = await readJson(req, unstarSchema);
    await unstarWords(input);
    await auditRequest(req, context, session, 'words.unstarred', `${input.messageId} ${input.field}`);
    return json({ starred: false });
  }
  throw new HttpError(404, 'not_found', 'There is no such action.');
});

export const config: Config = { path: ['/api/admin/words', '/api/admin/words/*'] };
