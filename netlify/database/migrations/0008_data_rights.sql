-- Parents' data rights: finding everything kept about one person, and HubSpot deletions retried
-- until HubSpot has done them.

-- The canonical form of an email address, as `canonicalAddress` in src/server/identity.ts computes
-- it (NFKC, trimmed, lower case, no +tag, Gmail without dots and googlemail.com as gmail.com), so
-- that a parent's records are found under every variant of their address. The server checks each
-- row it finds with its own function again: this one only has to find them.
CREATE FUNCTION canonical_address(address text) RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  a text := lower(regexp_replace(normalize(address, NFKC), '^\s+|\s+$', '', 'g'));
  at integer;
  local text;
  domain text;
  plus integer;
BEGIN
  IF a IS NULL THEN RETURN NULL; END IF;
  at := CASE WHEN strpos(reverse(a), '@') = 0 THEN 0 ELSE length(a) - strpos(reverse(a), '@') + 1 END;
  IF at <= 1 OR at = length(a) THEN RETURN a; END IF;
  local := left(a, at - 1);
  domain := regexp_replace(substr(a, at + 1), '\.+$', '');
  plus := strpos(local, '+');
  IF plus > 1 THEN local := left(local, plus - 1); END IF;
  IF domain IN ('gmail.com', 'googlemail.com') THEN
    local := replace(local, '.', '');
    domain := 'gmail.com';
  END IF;
  RETURN local || '@' || domain;
END;
$$;

-- Every record that names a parent by address, found by the person it reaches.
CREATE INDEX form_submissions_person ON form_submissions (canonical_address(record->'values'->>'email'));
CREATE INDEX email_drafts_person ON email_drafts (canonical_address(record->'data'->>'parentEmail'));
CREATE INDEX outbox_messages_person ON outbox_messages (canonical_address(record->>'parentEmail'));
CREATE INDEX nominations_person ON nominations (canonical_address(record->'data'->>'email'));
CREATE INDEX webhook_logs_person ON webhook_logs (canonical_address(invitee_email));

-- A sent platform message whose parent asked for their data to be deleted keeps its row, without
-- names, addresses or text, until the usual 90-day purge: its claim on the limits (one send per
-- parent and school, hashed) goes with the row. No page, list or link shows it again.
ALTER TABLE outbox_messages ADD COLUMN erased_at timestamptz;

-- HubSpot is asked to delete the contact (GDPR delete) of every address a deletion names,
-- retried until HubSpot has done it; the address is kept only until then. `masked` is what the
-- admin page shows (s•••@example.org).
CREATE TABLE hubspot_contact_deletions (
  id              text PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 100),
  email           text,
  masked          text NOT NULL,
  state           text NOT NULL CHECK (state IN ('pending', 'done')),
  attempts        integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_attempt_at timestamptz NOT NULL,
  lease_until     timestamptz,
  last_error      text,
  created_at      timestamptz NOT NULL,
  done_at         timestamptz,
  CHECK ((state = 'done') = (done_at IS NOT NULL)),
  CHECK (state = 'done' OR email IS NOT NULL)
);
CREATE UNIQUE INDEX hubspot_contact_deletions_one_pending ON hubspot_contact_deletions (email) WHERE state = 'pending';
CREATE INDEX hubspot_contact_deletions_due ON hubspot_contact_deletions (next_attempt_at) WHERE state = 'pending';
CREATE INDEX hubspot_contact_deletions_done ON hubspot_contact_deletions (done_at) WHERE state = 'done';
