/**
 * The quiet suggestion of an English page's Spanish version (src/components/site/LanguageSuggestion.astro):
 * shown only to a browser whose first language is the suggested one, until it is dismissed. Never a
 * redirect: the visitor chooses. It lies over the page (fixed), so showing it moves nothing.
 */
export const LANGUAGE_SUGGESTION_STORAGE_KEY = 'language-suggestion-dismissed';

/** Whether the browser's first language is `locale` (any region: es-ES, es-MX, es-419). */
export function readsFirst(languages: readonly string[], locale: string): boolean {
  const first = languages[0];
  return !!first && first.toLowerCase().split('-')[0] === locale.toLowerCase();
}

function isDismissed(): boolean {
  try {
    return localStorage.getItem(LANGUAGE_SUGGESTION_STORAGE_KEY) === '1';
  } catch {
    return false;
  }
}

/** Defined when called, in the browser (the decision above is tested without a DOM). */
export function defineLanguageSuggestion(): void {
  if (customElements.get('language-suggestion')) return;
  class LanguageSuggestion extends HTMLElement {
    connectedCallback(): void {
      const locale = this.dataset.locale ?? '';
      const languages = navigator.languages?.length ? navigator.languages : [navigator.language];
      if (!readsFirst(languages, locale) || isDismissed()) return;
      this.hidden = false;
      this.querySelector('[data-suggestion-dismiss]')?.addEventListener('click', () => {
        this.hidden = true;
        try {
          localStorage.setItem(LANGUAGE_SUGGESTION_STORAGE_KEY, '1');
        } catch {
          // Private modes may refuse storage: dismissed for this page only.
        }
      });
    }
  }
  customElements.define('language-suggestion', LanguageSuggestion);
}
