-- "Yes, delete my data" works once (issue 21 part 7, attack tests of /your-data): the hashes of the
-- deletion-step tokens already used, so that a replayed button changes nothing (no second HubSpot
-- deletion, no second audit entry) and says the data was already deleted. A row is kept only until
-- its token would have expired anyway (src/server/data-rights.ts `purgeUsedDeletionSteps`).
CREATE TABLE used_deletion_steps (
  token_hash text PRIMARY KEY CHECK (length(token_hash) BETWEEN 1 AND 100),
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX used_deletion_steps_expiry ON used_deletion_steps (expires_at);
