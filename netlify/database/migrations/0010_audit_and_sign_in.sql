-- The audit log and sign-in that strangers cannot break (issue 24, parts 2 and 3).

-- Who did what to parents' data, and when, and from where. Append-only: no row is ever changed,
-- and a row can be deleted only once it is more than a year old (the retention purge,
-- src/server/staff/audit.ts `purgeAuditLog`). `actor` is who acted: the signed-in admin username for
-- now (or the username tried, for a failed sign-in), a person's account id once staff have their
-- own; `address_hash` is a keyed hash (HMAC-SHA256) of the client's network (`clientAddressKey`).
CREATE TABLE audit_log (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at           timestamptz NOT NULL DEFAULT now(),
  actor        text NOT NULL CHECK (length(actor) BETWEEN 1 AND 200),
  action       text NOT NULL CHECK (action ~ '^[a-z_]{1,40}\.[a-z_]{1,40}$'),
  target       text CHECK (target IS NULL OR length(target) BETWEEN 1 AND 300),
  address_hash text CHECK (address_hash IS NULL OR address_hash ~ '^[0-9a-f]{64}$')
);
CREATE INDEX audit_log_at ON audit_log (at);
CREATE INDEX audit_log_action_id ON audit_log (action, id);
CREATE INDEX audit_log_actor_id ON audit_log (actor, id);

CREATE FUNCTION audit_log_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND OLD.at < now() - interval '1 year' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP USING ERRCODE = '42501';
END;
$$;
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();

-- Each session remembers a fingerprint of the admin password it was opened with: once the
-- password (ADMIN_PASSWORD or ADMIN_PASSWORD_HASH) changes, no session matches and all end.
ALTER TABLE admin_sessions ADD COLUMN password_fingerprint text;

-- Failed sign-ins are also counted per username and address together (`pair:`).
ALTER TABLE login_attempts DROP CONSTRAINT login_attempts_subject_check;
ALTER TABLE login_attempts ADD CONSTRAINT login_attempts_subject_check CHECK (subject ~ '^(ip|username|pair):[0-9a-f]{64}$');
