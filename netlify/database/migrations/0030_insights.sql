-- Insights (issue 30): what moves parents, measured without tracking them.

-- Raw events, kept only until their day is rolled up (two days at most): the beacon's page views,
-- form starts and shares, and the server's steps (forms sent, drafts, send requests,
-- confirmations, deliveries, answers). `visitor` is a keyed hash of the network and the browser
-- under a key that changes every day (src/server/analytics/visitor.ts); no address, no user agent,
-- no name is ever stored. `journey` names the draft a server step belongs to.
CREATE TABLE analytics_events (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at         timestamptz NOT NULL DEFAULT now(),
  day        date NOT NULL,
  name       text NOT NULL CHECK (name IN ('page_view', 'form_start', 'form_sent', 'draft', 'send_request', 'confirmed', 'delivered', 'share', 'answer')),
  visitor    text CHECK (visitor IS NULL OR visitor ~ '^[0-9a-f]{32}$'),
  page       text CHECK (page IS NULL OR length(page) BETWEEN 1 AND 200),
  source     text CHECK (source IS NULL OR length(source) BETWEEN 1 AND 100),
  campaign   text CHECK (campaign IS NULL OR length(campaign) BETWEEN 1 AND 100),
  ambassador text CHECK (ambassador IS NULL OR length(ambassador) BETWEEN 1 AND 100),
  variant    text CHECK (variant IS NULL OR length(variant) BETWEEN 1 AND 100),
  letter     text CHECK (letter IS NULL OR length(letter) BETWEEN 1 AND 100),
  school     text CHECK (school IS NULL OR school ~ '^[0-9a-f]{32}$'),
  kind       text CHECK (kind IS NULL OR kind ~ '^[a-z_]{1,40}$'),
  journey    text CHECK (journey IS NULL OR length(journey) BETWEEN 1 AND 100)
);
CREATE INDEX analytics_events_day ON analytics_events (day);
CREATE INDEX analytics_events_visitor_day ON analytics_events (visitor, day, id) WHERE visitor IS NOT NULL;

-- One row per day, event, dimension and value: what the Insights tab reads (days, not events).
-- `visitors` are the day's distinct visitor hashes; a visitor on two days counts on each.
CREATE TABLE analytics_daily (
  day       date NOT NULL,
  name      text NOT NULL,
  dimension text NOT NULL CHECK (dimension IN ('all', 'page', 'source', 'campaign', 'ambassador', 'variant', 'letter', 'school', 'kind')),
  value     text NOT NULL CHECK (length(value) <= 200),
  events    integer NOT NULL CHECK (events >= 0),
  visitors  integer NOT NULL CHECK (visitors >= 0),
  PRIMARY KEY (day, name, dimension, value)
);
CREATE INDEX analytics_daily_dimension ON analytics_daily (dimension, day);

-- The days already rolled up: their raw events are gone, their figures final.
CREATE TABLE analytics_rolled_days (
  day       date PRIMARY KEY,
  rolled_at timestamptz NOT NULL
);

-- One row per school email draft: where the parent came from when they sent the form (page,
-- source, campaign, ambassador, experiment variant, letter, school page) and the steps it reached
-- since, so that a confirmation from the inbox days later still counts for the link, letter or
-- variant that brought it. No name or address: the draft id and the school page's keyed hash.
CREATE TABLE analytics_journeys (
  draft_id     text PRIMARY KEY CHECK (length(draft_id) BETWEEN 1 AND 100),
  created_at   timestamptz NOT NULL,
  page         text CHECK (page IS NULL OR length(page) BETWEEN 1 AND 200),
  source       text CHECK (source IS NULL OR length(source) BETWEEN 1 AND 100),
  campaign     text CHECK (campaign IS NULL OR length(campaign) BETWEEN 1 AND 100),
  ambassador   text CHECK (ambassador IS NULL OR length(ambassador) BETWEEN 1 AND 100),
  variant      text CHECK (variant IS NULL OR length(variant) BETWEEN 1 AND 100),
  letter       text CHECK (letter IS NULL OR length(letter) BETWEEN 1 AND 100),
  school       text CHECK (school IS NULL OR school ~ '^[0-9a-f]{32}$'),
  requested_at timestamptz,
  confirmed_at timestamptz,
  delivered_at timestamptz,
  answer_kind  text CHECK (answer_kind IS NULL OR answer_kind ~ '^[a-z_]{1,40}$'),
  answered_at  timestamptz
);
CREATE INDEX analytics_journeys_created_at ON analytics_journeys (created_at);
CREATE INDEX analytics_journeys_ambassador ON analytics_journeys (ambassador) WHERE ambassador IS NOT NULL;
CREATE INDEX analytics_journeys_variant ON analytics_journeys (variant) WHERE variant IS NOT NULL;
CREATE INDEX analytics_journeys_letter ON analytics_journeys (letter) WHERE letter IS NOT NULL;

