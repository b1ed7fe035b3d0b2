/**
 * The email form's school field as a combobox (WAI-ARIA 1.2, "list autocomplete"): as a parent
 * types, the schools the site knows are suggested, answered by the server (/api/school-suggestions);
 * picking one fills the school's name, its leader and address from the record, and names the school
 * to the server (the hidden `_school`), which fills what is left from the record. The parent may
 * still type another school or address: it is their letter. Without this script the field is a
 * plain field with a link to /find-school.
 *
 * Keyboard: ↓/↑ move through the suggestions, Enter picks, Escape closes (and a second Escape
 * clears), Tab leaves. A live region says how many schools match.
 */
import type { Locale } from '../../../config/locales';
import type { SchoolSuggestion } from '../../shared/school-record';

const MIN_CHARS = 2;
const DEBOUNCE_MS = 180;

/**
 * What the combobox says: the list's name and the live line after a search (`many` with
 * `{count}`). English unless the page hands its own (/es/nominate-school's finder, `data-words`).
 */
export interface SchoolComboboxWords {
  list: string;
  one: string;
  many: string;
  none: string;
}

/** The email form's words for its suggestions, in the form's language (the finder brings its page's). */
export const schoolSearchWords: Record<Locale, SchoolComboboxWords> = {
  en: {
    list: 'Schools we know',
    one: 'One school we know matches; use the arrow keys to choose.',
    many: '{count} schools we know match; use the arrow keys to choose.',
    none: 'No school we know matches. You can still type your school.',
  },
  es: {
    list: 'Escuelas que conocemos',
    one: 'Coincide una escuela que conocemos; use las flechas para elegir.',
    many: 'Coinciden {count} escuelas que conocemos; use las flechas para elegir.',
    none: 'Ninguna escuela que conocemos coincide. Puede escribir el nombre de su escuela de todos modos.',
  },
};
const englishWords = schoolSearchWords.en;

interface Fields {
  name: HTMLInputElement;
  contactName?: HTMLInputElement;
  contactEmail?: HTMLInputElement;
  key: HTMLInputElement;
}

/**
 * Upgrades the school field of a form, once (the email form's, or /nominate-school's finder, whose
 * `onPick` opens the school's page). Returns false when the form has none.
 */
export function attachSchoolCombobox(form: HTMLFormElement, onPick?: (school: SchoolSuggestion) => void, words: SchoolComboboxWords = englishWords): boolean {
  const name = form.querySelector<HTMLInputElement>('input[data-school-search]');
  const key = form.querySelector<HTMLInputElement>('input[data-school-key]');
  if (!name || !key || name.dataset.combobox) return false;
  name.dataset.combobox = 'on';
  const fields: Fields = {
    name,
    key,
    contactName: form.querySelector<HTMLInputElement>('input[name="school_contact_name"]') ?? undefined,
    contactEmail: form.querySelector<HTMLInputElement>('input[name="school_contact_email"]') ?? undefined,
  };
  new SchoolCombobox(fields, onPick, words);
  return true;
}

class SchoolCombobox {
  private readonly list: HTMLUListElement;
  private readonly live: HTMLElement;
  private options: Array<{ school: SchoolSuggestion; leader: SchoolSuggestion['leaders'][number] | undefined }> = [];
  private active = -1;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private request: AbortController | undefined;
  private picked = '';

  constructor(
    private readonly fields: Fields,
    private readonly onPick?: (school: SchoolSuggestion) => void,
    private readonly words: SchoolComboboxWords = englishWords,
  ) {
    const { name } = fields;
    const listId = `${name.id}-suggestions`;
    this.list = document.createElement('ul');
    this.list.id = listId;
    this.list.setAttribute('role', 'listbox');
    this.list.setAttribute('aria-label', this.words.list);
    this.list.hidden = true;
    this.list.className = 'mt-1 max-h-72 overflow-y-auto rounded-lg border border-line bg-white py-1 shadow-card';
    this.live = document.createElement('p');
    this.live.className = 'sr-only';
    this.live.setAttribute('role', 'status');
    name.after(this.list, this.live);
    name.setAttribute('role', 'combobox');
    name.setAttribute('aria-autocomplete', 'list');
    name.setAttribute('aria-expanded', 'false');
    name.setAttribute('aria-controls', listId);
    // A parent who picked a school and then edits its name writes to a school of their own typing.
    if (fields.key.value) this.picked = name.value;
    name.addEventListener('input', () => this.typed());
    name.addEventListener('keydown', (event) => this.key(event));
    name.addEventListener('blur', () => setTimeout(() => this.close(), 150));
    // What the parent typed before this script arrived is searched at once.
    if (name.value.trim().length >= MIN_CHARS && !fields.key.value && document.activeElement === name) this.search(name.value);
  }

