-- The Insights tab's language breakdown (issue 48): the roll-up keeps each day's figures by the
-- language of the page (`/es/…` is Spanish, the rest English) as a dimension of its own. Days rolled
-- up before this have no such rows, and before it Spanish pages were counted as "other": the
-- breakdown starts on the day this ran, and says nothing it cannot know about the days before.
ALTER TABLE analytics_daily DROP CONSTRAINT analytics_daily_dimension_check;
ALTER TABLE analytics_daily ADD CONSTRAINT analytics_daily_dimension_check
  CHECK (dimension IN ('all', 'page', 'source', 'campaign', 'ambassador', 'variant', 'letter', 'school', 'kind', 'language'));
