-- The school email: drafts made from accepted email-form submissions, the messages made from them
-- (platform sends and the ones parents sent themselves), the limits on platform sends, the
-- parents' answers to the follow-up, and the impact figures that outlive the messages.

-- A draft keeps only the hash of its one-time send token. `record` holds the composed data.
CREATE TABLE email_drafts (
  id                   text PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 100),
  token_hash           text NOT NULL,
  created_at           timestamptz NOT NULL,
  message_id           text UNIQUE,
  self_sent_message_id text UNIQUE,
  version              integer NOT NULL DEFAULT 1 CHECK (version >= 1),
  record               jsonb NOT NULL
);
CREATE INDEX email_drafts_created_at ON email_drafts (created_at);

-- One row per message. Ids sort newest first. `work_left` and `follow_up_waiting` are what the
-- scheduled runs look for (partial indexes); `version` is the message's compare-and-swap token.
CREATE TABLE outbox_messages (
  id                text PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 100),
  draft_id          text NOT NULL,
  channel           text NOT NULL CHECK (channel IN ('platform', 'self')),
  status            text NOT NULL CHECK (status IN ('awaiting_confirmation', 'queued', 'sent', 'failed')),
  created_at        timestamptz NOT NULL,
  updated_at        timestamptz NOT NULL,
  sent_at           timestamptz,
  next_attempt_at   timestamptz NOT NULL,
  work_left         boolean NOT NULL,
  follow_up_waiting boolean NOT NULL,
  version           integer NOT NULL DEFAULT 1 CHECK (version >= 1),
  record            jsonb NOT NULL,
  CHECK (status <> 'sent' OR sent_at IS NOT NULL)
);
CREATE INDEX outbox_messages_work ON outbox_messages (next_attempt_at) WHERE work_left;
CREATE INDEX outbox_messages_follow_ups ON outbox_messages (id) WHERE follow_up_waiting;
CREATE INDEX outbox_messages_retention ON outbox_messages ((coalesce(sent_at, created_at)));
CREATE INDEX outbox_messages_draft_id ON outbox_messages (draft_id);

-- A parent's answer to "Did your school answer?", one per message; goes with its message.
CREATE TABLE school_answers (
  message_id   text PRIMARY KEY REFERENCES outbox_messages (id) ON DELETE CASCADE,
  kind         text NOT NULL CHECK (kind IN ('replied', 'meeting', 'no_answer', 'said_no')),
  sync_pending boolean NOT NULL,
  updated_at   timestamptz NOT NULL,
  version      integer NOT NULL DEFAULT 1 CHECK (version >= 1),
  record       jsonb NOT NULL
);
CREATE INDEX school_answers_sync ON school_answers (message_id) WHERE sync_pending;

-- Limits of "Send via our platform", as constraints. A claim is one row per message: the pair
-- (parent, school contact) is unique for as long as the message is kept, and each claim counts
-- once towards the day's sends of the school contact and of the parent, which may not pass
-- their cap. Addresses are kept only as hashes.
CREATE TABLE send_claims (
  message_id text PRIMARY KEY REFERENCES outbox_messages (id) ON DELETE CASCADE,
  pair_hash  text NOT NULL CONSTRAINT send_claims_one_per_pair UNIQUE,
  school     text NOT NULL,
  parent     text NOT NULL,
  day        date NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE school_daily_sends (
  school text NOT NULL,
  day    date NOT NULL,
  sends  integer NOT NULL,
  cap    integer NOT NULL,
  PRIMARY KEY (school, day),
  CONSTRAINT school_daily_sends_within_cap CHECK (sends <= cap)
);
CREATE INDEX school_daily_sends_day ON school_daily_sends (day);

CREATE TABLE parent_daily_sends (
  parent text NOT NULL,
  day    date NOT NULL,
  sends  integer NOT NULL,
  cap    integer NOT NULL,
  PRIMARY KEY (parent, day),
  CONSTRAINT parent_daily_sends_within_cap CHECK (sends <= cap)
);
CREATE INDEX parent_daily_sends_day ON parent_daily_sends (day);

-- Impact: one event per school email sent and per answer, without names or addresses (the school
-- as its domain, the parent as a keyed hash), kept after the messages are purged. The per-school
-- rows and the one totals row are kept up to date by the same statements that add the events, so
-- the public figures are one row read whatever the number of events.
CREATE TABLE impact_sends (
  message_id text PRIMARY KEY,
  school     text NOT NULL,
  parent     text NOT NULL,
  channel    text NOT NULL CHECK (channel IN ('platform', 'self')),
  sent_at    timestamptz NOT NULL
);
CREATE INDEX impact_sends_sent_at ON impact_sends (sent_at);

CREATE TABLE impact_answers (
  message_id  text PRIMARY KEY,
  school      text NOT NULL,
  kind        text NOT NULL CHECK (kind IN ('replied', 'meeting', 'no_answer', 'said_no')),
  answered_at timestamptz NOT NULL
);

CREATE TABLE impact_schools (
  school      text PRIMARY KEY,
  emails_sent integer NOT NULL DEFAULT 0 CHECK (emails_sent >= 0),
  responded   integer NOT NULL DEFAULT 0 CHECK (responded >= 0),
  meetings    integer NOT NULL DEFAULT 0 CHECK (meetings >= 0)
);

CREATE TABLE impact_parents (
  parent text PRIMARY KEY
);

CREATE TABLE impact_totals (
  id                   integer PRIMARY KEY CHECK (id = 1),
  schools_reached      integer NOT NULL CHECK (schools_reached >= 0),
  schools_answered     integer NOT NULL CHECK (schools_answered >= 0),
  schools_with_meeting integer NOT NULL CHECK (schools_with_meeting >= 0),
  parents_wrote        integer NOT NULL CHECK (parents_wrote >= 0)
);