  private typed(): void {
    if (this.picked && this.fields.name.value === this.picked) return;
    if (this.picked && this.fields.name.value !== this.picked) {
      this.fields.key.value = '';
      this.picked = '';
    }
    clearTimeout(this.timer);
    const text = this.fields.name.value;
    if (text.trim().length < MIN_CHARS) {
      this.close();
      return;
    }
    this.timer = setTimeout(() => this.search(text), DEBOUNCE_MS);
  }

  private async search(text: string): Promise<void> {
    this.request?.abort();
    const request = new AbortController();
    this.request = request;
    try {
      const response = await fetch(`/api/school-suggestions?q=${encodeURIComponent(text.trim().slice(0, 80))}`, {
        signal: request.signal,
        headers: { accept: 'application/json' },
      });
      if (!response.ok) return this.close();
      const { schools } = (await response.json()) as { schools: SchoolSuggestion[] };
      if (request.signal.aborted || this.fields.name.value !== text) return;
      this.show(schools);
    } catch {
      // Offline or aborted: the field stays a plain field.
      if (!request.signal.aborted) this.close();
    }
  }

  private show(schools: SchoolSuggestion[]): void {
    type Option = SchoolCombobox['options'][number];
    // The email form picks a person to write to; the finder only a school.
    this.options = schools.flatMap((school): Option[] =>
      school.leaders.length && !this.onPick ? school.leaders.map((leader) => ({ school, leader })) : [{ school, leader: undefined }],
    );
    this.active = -1;
    this.list.replaceChildren(
      ...this.options.map((option, index) => {
        const item = document.createElement('li');
        item.id = `${this.list.id}-${index}`;
        item.setAttribute('role', 'option');
        item.setAttribute('aria-selected', 'false');
        item.className = 'cursor-pointer px-3 py-2 text-sm aria-selected:bg-brand-50';
        const title = document.createElement('span');
        title.className = 'block font-semibold text-ink';
        title.textContent = `${option.school.name}${option.school.city ? `, ${option.school.city}` : ''}`;
        const who = document.createElement('span');
        who.className = 'block text-muted';
        who.textContent = option.leader ? [option.leader.name, option.leader.role].filter(Boolean).join(', ') || option.leader.address : '';
        item.append(title, who);
        // A press picks before the field's blur closes the list.
        item.addEventListener('mousedown', (event) => {
          event.preventDefault();
          this.pick(index);
        });
        return item;
      }),
    );
    const open = this.options.length > 0;
    this.list.hidden = !open;
    this.fields.name.setAttribute('aria-expanded', String(open));
    this.fields.name.removeAttribute('aria-activedescendant');
    this.live.textContent = open ? (schools.length === 1 ? this.words.one : this.words.many.replace('{count}', String(schools.length))) : this.words.none;
  }

  private move(to: number): void {
    if (!this.options.length) return;
    this.active = (to + this.options.length) % this.options.length;
    for (const [index, item] of [...this.list.children].entries()) item.setAttribute('aria-selected', String(index === this.active));
    const item = this.list.children[this.active] as HTMLElement | undefined;
    if (item) {
      this.fields.name.setAttribute('aria-activedescendant', item.id);
      item.scrollIntoView({ block: 'nearest' });
    }
  }

  private key(event: KeyboardEvent): void {
    const open = !this.list.hidden;
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      if (open) this.move(this.active + 1);
      else if (this.fields.name.value.trim().length >= MIN_CHARS) void this.search(this.fields.name.value);
    } else if (event.key === 'ArrowUp' && open) {
      event.preventDefault();
      this.move(this.active - 1);
    } else if (event.key === 'Enter' && open && this.active >= 0) {
      event.preventDefault();
      this.pick(this.active);
    } else if (event.key === 'Escape') {
      if (open) {
        event.preventDefault();
        this.close();
      }
    }
  }

  private pick(index: number): void {
    const option = this.options[index];
    if (!option) return;
    const { name, contactName, contactEmail, key } = this.fields;
    const fill = (input: HTMLInputElement | undefined, value: string) => {
      if (!input) return;
      input.value = value;
      // The enhancement clears a field's message and re-checks its dependents on input.
      input.dispatchEvent(new Event('input', { bubbles: true }));
    };
    this.picked = option.school.name;
    fill(name, option.school.name);
    key.value = option.school.key;
    if (option.leader) {
      if (option.leader.name) fill(contactName, option.leader.name);
      fill(contactEmail, option.leader.address);
    }
    this.close();
    if (this.onPick) {
      this.live.textContent = `Opening the page of ${option.school.name}.`;
      this.onPick(option.school);
      return;
    }
    this.live.textContent = `${option.school.name} chosen${option.leader ? `: your letter goes to ${option.leader.name || option.leader.address}` : ''}.`;
    name.focus();
  }

  private close(): void {
    clearTimeout(this.timer);
    this.list.hidden = true;
    this.active = -1;
    this.fields.name.setAttribute('aria-expanded', 'false');
    this.fields.name.removeAttribute('aria-activedescendant');
  }
}
