-- The abuse watch (issue 46, part 5): what one network, email domain, school or form is doing this
-- hour and day, the block lists staff keep, and the letters a burst left behind made void.
--
-- `abuse_requests`: one compact row per request at an entry point (a form, an email draft, a
-- "send via our platform", an "I've sent it myself", a nomination). Never a whole IP address or a
-- parent's address: the network as its prefix (IPv4 /24, IPv6 /64), the parent's email domain, the
-- school's key, the form. `subject` names the letter a send or a self-report made, so that staff
-- can void it. Kept 8 days (the scheduled abuse-watch run deletes older rows).
CREATE TABLE abuse_requests (
  id           bigserial PRIMARY KEY,
  kind         text NOT NULL CHECK (kind IN ('form', 'draft', 'send', 'self_report', 'nomination')),
  network      text NOT NULL CHECK (length(network) BETWEEN 1 AND 64),
  email_domain text CHECK (email_domain IS NULL OR length(email_domain) BETWEEN 1 AND 253),
  school       text CHECK (school IS NULL OR length(school) BETWEEN 1 AND 300),
  form         text CHECK (form IS NULL OR length(form) BETWEEN 1 AND 100),
  subject      text CHECK (subject IS NULL OR length(subject) BETWEEN 1 AND 120),
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX abuse_requests_created ON abuse_requests (created_at);
CREATE INDEX abuse_requests_network ON abuse_requests (network, created_at);
CREATE INDEX abuse_requests_domain ON abuse_requests (email_domain, created_at) WHERE email_domain IS NOT NULL;
CREATE INDEX abuse_requests_school ON abuse_requests (school, created_at) WHERE school IS NOT NULL;

-- `abuse_blocks`: a network prefix, an email domain (and its subdomains) or one address (as
-- `canonicalAddress` makes it: case, +tags and Gmail's dots are one mailbox) whose new requests are
-- refused. One live block per value; a removed one stays for the record.
CREATE TABLE abuse_blocks (
  id          bigserial PRIMARY KEY,
  kind        text NOT NULL CHECK (kind IN ('network', 'domain', 'address')),
  value       text NOT NULL CHECK (length(value) BETWEEN 1 AND 320),
  reason      text NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
  expires_at  timestamptz,
  created_by  text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  removed_at  timestamptz,
  removed_by  text
);
CREATE UNIQUE INDEX abuse_blocks_live ON abuse_blocks (kind, value) WHERE removed_at IS NULL;

-- A letter voided by staff (the set a burst left behind) ends there: its own dead end.
ALTER TABLE outbox_messages DROP CONSTRAINT outbox_messages_status_check;
ALTER TABLE outbox_messages ADD CONSTRAINT outbox_messages_status_check
  CHECK (status IN ('awaiting_confirmation', 'queued', 'sent', 'delivered', 'bounced', 'failed', 'withdrawn', 'expired', 'replaced', 'voided'));

-- The owners' alert when a network, domain or school runs past its usual rate.
ALTER TABLE emails DROP CONSTRAINT emails_kind_check;
ALTER TABLE emails ADD CONSTRAINT emails_kind_check CHECK (kind IN (
  'confirmation', 'reminder', 'refusal', 'follow_up', 'second_follow_up', 'school_update', 'data_link', 'staff_invitation',
  'delivery_failure', 'letter_not_sent', 'self_report', 'digest_notice', 'ambassador_link', 'school_letter', 'school_digest',
  'abuse_alert'));
