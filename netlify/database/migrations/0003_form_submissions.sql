-- Submissions to the site's own forms, stored before HubSpot is asked, delivered exactly once.
-- `state` with `lease_until` is the claim of a delivery attempt (`sending` until the lease ends);
-- `held` is a submission judged automated, kept for a person to release. `version` is the
-- record's compare-and-swap token. Ids sort newest first.
CREATE TABLE form_submissions (
  id              text PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 100),
  purpose         text NOT NULL CHECK (purpose ~ '^[a-zA-Z]{1,40}$'),
  form_id         text NOT NULL,
  created_at      timestamptz NOT NULL,
  state           text NOT NULL CHECK (state IN ('pending', 'sending', 'delivered', 'failed', 'held')),
  next_attempt_at timestamptz NOT NULL,
  lease_until     timestamptz,
  settled_at      timestamptz,
  version         integer NOT NULL DEFAULT 1 CHECK (version >= 1),
  record          jsonb NOT NULL,
  CHECK (state <> 'sending' OR lease_until IS NOT NULL),
  CHECK ((state IN ('delivered', 'failed')) = (settled_at IS NOT NULL))
);
CREATE INDEX form_submissions_by_form ON form_submissions (purpose, id);
CREATE INDEX form_submissions_due ON form_submissions ((CASE WHEN state = 'sending' THEN lease_until ELSE next_attempt_at END)) WHERE state IN ('pending', 'sending');
CREATE INDEX form_submissions_settled ON form_submissions (settled_at) WHERE settled_at IS NOT NULL;
CREATE INDEX form_submissions_held ON form_submissions (created_at) WHERE state = 'held';
