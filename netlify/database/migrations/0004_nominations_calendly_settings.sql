-- School nominations, kept whatever HubSpot answers, with the outcome of the contact sync.
CREATE TABLE nominations (
  id         text PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 100),
  kind       text NOT NULL CHECK (kind IN ('nomination', 'school-nomination')),
  created_at timestamptz NOT NULL,
  hubspot    text NOT NULL CHECK (hubspot IN ('synced', 'failed', 'not_configured')),
  record     jsonb NOT NULL
);

-- The admin page's settings. Secrets are sealed (AES-GCM) before they are stored.
CREATE TABLE webhook_configs (
  id         text PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 100),
  is_active  boolean NOT NULL,
  created_at timestamptz NOT NULL,
  record     jsonb NOT NULL
);

CREATE TABLE hubspot_configs (
  id         text PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 100),
  is_active  boolean NOT NULL,
  created_at timestamptz NOT NULL,
  record     jsonb NOT NULL
);
-- At most one active HubSpot configuration.
CREATE UNIQUE INDEX hubspot_configs_one_active ON hubspot_configs (is_active) WHERE is_active;

-- Calendly deliveries: every signature once (replays refused), every event once across
-- Calendly's retries (its fingerprint), one log per event.
CREATE TABLE calendly_signatures (
  signature  text PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX calendly_signatures_created_at ON calendly_signatures (created_at);

CREATE TABLE webhook_logs (
  id                  text PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 100),
  event_fingerprint   text NOT NULL UNIQUE,
  created_at          timestamptz NOT NULL,
  invitee_email       text,
  invitee_uuid        text,
  hubspot_sync_status text NOT NULL CHECK (hubspot_sync_status IN ('pending', 'success', 'error', 'skipped')),
  record              jsonb NOT NULL
);
CREATE INDEX webhook_logs_invitee ON webhook_logs (lower(invitee_email), invitee_uuid);
