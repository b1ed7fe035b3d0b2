-- "Did your school answer?" gets WriteToThem's five answers beside "We have a meeting", and how
-- many days the reply took. "They said no" was a reply that answered: it becomes "replied".
ALTER TABLE school_answers DROP CONSTRAINT IF EXISTS school_answers_kind_check;
ALTER TABLE impact_answers DROP CONSTRAINT IF EXISTS impact_answers_kind_check;
UPDATE school_answers SET kind = 'replied', record = jsonb_set(record, '{kind}', '"replied"') WHERE kind = 'said_no';
UPDATE impact_answers SET kind = 'replied' WHERE kind = 'said_no';
ALTER TABLE school_answers ADD CONSTRAINT school_answers_kind_check
  CHECK (kind IN ('replied', 'replied_not_answered', 'acknowledged', 'meeting', 'no_reply_expected', 'no_answer'));
ALTER TABLE impact_answers ADD CONSTRAINT impact_answers_kind_check
  CHECK (kind IN ('replied', 'replied_not_answered', 'acknowledged', 'meeting', 'no_reply_expected', 'no_answer'));
ALTER TABLE impact_answers ADD COLUMN days_taken integer CHECK (days_taken IS NULL OR days_taken BETWEEN 0 AND 365);
