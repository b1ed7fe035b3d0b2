-- Proof before power (issue 28): nothing public without proof, limits a stranger cannot spend.

-- A school email's life gains its last states: `replaced` (a newer request of the same parent to
-- the same school took its place before it was confirmed; its link sends nothing) and `bounced`
-- (the school's mail server refused it for good). Every other module asks src/server/letter/outbox.ts to
-- move a message; only it sets the column.
ALTER TABLE outbox_messages DROP CONSTRAINT outbox_messages_status_check;
ALTER TABLE outbox_messages ADD CONSTRAINT outbox_messages_status_check
  CHECK (status IN ('awaiting_confirmation', 'queued', 'sent', 'failed', 'replaced', 'bounced'));

-- The parent's requests still waiting for their confirmation, by the person they reach and the
-- school they write to, so that a newer request replaces an older one in one statement.
CREATE INDEX outbox_messages_waiting_pair ON outbox_messages (canonical_address(record->>'parentEmail'), canonical_address(record->>'to'))
  WHERE status = 'awaiting_confirmation';

-- Requests nobody has confirmed yet, counted per requesting network and per school and network,
-- a day at a time: a stranger's throwaway requests are bounded where they come from, and spend
-- nobody else's count. The scope names what is counted (hashes only).
CREATE TABLE send_request_days (
  scope    text NOT NULL CHECK (scope ~ '^(network|school):[0-9a-f]{32,64}$'),
  day      date NOT NULL,
  requests integer NOT NULL,
  cap      integer NOT NULL,
  PRIMARY KEY (scope, day),
  CONSTRAINT send_request_days_within_cap CHECK (requests <= cap)
);
CREATE INDEX send_request_days_day ON send_request_days (day);

-- What a school page shows rests on proof: the page is made when a parent confirms a platform
-- send from their inbox (so the share link works at once), but shows the school's name, its count
-- and its outcome only once published: by the first letter the platform delivered to it, or by a
-- staff decision in the review queue. The name is set by that first letter and changed only by
-- staff (`name_set_by`). `slug` is the readable part of the shared link (/schools/{slug}-{key}).
ALTER TABLE school_pages ALTER COLUMN school_name DROP NOT NULL;
ALTER TABLE school_pages ADD COLUMN published_at timestamptz;
ALTER TABLE school_pages ADD COLUMN name_set_by text CHECK (name_set_by IS NULL OR name_set_by IN ('letter', 'staff'));
ALTER TABLE school_pages ADD COLUMN slug text CHECK (slug IS NULL OR slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' AND length(slug) <= 60);
-- Pages made before: their names came from parents' sends, which were then the only proof.
UPDATE school_pages SET published_at = created_at, name_set_by = 'letter';

-- The review queue: a self-reported send, and each outcome reported on one, wait here for a
-- person to approve or reject them; they count, show and notify only once approved. One item per
-- message and claim; the decision is recorded once (and audited).
CREATE TABLE review_items (
  id          text PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 100),
  message_id  text NOT NULL REFERENCES outbox_messages (id) ON DELETE CASCADE,
  claim       text NOT NULL CHECK (claim IN ('self_report', 'replied', 'meeting')),
  reason      text NOT NULL CHECK (reason IN ('self_report', 'outcome_on_self_report', 'own_domain')),
  state       text NOT NULL CHECK (state IN ('pending', 'approved', 'rejected')),
  created_at  timestamptz NOT NULL,
  decided_at  timestamptz,
  decided_by  text CHECK (decided_by IS NULL OR length(decided_by) BETWEEN 1 AND 200),
  CONSTRAINT review_items_once UNIQUE (message_id, claim),
  CHECK ((state = 'pending') = (decided_at IS NULL))
);
CREATE INDEX review_items_pending ON review_items (created_at) WHERE state = 'pending';

-- Invitations belong to the person who sent them: removing that person, or making them staff,
-- voids what they sent; owners cancel one by hand. `voided_at` with the reason.
ALTER TABLE staff_invitations ADD COLUMN invited_by_id uuid REFERENCES staff (id) ON DELETE CASCADE;
ALTER TABLE staff_invitations ADD COLUMN voided_at timestamptz;
ALTER TABLE staff_invitations ADD COLUMN void_reason text CHECK (void_reason IS NULL OR void_reason IN ('cancelled', 'inviter_removed', 'inviter_demoted'));

-- Refusals strangers cause are folded: the first of a 10-minute window from one network is one
-- audit row, the rest add to its count here (the log itself never changes). `typed_name` keeps
-- apart what a refused sign-in typed as its name; the actor of such a row is "unknown".
CREATE TABLE audit_refusal_windows (
  action       text NOT NULL,
  address_hash text NOT NULL,
  window_start timestamptz NOT NULL,
  refusals     integer NOT NULL CHECK (refusals >= 1),
  PRIMARY KEY (action, address_hash, window_start)
);
CREATE INDEX audit_refusal_windows_start ON audit_refusal_windows (window_start);
ALTER TABLE audit_log ADD COLUMN typed_name text CHECK (typed_name IS NULL OR length(typed_name) BETWEEN 1 AND 200);
