-- Admin sessions: the id lives only in the visitor's cookie; the table keeps its SHA-256.
CREATE TABLE admin_sessions (
  id_hash      text PRIMARY KEY CHECK (id_hash ~ '^[0-9a-f]{64}$'),
  username     text NOT NULL,
  created_at   timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  CHECK (last_seen_at >= created_at)
);
CREATE INDEX admin_sessions_last_seen_at ON admin_sessions (last_seen_at);

-- Sign-in attempts per subject (a hashed address or username) in a 15-minute window. An attempt
-- is counted before the password is checked, so parallel guesses cannot outrun the limit.
CREATE TABLE login_attempts (
  subject      text PRIMARY KEY CHECK (subject ~ '^(ip|username):[0-9a-f]{64}$'),
  failures     integer NOT NULL CHECK (failures >= 0),
  window_start timestamptz NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX login_attempts_window_start ON login_attempts (window_start);

-- Form submissions per client (a hashed address, IPv6 by /64) per 10-minute window.
CREATE TABLE form_rate_windows (
  client       text NOT NULL CHECK (client ~ '^[0-9a-f]{64}$'),
  window_start timestamptz NOT NULL,
  submissions  integer NOT NULL CHECK (submissions >= 1),
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (client, window_start)
);
CREATE INDEX form_rate_windows_window_start ON form_rate_windows (window_start);
