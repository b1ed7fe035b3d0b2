import type { Config } from '@netlify/functions';
import { endExperimentSchema, newExperimentSchema } from '../../src/lib/shared/analytics/experiment-places';
import { auditRequest } from '../../src/server/staff/audit';
import { requireAdmin } from '../../src/server/staff/auth';
import { endExperiment, experimentPlaces, experimentResults, letterResults, startExperiment } from '../../src/server/analytics/experiments';
import { allowMethods, handle, HttpError, json, readJson } from '../../src/server/http';

const EXPERIMENT_ID = /^[a-z0-9-]{1,40}$/;

/**
 * Experiments (signed in). GET /api/admin/experiments: the places that can be tested, every
 * experiment with its variants' visitors, confirmed sends and comparison, and the letters compared
 * the same way. POST /api/admin/experiments { place, name, variants? } starts one (409 while one
 * runs on the place, 400 without two variants); POST /api/admin/experiments/{id}/end { winner }.
 */
export default handle(async (req, context) => {
  const refused = allowMethods(req, ['GET', 'POST']);
  if (refused) return refused;
  const session = await requireAdmin(req);
  const parts = new URL(req.url).pathname.split('/').slice(4); // after /api/admin/experiments
  if (parts.length === 0) {
    if (req.method === 'GET') {
      const [places, experiments, letters] = await Promise.all([experimentPlaces(), experimentResults(), letterResults()]);
      return json({ places: places.map(({ id, label, variants }) => ({ id, label, variants })), experiments, letters });
    }
    const input = await readJson(req, newExperimentSchema);
    const experiment = await startExperiment(input, session.username);
    await auditRequest(req, context, session, 'experiment.started', experiment.id);
    return json({ id: experiment.id }, 201);
  }
  if (parts.length === 2 && parts[1] === 'end' && EXPERIMENT_ID.test(parts[0]!)) {
    if (req.method !== 'POST') throw new HttpError(405, 'method_not_allowed', 'End an experiment with POST.');
    const { winner } = await readJson(req, endExperimentSchema);
    const experiment = await endExperiment(parts[0]!, winner);
    await auditRequest(req, context, session, 'experiment.ended', `${experiment.id} won by ${winner}`);
    return json({ id: experiment.id, winner });
  }
  throw new HttpError(404, 'not_found', 'There is no such experiment.');
});

export const config: Config = { path: ['/api/admin/experiments', '/api/admin/experiments/*'] };
