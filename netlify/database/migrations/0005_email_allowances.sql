-- Every email the site causes to one address (a confirmation link, a follow-up link) counts
-- towards a cap a day, so nobody can bomb an address they typed into a form. The address is
-- kept only as a hash.
CREATE TABLE recipient_daily_emails (
  recipient text NOT NULL,
  day       date NOT NULL,
  emails    integer NOT NULL,
  cap       integer NOT NULL,
  PRIMARY KEY (recipient, day),
  CONSTRAINT recipient_daily_emails_within_cap CHECK (emails <= cap)
);
CREATE INDEX recipient_daily_emails_day ON recipient_daily_emails (day);
