-- The outcome reaches everyone: when a parent reports that their school replied or agreed to
-- meet, every other parent who wrote to that school (a confirmed send or a confirmed self-report,
-- matched by the canonical school contact address) gets one short update, handed to HubSpot for
-- its workflow by the scheduled `school-updates` run, exactly once, at most one a week per parent,
-- and never after they stopped updates.

-- The school contact of every message, as the person it reaches, so the other parents of a school
-- are found without a scan.
CREATE INDEX outbox_messages_school ON outbox_messages (canonical_address(record->>'to'));

-- One row per update: the outcome a parent reported (`source_message_id`, `kind`) for one other
-- parent (`parent`, the keyed hash of `impact.ts`), through that parent's own message to the
-- school (`message_id`: the address, name and contact come from it, and the update goes with it
-- when it is purged or erased). `state`: pending (with `lease_until` while an attempt holds it),
-- sent, or not sent (capped: an update went to this parent in the week before; limit: the address
-- had its emails for the day; stopped: the parent stopped updates; gone: the message is no more;
-- failed: HubSpot could not take it in MAX_ATTEMPTS tries).
CREATE TABLE school_updates (
  id                text PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 100),
  source_message_id text NOT NULL,
  kind              text NOT NULL CHECK (kind IN ('replied', 'meeting')),
  parent            text NOT NULL CHECK (length(parent) BETWEEN 1 AND 100),
  message_id        text NOT NULL REFERENCES outbox_messages (id) ON DELETE CASCADE,
  page              text,
  state             text NOT NULL CHECK (state IN ('pending', 'sent', 'capped', 'limit', 'stopped', 'gone', 'failed')),
  attempts          integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_attempt_at   timestamptz NOT NULL,
  lease_until       timestamptz,
  last_error        text,
  created_at        timestamptz NOT NULL,
  sent_at           timestamptz,
  CHECK ((state = 'sent') = (sent_at IS NOT NULL)),
  CONSTRAINT school_updates_once UNIQUE (source_message_id, kind, parent)
);
CREATE INDEX school_updates_due ON school_updates (next_attempt_at) WHERE state = 'pending';
CREATE INDEX school_updates_parent ON school_updates (parent);
CREATE INDEX school_updates_page ON school_updates (page) WHERE page IS NOT NULL;

-- When each parent last got an update: the weekly cap, kept by one upsert whose condition the
-- database checks again under the row's lock, so two runs never both send within the week.
CREATE TABLE school_update_weeks (
  parent       text PRIMARY KEY CHECK (length(parent) BETWEEN 1 AND 100),
  last_sent_at timestamptz NOT NULL
);

-- Parents who stopped updates (the keyed hash only; no address).
CREATE TABLE school_update_stops (
  parent     text PRIMARY KEY CHECK (length(parent) BETWEEN 1 AND 100),
  created_at timestamptz NOT NULL
);
