-- Parents' words are quoted only with their agreement (issue 46.4; DESIGN.md "Proof": the parent's
-- explicit agreement, asked apart from the letter, and a staff star). src/server/schools/starred-words.ts.

-- A parent's agreement that the words of one letter (its note and "What would this change for your
-- child?", source 'letter') or of their answer about it (its comment, source 'answer') may be quoted
-- on their school's page with their first name. One row per letter and source, kept only while the
-- agreement stands: unticking the box, a withdrawal from "Your data" or deleting the data removes it.
-- `parent` is the keyed hash of starred_words, so a withdrawal finds every agreement of one parent.
CREATE TABLE word_consents (
  message_id text NOT NULL REFERENCES outbox_messages (id) ON DELETE CASCADE,
  source     text NOT NULL CHECK (source IN ('letter', 'answer')),
  parent     text NOT NULL CHECK (length(parent) BETWEEN 1 AND 100),
  given_at   timestamptz NOT NULL,
  PRIMARY KEY (message_id, source)
);
CREATE INDEX word_consents_parent ON word_consents (parent);

-- The copy staff star is theirs to cut (a child's name, a detail that identifies): when and by whom
-- it was last edited. What the page shows is only this copy, never the letter itself.
ALTER TABLE starred_words ADD COLUMN edited_at timestamptz;
ALTER TABLE starred_words ADD COLUMN edited_by text CHECK (edited_by IS NULL OR length(edited_by) BETWEEN 1 AND 200);

-- Words starred before anyone was asked were published without agreement: they come down. Staff may
-- star them again once their parent agrees (on a new letter or answer).
DELETE FROM starred_words;
