/**
 * Keeps a school page's count current while it is open: every SCHOOL_LIVE_INTERVAL_MS while the
 * tab is visible it asks /api/schools/{key} and writes the new figures into the space the server
 * reserved for them (same lines, same bar), so nothing on the page moves.
 */
import { SCHOOL_LIVE_INTERVAL_MS } from './school-page-words';

interface SchoolFigures {
  parents: number;
  goal: number;
  percent: number;
  countText: string;
  goalText: string;
  outcomeText: string;
}

export function keepSchoolCountLive(root: ParentNode = document): void {
  const live = root.querySelector<HTMLElement>('[data-school-live]');
  const key = live?.dataset.schoolKey;
  if (!live || !key || !/^[0-9a-f]{32}$/.test(key)) return;
  const refresh = async () => {
    if (document.visibilityState !== 'visible') return;
    const response = await fetch(`/api/schools/${key}`, { headers: { Accept: 'application/json' } }).catch(() => undefined);
    if (!response?.ok) return;
    const figures = (await response.json().catch(() => undefined)) as SchoolFigures | undefined;
    if (!figures || typeof figures.parents !== 'number') return;
    const set = (selector: string, text: string) => {
      const element = live.querySelector<HTMLElement>(selector);
      if (element && element.textContent !== text) element.textContent = text;
    };
    set('[data-school-count]', figures.countText);
    set('[data-school-goal]', figures.goalText);
    set('[data-school-outcome]', figures.outcomeText);
    const bar = live.querySelector<HTMLElement>('[role="progressbar"]');
    bar?.setAttribute('aria-valuenow', String(figures.parents));
    bar?.setAttribute('aria-valuemax', String(figures.goal));
    bar?.setAttribute('aria-valuetext', `${figures.countText}; ${figures.goalText}`);
    const fill = live.querySelector<HTMLElement>('[data-school-bar]');
    if (fill) fill.style.width = `${Math.min(100, Math.max(0, figures.percent))}%`;
  };
  setInterval(() => void refresh(), SCHOOL_LIVE_INTERVAL_MS);
  document.addEventListener('visibilitychange', () => void refresh());
}
