-- The letters of the school email in rotation: per school (the hash of its canonical contact
-- address, or of its name when no address was given) the letter it was last given, so the next
-- parent gets the one after it. No name or address is kept.
CREATE TABLE letter_rotations (
  school     text PRIMARY KEY CHECK (length(school) BETWEEN 1 AND 100),
  letter_id  text NOT NULL CHECK (length(letter_id) BETWEEN 1 AND 100),
  picks      integer NOT NULL CHECK (picks >= 1),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL
);

-- The letter each draft and each message was written in (the full text stays in `record`).
ALTER TABLE email_drafts ADD COLUMN letter_id text;
ALTER TABLE outbox_messages ADD COLUMN letter_id text;
CREATE INDEX outbox_messages_letter_id ON outbox_messages (letter_id);
