-- School pages (/schools/{key}): one per school contact address, keyed by a keyed hash of its
-- canonical form so that the pages cannot be listed or guessed. The page keeps the school's name
-- as parents last wrote it and the address the email form is filled with on the server (never
-- shown on the page). Counts and outcomes come from the impact events below.
CREATE TABLE school_pages (
  key             text PRIMARY KEY CHECK (key ~ '^[0-9a-f]{32}$'),
  school_name     text NOT NULL CHECK (length(school_name) <= 200),
  contact_address text NOT NULL CHECK (length(contact_address) <= 254),
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL
);

-- The school page a confirmed send counts towards (null for sends recorded before school pages,
-- or while the site has no secret to make keys with).
ALTER TABLE impact_sends ADD COLUMN page text;
CREATE INDEX impact_sends_page ON impact_sends (page) WHERE page IS NOT NULL;
