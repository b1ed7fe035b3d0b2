-- The site owns its mail (issue 29): every email the site sends is a row here, written by the site,
-- sent by one mail layer (src/server/mail/), with a delivery state that the sender's answer and the
-- provider's signed reports move. See src/server/mail/states.ts for the life of one email.

-- One row per email. `id` is the Message-ID's local part and the provider's idempotency key (a retry
-- sends nothing twice). The recipient is kept as typed (for sending) and as a hash of the mailbox it
-- reaches (`recipient_key`: suppression, budgets, digests); `content` is exactly what is sent. Both
-- are emptied when the person asks for their data to be deleted (`erased_at`).
CREATE TABLE emails (
  id              text PRIMARY KEY CHECK (id ~ '^[A-Za-z0-9._-]{1,100}$'),
  kind            text NOT NULL CHECK (kind IN (
                    'confirmation', 'reminder', 'refusal', 'follow_up', 'second_follow_up', 'school_update',
                    'data_link', 'staff_invitation', 'delivery_failure', 'digest_notice', 'ambassador_link',
                    'school_letter', 'school_digest')),
  recipient       text CHECK (recipient IS NULL OR length(recipient) BETWEEN 3 AND 254),
  recipient_key   text NOT NULL CHECK (recipient_key ~ '^[0-9a-f]{32}$'),
  essential       boolean NOT NULL,
  state           text NOT NULL CHECK (state IN ('scheduled', 'sending', 'sent', 'delivered', 'bounced', 'complained', 'failed', 'suppressed', 'withdrawn', 'digested')),
  not_before      timestamptz NOT NULL,
  next_attempt_at timestamptz NOT NULL,
  lease_until     timestamptz,
  attempts        integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  ref             text CHECK (ref IS NULL OR length(ref) <= 200),
  digest_id       text REFERENCES emails (id) ON DELETE SET NULL,
  content         jsonb,
  sender          text CHECK (sender IS NULL OR sender IN ('smtp', 'hubspot')),
  provider_status text CHECK (provider_status IS NULL OR length(provider_status) <= 100),
  last_error      text CHECK (last_error IS NULL OR length(last_error) <= 200),
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL,
  sent_at         timestamptz,
  erased_at       timestamptz,
  CHECK (state NOT IN ('sent', 'delivered', 'complained') OR sent_at IS NOT NULL),
  CHECK (erased_at IS NOT NULL OR (recipient IS NOT NULL AND content IS NOT NULL))
);
CREATE INDEX emails_due ON emails (next_attempt_at) WHERE state IN ('scheduled', 'sending');
CREATE INDEX emails_ref ON emails (ref) WHERE ref IS NOT NULL;
CREATE INDEX emails_recipient ON emails (recipient_key, created_at);
CREATE INDEX emails_kind_created ON emails (kind, created_at);
CREATE INDEX emails_retention ON emails ((coalesce(sent_at, created_at)));

-- Addresses no email may reach again: a hard bounce stops everything, a complaint every email the
-- person did not just ask for. The mailbox as a hash; `masked` is what staff see (h•••@school.edu).
CREATE TABLE email_suppressions (
  recipient_key text PRIMARY KEY CHECK (recipient_key ~ '^[0-9a-f]{32}$'),
  reason        text NOT NULL CHECK (reason IN ('bounced', 'complained')),
  masked        text NOT NULL CHECK (length(masked) BETWEEN 1 AND 260),
  email_id      text,
  detail        text CHECK (detail IS NULL OR length(detail) <= 200),
  created_at    timestamptz NOT NULL
);

-- Emails to one mailbox, a day at a time, per purpose (a confirmation is never starved by data
-- links) and per network that asked (a stranger elsewhere cannot spend a parent's own allowance).
-- Emails nobody asked for just now (follow-ups, updates) count under the network 'system'.
CREATE TABLE email_budgets (
  recipient_key text NOT NULL CHECK (recipient_key ~ '^[0-9a-f]{32}$'),
  purpose       text NOT NULL CHECK (purpose IN ('confirm', 'data', 'follow_up', 'update', 'invite', 'notice')),
  network       text NOT NULL CHECK (network ~ '^([0-9a-f]{32}|system)$'),
  day           date NOT NULL,
  emails        integer NOT NULL,
  cap           integer NOT NULL,
  PRIMARY KEY (recipient_key, purpose, network, day),
  CONSTRAINT email_budgets_within_cap CHECK (emails <= cap)
);
CREATE INDEX email_budgets_day ON email_budgets (day);

-- Letters to one school in one clock hour: at most a few (SCHOOL_HOURLY_LIMIT), spread out.
CREATE TABLE school_delivery_hours (
  school  text NOT NULL CHECK (school ~ '^[0-9a-f]{32}$'),
  hour    timestamptz NOT NULL,
  letters integer NOT NULL,
  cap     integer NOT NULL,
  PRIMARY KEY (school, hour),
  CONSTRAINT school_delivery_hours_within_cap CHECK (letters <= cap)
);
CREATE INDEX school_delivery_hours_hour ON school_delivery_hours (hour);

-- Signed provider reports already taken (their token), so a replay changes nothing.
CREATE TABLE mail_event_tokens (
  token      text PRIMARY KEY CHECK (length(token) BETWEEN 1 AND 200),
  created_at timestamptz NOT NULL
);
CREATE INDEX mail_event_tokens_created_at ON mail_event_tokens (created_at);

-- The limits on links the site emailed before it had its own mail (replaced by email_budgets).
DROP TABLE recipient_daily_emails;
