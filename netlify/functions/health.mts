import type { Config } from '@netlify/functions';

/** Liveness probe used by `npm start` and the test harness. */
export default async () => Response.json({ ok: true });

export const config: Config = { path: '/api/health', method: 'GET' };
