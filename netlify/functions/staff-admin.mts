import type { Config } from '@netlify/functions';
import { requireOwner } from '../../src/server/staff/auth';
import { allowMethods, clientIp, handle, HttpError, json, readJson } from '../../src/server/http';
import {
  changeRole,
  cancelInvitation,
  createInvitation,
  invitationSchema,
  listStaff,
  passkeyIdSchema,
  removePasskey,
  removePerson,
  roleChangeSchema,
  staffIdSchema,
} from '../../src/server/staff/members';

/**
 * The Staff tab (owners only): GET /api/admin/staff lists people, their passkeys and open
 * invitations; DELETE /api/admin/staff/invitations/{id} cancels one; POST /api/admin/staff/invitations { email, role } invites someone (the link is in
 * the answer); PATCH /api/admin/staff/{id} { role }; DELETE /api/admin/staff/{id} removes a person
 * and DELETE /api/admin/staff/{id}/passkeys/{passkeyId} one passkey (their sessions end at once).
 */
export default handle(async (req, context) => {
  const refused = allowMethods(req, ['GET', 'POST', 'PATCH', 'DELETE']);
  if (refused) return refused;
  const session = await requireOwner(req, context);
  const ip = clientIp(req, context);
  const parts = new URL(req.url).pathname.split('/').slice(4); // after /api/admin/staff

  if (parts.length === 0) {
    if (req.method !== 'GET') throw new HttpError(405, 'method_not_allowed', 'Use GET for the staff list.');
    return json(await listStaff());
  }
  if (parts.length === 1 && parts[0] === 'invitations') {
    if (req.method !== 'POST') throw new HttpError(405, 'method_not_allowed', 'Invite with POST.');
    const input = await readJson(req, invitationSchema);
    return json({ invitation: await createInvitation(req, session, input, ip) }, 201);
  }
  if (parts.length === 2 && parts[0] === 'invitations') {
    if (req.method !== 'DELETE') throw new HttpError(405, 'method_not_allowed', 'Cancel an invitation with DELETE.');
    const invitationId = passkeyIdSchema.safeParse(parts[1]);
    if (!invitationId.success) throw new HttpError(404, 'not_found', 'This invitation is not open (used, cancelled or never made).');
    await cancelInvitation(session, invitationId.data, ip);
    return json({ ok: true });
  }
  const staffId = staffIdSchema.safeParse(parts[0]);
  if (!staffId.success) throw new HttpError(404, 'not_found', 'This person is not on the staff.');
  if (parts.length === 1) {
    if (req.method === 'PATCH') {
      const { role } = await readJson(req, roleChangeSchema);
      await changeRole(session, staffId.data, role, ip);
      return json({ ok: true });
    }
    if (req.method === 'DELETE') {
      await removePerson(session, staffId.data, ip);
      return json({ ok: true });
    }
    throw new HttpError(405, 'method_not_allowed', 'Use PATCH or DELETE for a person.');
  }
  if (parts.length === 3 && parts[1] === 'passkeys') {
    const passkeyId = passkeyIdSchema.safeParse(parts[2]);
    if (!passkeyId.success) throw new HttpError(404, 'not_found', 'This passkey is not registered.');
    if (req.method !== 'DELETE') throw new HttpError(405, 'method_not_allowed', 'Remove a passkey with DELETE.');
    await removePasskey(session, staffId.data, passkeyId.data, ip);
    return json({ ok: true });
  }
  throw new HttpError(404, 'not_found', 'No such staff endpoint.');
});

export const config: Config = {
  path: [
    '/api/admin/staff',
    '/api/admin/staff/invitations',
    '/api/admin/staff/invitations/:invitationId',
    '/api/admin/staff/:id',
    '/api/admin/staff/:id/passkeys/:passkeyId',
  ],
  method: ['GET', 'POST', 'PATCH', 'DELETE'],
};
