/**
 * "Did your school answer?": WriteToThem's five answers (replied; replied but didn't answer; only
 * acknowledged; no reply expected; no reply) beside "We have a meeting", the words for each, and
 * how many days a reply took. One list for the follow-up page, the endpoint, the impact figures and
 * the admin's Impact tab.
 */
export const answerKinds = ['replied', 'replied_not_answered', 'acknowledged', 'meeting', 'no_reply_expected', 'no_answer'] as const;
export type AnswerKind = (typeof answerKinds)[number];

export const answerLabels: Record<AnswerKind, string> = {
  replied: 'They replied and answered',
  replied_not_answered: 'They replied but didn’t answer',
  acknowledged: 'They only acknowledged it',
  meeting: 'We have a meeting',
  no_reply_expected: 'I didn’t expect a reply',
  no_answer: 'No reply yet',
};

/** The answers that mean the school answered (a reply of any kind, or a meeting). */
export const schoolResponded: ReadonlySet<AnswerKind> = new Set(['replied', 'replied_not_answered', 'acknowledged', 'meeting']);

/** The longest a reply can have taken, in days, as a parent may say it. */
export const DAYS_TAKEN_MAX = 365;

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

/** Free email providers: an address there says nothing about the school, so it counts on its own. */
export const FREE_MAIL: ReadonlySet<string> = new Set([
  'gmail.com',
  'googlemail.com',
  'yahoo.com',
  'outlook.com',
  'hotmail.com',
  'live.com',
  'icloud.com',
  'me.com',
  'aol.com',
  'proton.me',
  'protonmail.com',
  'gmx.com',
  'mail.com',
]);

/** The school a contact address stands for: its domain, or the whole address at a free provider. */
export function schoolKey(address: string): string {
  const email = address.trim().toLowerCase();
  const domain = email.slice(email.lastIndexOf('@') + 1);
  return FREE_MAIL.has(domain) ? email : domain;
}
