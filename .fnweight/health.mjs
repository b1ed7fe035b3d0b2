// netlify/functions/health.mts
var health_default = async () => Response.json({ ok: true });
var config = { path: "/api/health", method: "GET" };
export {
  config,
  health_default as default
};
