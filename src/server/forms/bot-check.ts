/**
 * Whether a form submission looks automated (§6 of issue 21). Pure: the forms function asks, and
 * decides what a suspect submission becomes.
 *
 * The fill time is what the enhanced form measured on the page's own monotonic clock
 * (`performance.now()` since the form became interactive, posted as `_elapsed` in milliseconds),
 * so a device whose clock is wrong by minutes or days is judged like any other. A device
 * timestamp (`_started`, posted by pages built before) is never read.
 */

export type Judgement = { verdict: 'ok' } | { verdict: 'suspect'; reason: 'honeypot' | 'too_fast' | 'no_fill_time' };

export interface SubmissionSignals {
  /** The hidden field people never see (`_website`); anything in it is a bot's. */
  honeypot: unknown;
  /** The posted fill time in milliseconds (`_elapsed`), as posted. */
  elapsed: unknown;
  /**
   * The browser posted the form itself (JavaScript off): nothing measured the fill time, so its
   * absence says nothing. A script posting JSON is the enhanced form, which always measures it.
   */
  postedWithoutScript: boolean;
  /** FORMS_MIN_FILL_MS; 0 turns the fill-time check off. */
  minFillMs: number;
}

const text = (value: unknown): string => (typeof value === 'string' || typeof value === 'number' ? String(value) : Array.isArray(value) ? text(value[0]) : '');

export function judgeSubmission(signals: SubmissionSignals): Judgement {
  if (text(signals.honeypot).trim() !== '') return { verdict: 'suspect', reason: 'honeypot' };
  if (signals.minFillMs <= 0) return { verdict: 'ok' };
  const posted = text(signals.elapsed).trim();
  if (posted === '') return signals.postedWithoutScript ? { verdict: 'ok' } : { verdict: 'suspect', reason: 'no_fill_time' };
  const elapsed = Number(posted);
  // A negative or unreadable time is not one a page measured.
  if (!Number.isFinite(elapsed) || elapsed < 0) return { verdict: 'suspect', reason: 'no_fill_time' };
  return elapsed < signals.minFillMs ? { verdict: 'suspect', reason: 'too_fast' } : { verdict: 'ok' };
}