-- Beacon flood control: events per client network and minute (hashed).
CREATE TABLE analytics_rate_windows (
  client       text NOT NULL CHECK (client ~ '^[0-9a-f]{64}$'),
  window_start timestamptz NOT NULL,
  events       integer NOT NULL CHECK (events >= 1),
  PRIMARY KEY (client, window_start)
);
CREATE INDEX analytics_rate_windows_start ON analytics_rate_windows (window_start);

-- Experiments: an A/B(/n) test of one place's words (content/experiments/{place}.yaml). At most
-- one runs on a place (the partial unique index); an experiment ends once, with its winner.
CREATE TABLE experiments (
  id         text PRIMARY KEY CHECK (id ~ '^[a-z0-9-]{1,40}$'),
  place      text NOT NULL CHECK (place ~ '^[a-z0-9-]{1,40}$'),
  name       text NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
  variants   text[] NOT NULL CHECK (cardinality(variants) BETWEEN 2 AND 6),
  state      text NOT NULL CHECK (state IN ('running', 'ended')),
  winner     text,
  started_at timestamptz NOT NULL,
  ended_at   timestamptz,
  started_by text NOT NULL CHECK (length(started_by) BETWEEN 1 AND 200),
  CHECK ((state = 'ended') = (ended_at IS NOT NULL)),
  CHECK (winner IS NULL OR winner = ANY(variants))
);
CREATE UNIQUE INDEX experiments_one_running_per_place ON experiments (place) WHERE state = 'running';

-- Ambassadors the organisation knows: staff add them; only these ids count as an ambassador's.
CREATE TABLE ambassadors (
  id         text PRIMARY KEY CHECK (id ~ '^[A-Za-z0-9_-]{1,100}$'),
  name       text NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
  email      text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
  created_at timestamptz NOT NULL,
  created_by text NOT NULL CHECK (length(created_by) BETWEEN 1 AND 200)
);

-- Parents' words staff chose for a school's page: a copy of the words and the first name only,
-- the source it came from, and the parent as the keyed hash of impact.ts so that they can withdraw
-- them. Nothing a parent wrote is shown anywhere unless it has a row here.
CREATE TABLE starred_words (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  message_id  text NOT NULL CHECK (length(message_id) BETWEEN 1 AND 100),
  field       text NOT NULL CHECK (field IN ('note', 'own_words', 'answer_comment')),
  school_page text NOT NULL CHECK (school_page ~ '^[0-9a-f]{32}$'),
  parent      text NOT NULL CHECK (length(parent) BETWEEN 1 AND 100),
  first_name  text NOT NULL CHECK (length(first_name) BETWEEN 1 AND 60),
  words       text NOT NULL CHECK (length(words) BETWEEN 1 AND 2000),
  starred_at  timestamptz NOT NULL,
  starred_by  text NOT NULL CHECK (length(starred_by) BETWEEN 1 AND 200),
  CONSTRAINT starred_words_once UNIQUE (message_id, field)
);
CREATE INDEX starred_words_school_page ON starred_words (school_page, starred_at DESC);
CREATE INDEX starred_words_parent ON starred_words (parent);

-- Parents who withdrew their words: staff cannot star them again.
CREATE TABLE starred_words_withdrawals (
  parent       text PRIMARY KEY CHECK (length(parent) BETWEEN 1 AND 100),
  withdrawn_at timestamptz NOT NULL
);
