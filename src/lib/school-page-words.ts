/**
 * The school page (/schools/{key}) in words and numbers, for the server that renders it and the
 * script that keeps its count live: the milestones the goal bar counts towards, what the latest
 * outcome says, and the plain share links (no third-party script).
 */
import type { AnswerKind } from './answer-kinds';

/** The goals a school's count climbs through; past the last, every next hundred. */
export const MILESTONES = [5, 10, 25, 50, 100] as const;

/** The next goal above `count` parents (a school at 10 aims for 25). */
export function nextMilestone(count: number): number {
  const reached = Math.max(0, Math.floor(count));
  return MILESTONES.find((goal) => goal > reached) ?? (Math.floor(reached / 100) + 1) * 100;
}

export interface SchoolProgress {
  parents: number;
  goal: number;
  /** How far the bar is filled, 0–100. */
  percent: number;
  /** "3 parents have written", "1 parent has written". */
  countText: string;
  /** "2 more to reach 5". */
  goalText: string;
}

export function schoolProgress(parents: number): SchoolProgress {
  const count = Math.max(0, Math.floor(parents));
  const goal = nextMilestone(count);
  return {
    parents: count,
    goal,
    percent: Math.round((count / goal) * 100),
    countText: count === 1 ? '1 parent has written' : `${count.toLocaleString('en-US')} parents have written`,
    goalText: `${(goal - count).toLocaleString('en-US')} more to reach ${goal.toLocaleString('en-US')}`,
  };
}

/** The outcomes a school page tells (the others are no news to share). */
export const pageOutcomes = ['replied', 'meeting'] as const satisfies readonly AnswerKind[];
export type PageOutcome = (typeof pageOutcomes)[number];

export function outcomeText(school: string, kind: PageOutcome): string {
  return kind === 'meeting' ? `${school} agreed to meet` : `${school} replied`;
}

/** The built frame of every school page (src/pages/school-page.astro) and its marked regions. */
export const SCHOOL_PAGE_SHELL = '/school-page';
export const SCHOOL_REGION = 'school-page';
/** The email form's own region (src/components/forms/Form.astro's default instance). */
export const SCHOOL_FORM_INSTANCE = 'form-emailGenerator';
/** How often an open school page asks for its count again. */
export const SCHOOL_LIVE_INTERVAL_MS = 30_000;
