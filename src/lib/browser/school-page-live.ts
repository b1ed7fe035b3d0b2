/**
 * Keeps a school page's count current while it is open: every SCHOOL_LIVE_INTERVAL_MS while the
 * tab is visible it asks /api/schools/{key} for the figures and writes them, in the page's language
 * (`data-locale`), into the space the server reserved for them (same lines, same bar), so nothing on
 * the page moves.
 */
import { defaultLocale, locales, type Locale } from '../../config/locales';
import { outcomeLine, pageOutcomes, SCHOOL_LIVE_INTERVAL_MS, schoolProgress, type PageOutcome } from '../shared/school-page-words';

interface SchoolFigures {
  schoolName: string;
  published: boolean;
  parents: number;
  outcome: PageOutcome | null;
}

export function keepSchoolCountLive(root: ParentNode = document): void {
  const live = root.querySelector<HTMLElement>('[data-school-live]');
  const key = live?.dataset.schoolKey;
  if (!live || !key || !/^[0-9a-f]{32}$/.test(key)) return;
  const asked = live.dataset.locale;
  const locale: Locale = (locales as readonly string[]).includes(asked ?? '') ? (asked as Locale) : defaultLocale;
  const refresh = async () => {
    if (document.visibilityState !== 'visible') return;
    const response = await fetch(`/api/schools/${key}`, { headers: { Accept: 'application/json' } }).catch(() => undefined);
    if (!response?.ok) return;
    const figures = (await response.json().catch(() => undefined)) as SchoolFigures | undefined;
    if (!figures || typeof figures.parents !== 'number' || typeof figures.schoolName !== 'string') return;
    const outcome = pageOutcomes.find((kind) => kind === figures.outcome);
    const progress = schoolProgress(figures.parents, locale);
    const set = (selector: string, text: string) => {
      const element = live.querySelector<HTMLElement>(selector);
      if (element && element.textContent !== text) element.textContent = text;
    };
    set('[data-school-count]', progress.countText);
    set('[data-school-goal]', progress.goalText);
    set('[data-school-outcome]', outcomeLine({ schoolName: figures.schoolName, published: figures.published !== false, outcome }, locale));
    const bar = live.querySelector<HTMLElement>('[role="progressbar"]');
    bar?.setAttribute('aria-valuenow', String(progress.parents));
    bar?.setAttribute('aria-valuemax', String(progress.goal));
    bar?.setAttribute('aria-valuetext', `${progress.countText}; ${progress.goalText}`);
    const fill = live.querySelector<HTMLElement>('[data-school-bar]');
    if (fill) fill.style.width = `${Math.min(100, Math.max(0, progress.percent))}%`;
  };
  setInterval(() => void refresh(), SCHOOL_LIVE_INTERVAL_MS);
  document.addEventListener('visibilitychange', () => void refresh());
}
