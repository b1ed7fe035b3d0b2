-- Honest numbers (issue 46): a random salt per day, exposures recorded where a variant is served,
-- the network on raw events (so that one machine cannot be a crowd), link variants on journeys.

-- The day's random salt for visitor and network hashes: made on first use, deleted once the day
-- after it is over (src/server/analytics/visitor.ts), so that no hash can be recomputed later.
CREATE TABLE analytics_salts (
  day        date PRIMARY KEY,
  salt       bytea NOT NULL CHECK (length(salt) = 32),
  created_at timestamptz NOT NULL DEFAULT now()
);

-- The network an event came from, as a keyed hash under the day's salt; deleted with the raw event.
ALTER TABLE analytics_events ADD COLUMN network text CHECK (network IS NULL OR network ~ '^[0-9a-f]{32}$');
CREATE INDEX analytics_events_network_day ON analytics_events (network, day) WHERE network IS NOT NULL;

-- Who saw which variant: one row per experiment, day and visitor (the first variant served is the
-- one credited), written by the server as it draws the page. `kind` 'served' is the random draw;
-- 'link' a visit that arrived through a share link carrying a share-text variant (never part of
-- the random comparison). `unit` and `network` are the day's keyed hashes, emptied two days later.
-- `converted_at`: the goal reached by this visitor where the server sees it (a share).
CREATE TABLE experiment_exposures (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  experiment   text NOT NULL REFERENCES experiments (id) ON DELETE CASCADE,
  kind         text NOT NULL CHECK (kind IN ('served', 'link')),
  variant      text NOT NULL CHECK (variant ~ '^[a-z0-9-]{1,20}$'),
  day          date NOT NULL,
  at           timestamptz NOT NULL,
  unit         text CHECK (unit IS NULL OR unit ~ '^[0-9a-f]{32}$'),
  network      text CHECK (network IS NULL OR network ~ '^[0-9a-f]{32}$'),
  converted_at timestamptz
);
CREATE UNIQUE INDEX experiment_exposures_once ON experiment_exposures (experiment, kind, day, unit) WHERE unit IS NOT NULL;
CREATE INDEX experiment_exposures_network ON experiment_exposures (experiment, day, network) WHERE network IS NOT NULL;
CREATE INDEX experiment_exposures_figures ON experiment_exposures (experiment, kind, variant, day);

-- The share-text variant whose link brought the parent who wrote (drafts from its links).
ALTER TABLE analytics_journeys ADD COLUMN link_variant text CHECK (link_variant IS NULL OR length(link_variant) BETWEEN 1 AND 100);

-- The rate windows' clients are now keyed hashes (64 hex) or the whole site's ceiling ('site').
ALTER TABLE analytics_rate_windows DROP CONSTRAINT IF EXISTS analytics_rate_windows_client_check;
ALTER TABLE analytics_rate_windows ADD CONSTRAINT analytics_rate_windows_client_check CHECK (client ~ '^([0-9a-f]{64}|site)$');
