-- The language a parent wrote in (issue 48): the page the email form was on, "en" or "es". Every
-- email to the parent about their letter (confirmation, reminder, follow-ups, notices) and the pages
-- their links open are in it; the letter to the school is in the letter's own language, kept in the
-- record (`letterLocale`). Rows from before are English.
ALTER TABLE email_drafts ADD COLUMN locale text NOT NULL DEFAULT 'en' CHECK (locale IN ('en', 'es'));
ALTER TABLE outbox_messages ADD COLUMN locale text NOT NULL DEFAULT 'en' CHECK (locale IN ('en', 'es'));
