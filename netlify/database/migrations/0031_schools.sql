-- Known schools (issue 44): a school is a record staff verify, not what one parent typed.
--
-- `schools` holds every school the site knows of: verified ones (staff checked them against
-- evidence: the school's website, a reply from the address, a note), proposals (a school a parent
-- typed into a letter or nominated; letters to it still go, to the address the parent typed, but
-- nothing public rests on it) and retired ones (closed, or merged into another record). Only
-- src/server/schools/ writes these tables.
CREATE TABLE schools (
  id            text PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 100),
  name          text NOT NULL CHECK (length(name) BETWEEN 1 AND 150),
  -- The readable part of its page's link (/schools/{slug}-{page_key}).
  slug          text NOT NULL CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' AND length(slug) <= 60),
  city          text CHECK (city IS NULL OR length(city) <= 100),
  status        text NOT NULL CHECK (status IN ('proposed', 'verified', 'retired')),
  source        text NOT NULL CHECK (source IN ('nomination', 'letter', 'staff', 'import')),
  -- What a proposal is known by, so that a flood of the same typed school makes one proposal:
  -- 'address:{exact lower-cased address}' for a letter's, 'name:{folded name}|{folded city}' for a nomination's.
  proposal_key  text UNIQUE CHECK (proposal_key IS NULL OR length(proposal_key) <= 400),
  -- Its page's key: random, so pages cannot be listed or guessed.
  page_key      text NOT NULL UNIQUE CHECK (page_key ~ '^[0-9a-f]{32}$'),
  -- [{ name, role, address }]: the people parents write to, the first the default.
  leaders       jsonb NOT NULL DEFAULT '[]'::jsonb CHECK (jsonb_typeof(leaders) = 'array' AND jsonb_array_length(leaders) <= 10),
  email_domains text[] NOT NULL DEFAULT '{}',
  website       text CHECK (website IS NULL OR length(website) <= 200),
  time_zone     text NOT NULL CHECK (length(time_zone) BETWEEN 1 AND 64),
  -- { days: [1..5], opens: "08:00", closes: "16:00" } in the school's time zone.
  hours         jsonb NOT NULL,
  holidays      date[] NOT NULL DEFAULT '{}',
  -- What staff relied on to verify it: { kind: website | reply | note, detail }.
  evidence      jsonb,
  merged_into   text REFERENCES schools (id),
  -- The name (and city) folded to plain lower-case letters and digits, what suggestions search.
  search        text NOT NULL,
  created_at    timestamptz NOT NULL,
  updated_at    timestamptz NOT NULL,
  verified_at   timestamptz,
  verified_by   text CHECK (verified_by IS NULL OR length(verified_by) BETWEEN 1 AND 200),
  CHECK (status <> 'verified' OR (verified_at IS NOT NULL AND evidence IS NOT NULL)),
  CHECK (merged_into IS NULL OR (status = 'retired' AND merged_into <> id))
);
CREATE INDEX schools_status ON schools (status, created_at);
CREATE INDEX schools_search ON schools (search text_pattern_ops) WHERE status = 'verified';

-- The directory: every address of a verified school, exactly as written (lower case). An address
-- is the official contact of one school at most; only verified schools are in it, so only they are
-- offered to other parents, keyed by, and counted.
CREATE TABLE school_addresses (
  address   text PRIMARY KEY CHECK (address = lower(address) AND length(address) BETWEEN 3 AND 254),
  school_id text NOT NULL REFERENCES schools (id) ON DELETE CASCADE
);
CREATE INDEX school_addresses_school ON school_addresses (school_id);

-- The school record a letter was written to (a verified school, or the proposal its typed school made).
ALTER TABLE outbox_messages ADD COLUMN school_id text REFERENCES schools (id);
CREATE INDEX outbox_messages_school_id ON outbox_messages (school_id) WHERE school_id IS NOT NULL;

-- Pages published before schools were records rested on a letter the platform delivered: they
-- become verified schools, keeping their key (shared links keep working) and their address.
-- Their hours are the site's defaults in New York's time (SCHOOL_TIME_ZONE's default); staff edit them.
INSERT INTO schools (id, name, slug, status, source, page_key, leaders, email_domains, time_zone, hours, evidence, search, created_at, updated_at, verified_at, verified_by)
SELECT 'page-' || p.key,
       left(coalesce(nullif(trim(p.school_name), ''), split_part(p.contact_address, '@', 2)), 150),
       coalesce(p.slug, 'school'),
       'verified', 'letter', p.key,
       jsonb_build_array(jsonb_build_object('name', '', 'role', '', 'address', p.contact_address)),
       ARRAY[split_part(p.contact_address, '@', 2)],
       'America/New_York',
       '{"days":[1,2,3,4,5],"opens":"08:00","closes":"16:00"}'::jsonb,
       jsonb_build_object('kind', 'note', 'detail', 'Published before schools were records, by a letter the platform delivered there or a staff decision'),
       regexp_replace(lower(coalesce(p.school_name, '')), '[^a-z0-9]+', '', 'g'),
       p.created_at, p.updated_at, p.published_at, 'migration 0031'
FROM school_pages p
WHERE p.published_at IS NOT NULL;

INSERT INTO school_addresses (address, school_id)
SELECT lower(p.contact_address), 'page-' || p.key FROM school_pages p WHERE p.published_at IS NOT NULL
ON CONFLICT (address) DO NOTHING;

UPDATE outbox_messages o SET school_id = a.school_id
FROM school_addresses a WHERE a.address = lower(trim(o.record->>'to'));

-- A school page is now the page of a verified school: the readers of `school_pages` (campaigns,
-- ambassadors, insights) read the records through this view; nothing writes it.
DROP TABLE school_pages;
CREATE VIEW school_pages AS
  SELECT page_key AS key, name AS school_name, coalesce(leaders->0->>'address', '') AS contact_address,
         created_at, updated_at, verified_at AS published_at, 'staff'::text AS name_set_by, slug, id AS school_id
  FROM schools WHERE status = 'verified';

-- A letter to a verified school sent to an address its record does not list: the parent's own
-- choice (it is their letter), flagged once per school and address for staff, who add the address
-- to the record or dismiss it. Such an address is never offered to other parents.
CREATE TABLE school_address_flags (
  school_id  text NOT NULL REFERENCES schools (id) ON DELETE CASCADE,
  address    text NOT NULL CHECK (address = lower(address) AND length(address) BETWEEN 3 AND 254),
  letters    integer NOT NULL CHECK (letters >= 1),
  state      text NOT NULL CHECK (state IN ('open', 'added', 'dismissed')),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (school_id, address)
);
CREATE INDEX school_address_flags_open ON school_address_flags (created_at) WHERE state = 'open';

-- An outcome a parent reports ("they replied", "we have a meeting") speaks for the school, whose
-- answer went to the parent, not to us: it waits for staff on every letter, not only self-reports.
ALTER TABLE review_items DROP CONSTRAINT review_items_reason_check;
ALTER TABLE review_items ADD CONSTRAINT review_items_reason_check
  CHECK (reason IN ('self_report', 'outcome_on_self_report', 'outcome_reported', 'own_domain'));
