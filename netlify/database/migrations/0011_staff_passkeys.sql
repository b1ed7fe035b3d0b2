-- Staff one by one with passkeys (issue 24, part 1). See src/server/staff/members.ts.

-- The people who may sign in to /webhook-config. A person is created when they register their
-- first passkey (the first owner from the bootstrap password, everyone else from an invitation),
-- and removed by deleting the row: their passkeys and sessions go with it at once.
CREATE TABLE staff (
  id              uuid PRIMARY KEY,
  email           text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
  email_canonical text NOT NULL UNIQUE CHECK (length(email_canonical) BETWEEN 3 AND 254),
  role            text NOT NULL CHECK (role IN ('owner', 'staff')),
  created_at      timestamptz NOT NULL DEFAULT now(),
  invited_by      text
);
CREATE INDEX staff_role ON staff (role);

-- Each person's passkeys (WebAuthn credentials). The public key is COSE, base64url; the counter
-- is the authenticator's signature counter (0 for those that do not count).
CREATE TABLE staff_passkeys (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  staff_id      uuid NOT NULL REFERENCES staff (id) ON DELETE CASCADE,
  credential_id text NOT NULL UNIQUE CHECK (credential_id ~ '^[A-Za-z0-9_-]+$' AND length(credential_id) BETWEEN 16 AND 1400),
  public_key    text NOT NULL CHECK (public_key ~ '^[A-Za-z0-9_-]+$' AND length(public_key) BETWEEN 16 AND 4000),
  counter       bigint NOT NULL DEFAULT 0 CHECK (counter >= 0),
  transports    text NOT NULL DEFAULT '' CHECK (transports ~ '^[a-z-]{0,20}(,[a-z-]{1,20}){0,8}$'),
  label         text NOT NULL CHECK (length(label) BETWEEN 1 AND 100),
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_used_at  timestamptz
);
CREATE INDEX staff_passkeys_staff_id ON staff_passkeys (staff_id);

-- Invitations: the link's token lives only in the link (and the HubSpot property a workflow emails);
-- the table keeps its SHA-256. Valid 72 hours, used once.
CREATE TABLE staff_invitations (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  token_hash      text NOT NULL UNIQUE CHECK (token_hash ~ '^[A-Za-z0-9_-]{43}$'),
  email           text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
  email_canonical text NOT NULL CHECK (length(email_canonical) BETWEEN 3 AND 254),
  role            text NOT NULL CHECK (role IN ('owner', 'staff')),
  invited_by      text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  expires_at      timestamptz NOT NULL,
  used_at         timestamptz,
  staff_id        uuid REFERENCES staff (id) ON DELETE SET NULL,
  CHECK (expires_at > created_at)
);
CREATE INDEX staff_invitations_expires_at ON staff_invitations (expires_at);

-- WebAuthn challenges: one per ceremony, deleted when used (single use) and worthless after
-- `expires_at`. Bound to what they were asked for: a sign-in; the bootstrap owner's registration
-- (their session, the email they gave); an invitation; a signed-in person adding a passkey (their
-- session). `staff_id` is the WebAuthn user handle the registration was offered with.
CREATE TABLE webauthn_challenges (
  challenge     text PRIMARY KEY CHECK (challenge ~ '^[A-Za-z0-9_-]{16,200}$'),
  purpose       text NOT NULL CHECK (purpose IN ('sign_in', 'bootstrap', 'invitation', 'add')),
  staff_id      uuid,
  invitation_id bigint REFERENCES staff_invitations (id) ON DELETE CASCADE,
  session_hash  text CHECK (session_hash IS NULL OR session_hash ~ '^[0-9a-f]{64}$'),
  email         text,
  created_at    timestamptz NOT NULL DEFAULT now(),
  expires_at    timestamptz NOT NULL,
  CHECK (purpose <> 'invitation' OR invitation_id IS NOT NULL),
  CHECK (purpose NOT IN ('bootstrap', 'add') OR session_hash IS NOT NULL)
);
CREATE INDEX webauthn_challenges_expires_at ON webauthn_challenges (expires_at);

-- A session opened with a passkey names the person and the passkey: removing either ends it at
-- once. A session without a person is the bootstrap password's, valid only while no owner exists.
ALTER TABLE admin_sessions
  ADD COLUMN staff_id uuid REFERENCES staff (id) ON DELETE CASCADE,
  ADD COLUMN passkey_id bigint REFERENCES staff_passkeys (id) ON DELETE CASCADE,
  ADD COLUMN role text NOT NULL DEFAULT 'owner' CHECK (role IN ('owner', 'staff'));
CREATE INDEX admin_sessions_staff_id ON admin_sessions (staff_id);
CREATE INDEX admin_sessions_passkey_id ON admin_sessions (passkey_id);
