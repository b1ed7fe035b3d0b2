/**
 * "Did your school answer?": the four answers a parent can give ten days after their school email,
 * the words for each, and the next step each leads to. One list for the follow-up page, the
 * endpoint, the impact figures and the admin's Impact tab.
 */
export const answerKinds = ['replied', 'meeting', 'no_answer', 'said_no'] as const;
export type AnswerKind = (typeof answerKinds)[number];

export const answerLabels: Record<AnswerKind, string> = {
  replied: 'They replied',
  meeting: 'We have a meeting',
  no_answer: 'No answer yet',
  said_no: 'They said no',
};

/** The answers that mean the school answered. */
export const schoolResponded: ReadonlySet<AnswerKind> = new Set(['replied', 'meeting', 'said_no']);

/** The longest comment a parent may add. */
export const COMMENT_MAX = 500;
/** How long after the follow-up link is set the answer can still be given or changed. */
export const ANSWER_WINDOW_DAYS = 30;

/** Figures below this are shown as "fewer than 5", so no school or parent can be singled out. */
export const IMPACT_MIN_SHOWN = 5;

export interface ImpactFigure {
  /** The exact count, only when it is at least IMPACT_MIN_SHOWN. */
  value?: number;
  /** What to show: the number, or "fewer than 5". */
  display: string;
}

export interface Impact {
  schoolsReached: ImpactFigure;
  schoolsAnswered: ImpactFigure;
  meetings: ImpactFigure;
  parentsWrote: ImpactFigure;
  updatedAt: string;
}

export function figure(count: number): ImpactFigure {
  return count >= IMPACT_MIN_SHOWN ? { value: count, display: count.toLocaleString('en-US') } : { display: `fewer than ${IMPACT_MIN_SHOWN}` };
}

/** Every public figure is below the threshold: the movement is starting. */
export function isImpactStarting(impact: Pick<Impact, 'schoolsReached' | 'schoolsAnswered' | 'meetings' | 'parentsWrote'>): boolean {
  return [impact.schoolsReached, impact.schoolsAnswered, impact.meetings, impact.parentsWrote].every((item) => item.value === undefined);
}

/** What the impact band says while every figure is below the threshold: true, once, and a way on. */
export const impactStarting = `We are just getting started: fewer than ${IMPACT_MIN_SHOWN} parents have written to their school through this site so far, so your letter could be one of the very first a school receives.`;

export const impactLabels: Record<keyof Omit<Impact, 'updatedAt'>, string> = {
  schoolsReached: 'schools reached by parents’ emails',
  schoolsAnswered: 'schools that answered',
  meetings: 'school meetings so far',
  parentsWrote: 'parents who wrote to their school',
};

/** Free email providers: an address there says nothing about the school, so it counts on its own. */
const FREE_MAIL = new Set(['gmail.com', 'googlemail.com', 'yahoo.com', 'outlook.com', 'hotmail.com', 'live.com', 'icloud.com', 'me.com', 'aol.com', 'proton.me', 'protonmail.com', 'gmx.com', 'mail.com']);

/** The school a contact address stands for: its domain, or the whole address at a free provider. */
export function schoolKey(address: string): string {
  const email = address.trim().toLowerCase();
  const domain = email.slice(email.lastIndexOf('@') + 1);
  return FREE_MAIL.has(domain) ? email : domain;
}
