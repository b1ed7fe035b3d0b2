-- A letter arrives, or its parent knows why (issue 45): one life for every letter, no silent ends,
-- no duplicates. src/server/letter/life.ts names every state below and is the only writer of
-- `outbox_messages.status`; the mail layer (src/server/mail/queue.ts) the only writer of `emails.state`.

-- A letter's last states: `delivered` (the provider said it arrived), `withdrawn` (stopped before it
-- went: the school asked for no more mail, the parent deleted their data, staff), `expired` (a
-- request nobody confirmed in time, or a confirmed letter that could not go within its time).
ALTER TABLE outbox_messages DROP CONSTRAINT outbox_messages_status_check;
UPDATE outbox_messages SET status = 'expired', record = record || '{"status":"expired"}'::jsonb
  WHERE status = 'failed' AND record->>'lastError' = 'not_confirmed_in_time';
ALTER TABLE outbox_messages ADD CONSTRAINT outbox_messages_status_check
  CHECK (status IN ('awaiting_confirmation', 'queued', 'sent', 'delivered', 'bounced', 'failed', 'withdrawn', 'expired', 'replaced'));
ALTER TABLE outbox_messages DROP CONSTRAINT outbox_messages_check;
ALTER TABLE outbox_messages ADD CONSTRAINT outbox_messages_sent_at_check CHECK (status NOT IN ('sent', 'delivered') OR sent_at IS NOT NULL);

-- An email's outcome may be unknown (the connection ended after the message was handed over): it is
-- reconciled, never resent blindly. A digest is prepared (its letters claimed) before it is written.
ALTER TABLE emails DROP CONSTRAINT emails_state_check;
ALTER TABLE emails ADD CONSTRAINT emails_state_check
  CHECK (state IN ('preparing', 'scheduled', 'sending', 'unknown', 'sent', 'delivered', 'bounced', 'complained', 'failed', 'suppressed', 'withdrawn', 'digested'));
ALTER TABLE emails DROP CONSTRAINT emails_check1;
ALTER TABLE emails ADD CONSTRAINT emails_content_check CHECK (erased_at IS NOT NULL OR state = 'preparing' OR (recipient IS NOT NULL AND content IS NOT NULL));
ALTER TABLE emails DROP CONSTRAINT emails_kind_check;
ALTER TABLE emails ADD CONSTRAINT emails_kind_check CHECK (kind IN (
  'confirmation', 'reminder', 'refusal', 'follow_up', 'second_follow_up', 'school_update', 'data_link', 'staff_invitation',
  'delivery_failure', 'letter_not_sent', 'self_report', 'digest_notice', 'ambassador_link', 'school_letter', 'school_digest'));

-- Letters and digests carry the school they go to: its key (a hash of the school record, or of the
-- exact address for a school the site does not know), its hours at scheduling, and the clock hour
-- whose place the letter holds. A run re-checks the hours and the hourly maximum when it claims one.
ALTER TABLE emails ADD COLUMN school_key text CHECK (school_key IS NULL OR school_key ~ '^[0-9a-f]{32}$');
ALTER TABLE emails ADD COLUMN school_window jsonb;
ALTER TABLE emails ADD COLUMN slot_hour timestamptz;
-- The mailbox an email reaches for counting one person's emails (no +tag, Gmail's dots); the
-- suppression list keys the exact address (`recipient_key`), so a stranger's `head+x@` bounce
-- never blocks `head@`.
ALTER TABLE emails ADD COLUMN mailbox_key text CHECK (mailbox_key IS NULL OR mailbox_key ~ '^[0-9a-f]{32}$');
UPDATE emails SET mailbox_key = recipient_key;
CREATE INDEX emails_digestible ON emails (school_key, next_attempt_at) WHERE kind = 'school_letter' AND state = 'scheduled';
CREATE INDEX emails_unknown ON emails (updated_at) WHERE state IN ('unknown', 'preparing');
CREATE INDEX emails_digest ON emails (digest_id) WHERE digest_id IS NOT NULL;

-- Suppression fits its cause: only a mailbox that does not exist (or a complaint) blocks an address,
-- for a time (renewed by a new bounce); staff may lift a block (audited). A policy or spam refusal
-- fails that one message.
ALTER TABLE email_suppressions ADD COLUMN expires_at timestamptz;
UPDATE email_suppressions SET expires_at = created_at + interval '180 days';
ALTER TABLE email_suppressions ALTER COLUMN expires_at SET NOT NULL;
ALTER TABLE email_suppressions ADD COLUMN renewed_at timestamptz;
ALTER TABLE email_suppressions ADD COLUMN lifted_at timestamptz;
ALTER TABLE email_suppressions ADD COLUMN lifted_by text CHECK (lifted_by IS NULL OR length(lifted_by) BETWEEN 1 AND 200);
CREATE INDEX email_suppressions_active ON email_suppressions (expires_at) WHERE lifted_at IS NULL;

-- A provider's report about an email this site has not recorded yet (sent by a run that has not
-- written its answer): kept, and applied when the email is recorded.
CREATE TABLE mail_reports_waiting (
  email_id    text NOT NULL CHECK (email_id ~ '^[A-Za-z0-9._-]{1,100}$'),
  event       text NOT NULL CHECK (event IN ('delivered', 'bounced', 'failed', 'complained')),
  detail      text CHECK (detail IS NULL OR length(detail) <= 200),
  received_at timestamptz NOT NULL,
  PRIMARY KEY (email_id, event)
);
CREATE INDEX mail_reports_waiting_received ON mail_reports_waiting (received_at);

-- Every email to one mailbox a day, across every purpose and network: the ceiling a stranger asking
-- from many networks cannot pass. Over it, waiting requests are gathered into one email that is
-- updated, not sent again (`emails.coalesce_key`).
CREATE TABLE recipient_days (
  mailbox_key text NOT NULL CHECK (mailbox_key ~ '^[0-9a-f]{32}$'),
  day         date NOT NULL,
  emails      integer NOT NULL,
  cap         integer NOT NULL,
  PRIMARY KEY (mailbox_key, day),
  CONSTRAINT recipient_days_within_cap CHECK (emails <= cap)
);
CREATE INDEX recipient_days_day ON recipient_days (day);
ALTER TABLE emails ADD COLUMN coalesce_key text CHECK (coalesce_key IS NULL OR length(coalesce_key) <= 120);
CREATE UNIQUE INDEX emails_coalescing ON emails (coalesce_key) WHERE coalesce_key IS NOT NULL AND state = 'scheduled';

-- Requests not yet confirmed from one network (`send_request_days`, scope 'network:…'): the count
-- is given back when a request is confirmed (a parents' evening on one Wi-Fi confirms as it goes),
-- and the bound is said plainly when it is reached. The per-school-and-network bound is gone: the
-- school gets nothing until a parent confirms, and its own daily cap holds then.
DELETE FROM send_request_days WHERE scope LIKE 'school:%';

-- A draft from a submission held as automated (the honeypot, far too fast) previews and copies,
-- but gives no power (no platform send, no self-report) until staff release the submission.
ALTER TABLE email_drafts ADD COLUMN held boolean NOT NULL DEFAULT false;
