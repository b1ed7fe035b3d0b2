/**
 * `<native-form>`: the small script over a form drawn by `render.ts`. Without it the form still
 * posts and the server answers with a page; with it the visitor gets dependent fields that appear
 * as they answer, problems next to each field as they submit (the same rules and words as the
 * server, from `values.ts`), no reload, and the success message or the page's own next step.
 *
 * A successful submission dispatches a bubbling, cancelable `native-form:submitted` event with
 * the server's answer; a page that takes over (the email dialog) calls `preventDefault()`.
 */
import type { Locale } from '../../../config/locales';
import type { ExtraFormChecks } from '../email/form-checks';
import type { FormDefinition, FormField } from '../../shared/forms/definition';
import { fillReferralSource } from './referral';
import { renderWords } from '../../shared/forms/render-words';
import { checkSubmission, conditionHolds, messagesByLocale, metaFields, type RawValues } from '../../shared/forms/values';

/** The server's answer to an accepted submission (netlify/functions/forms.mts). */
export interface FormAnswer {
  id: string;
  form: string;
  status: 'accepted';
  delivery: 'delivered' | 'queued' | 'stored';
  message?: string;
  redirect?: string;
  values: Record<string, string>;
  [extra: string]: unknown;
}

export interface SubmittedDetail {
  purpose: string;
  formId: string;
  answer: FormAnswer;
  /** The element to give focus back to when a dialog opened by the page closes. */
  region: HTMLElement;
}

declare global {
  interface HTMLElementEventMap {
    'native-form:submitted': CustomEvent<SubmittedDetail>;
  }
}

export const FORM_MESSAGES = {
  sending: 'Sending…',
  network: 'We could not send the form just now. Your answers are still here; please try again in a moment.',
  failed: 'Something went wrong on our side. Your answers are still here; please try again in a moment.',
};

/** `FORM_MESSAGES` in each language of the site. */
export const formMessagesByLocale: Record<Locale, typeof FORM_MESSAGES> = {
  en: FORM_MESSAGES,
  es: {
    sending: 'Enviando…',
    network: 'No pudimos enviar el formulario en este momento. Sus respuestas siguen aquí; por favor, inténtelo de nuevo en un momento.',
    failed: 'Algo salió mal de nuestro lado. Sus respuestas siguen aquí; por favor, inténtelo de nuevo en un momento.',
  },
};

interface ErrorBody {
  error?: { code?: string; message?: string; fields?: Record<string, string> };
}

/** Values as FormData holds them, repeated names as lists (a checkbox group). */
export function rawValuesOf(data: FormData): RawValues {
  const values: RawValues = {};
  for (const [name, value] of data) {
    if (typeof value !== 'string') continue;
    const existing = values[name];
    values[name] = existing === undefined ? value : [...(Array.isArray(existing) ? existing : [existing]), value];
  }
  return values;
}

/** The first field a visitor fills in (not the hidden ones, nor the honeypot in its hidden box). */
export function firstField(form: HTMLFormElement): HTMLElement | undefined {
  return [...form.querySelectorAll<HTMLElement>('input:not([type="hidden"]):not([disabled]), select:not([disabled]), textarea:not([disabled])')].find(
    (control) => !control.closest('[hidden], [data-dependent-hidden]'),
  );
}

export class NativeFormElement extends HTMLElement {
  private definition!: FormDefinition;
  private form!: HTMLFormElement;
  private busy = false;
  private readyAt = 0;
  /** The email forms' own checks, loaded only with such a form (`data-note`). */
  private extraChecks?: Promise<ExtraFormChecks | undefined>;
  /** The page's language, which the form posts (`_locale`, render.ts); English when it posts none. */
  private locale: Locale = 'en';

  connectedCallback(): void {
    const form = this.querySelector<HTMLFormElement>('form[data-native-form]');
    const data = this.querySelector<HTMLScriptElement>('script[data-form-definition]');
    if (!form || !data || this.form) return;
    this.form = form;
    const posted = form.elements.namedItem(metaFields.locale);
    if (posted instanceof HTMLInputElement && posted.value in messagesByLocale) this.locale = posted.value as Locale;
    // Validated at build (the forms collection); the page carries it as JSON.
    this.definition = JSON.parse(data.textContent ?? '{}') as FormDefinition;
    // The script shows its own messages next to the fields; the browser's bubbles would repeat them.
    form.noValidate = true;
    if (this.dataset.note !== undefined) {
      // Should they fail to load, the server's answer names the same problems.
      this.extraChecks = import('../email/form-checks').then((module) => module.emailFormChecks).catch(() => undefined);
      // The schools the site knows, suggested as the parent types (the field stays plain without it).
      if (form.querySelector('[data-school-search]'))
        void import('./school-combobox')
          .then((module) => module.attachSchoolCombobox(form, undefined, module.schoolSearchWords[this.locale]))
          .catch(() => undefined);
    }
    // The fill time is measured on the page's monotonic clock, which no wrong device date moves,
    // from when the page made the form ready (on-demand.ts), before this code loaded.
    this.readyAt = Number(this.dataset.readyAt) || performance.now();
    fillReferralSource(form);
    this.updateDependents();
    form.addEventListener('change', () => this.updateDependents());
    form.addEventListener('input', (event) => {
      this.updateDependents();
      this.clearError(event.target);
    });
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.submit();
    });
  }

  private fieldElement(name: string): HTMLElement | null {
    return this.form.querySelector<HTMLElement>(`[data-field="${CSS.escape(name)}"]`);
  }

  private values(): RawValues {
    const elapsed = this.form.elements.namedItem(metaFields.elapsed);
    if (elapsed instanceof HTMLInputElement) elapsed.value = String(Math.round(performance.now() - this.readyAt));
    return rawValuesOf(new FormData(this.form));
  }

  /** Shows the dependent fields whose condition holds, hides (and disables) the others. */
  private updateDependents(): void {
    const values = this.values();
    const visit = (field: FormField, parentShown: boolean) => {
      for (const { dependentCondition, dependentField } of field.dependentFields) {
        const shown = parentShown && conditionHolds(dependentCondition, values[field.name]);
        const element = this.fieldElement(dependentField.name);
        if (element) {
          element.toggleAttribute('data-dependent-hidden', !shown);
          for (const control of element.querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>('input, select, textarea')) {
            control.disabled = !shown;
            if (control.type !== 'checkbox') control.required = shown && dependentField.required;
          }
        }
        visit(dependentField, shown);
      }
    };
    for (const group of this.definition.fieldGroups) for (const field of group.fields) visit(field, true);
  }

  private labelOf(name: string): string {
    const element = this.fieldElement(name);
    const label = element?.querySelector('legend, label');
    const optional = renderWords[this.locale].optional;
    return (label?.textContent ?? name).replaceAll('*', '').replaceAll(optional, '').trim();
  }

  private controlsOf(name: string): HTMLElement[] {
    const element = this.fieldElement(name);
    return element ? [...element.querySelectorAll<HTMLElement>('input, select, textarea')] : [];
  }

  private setError(name: string, message: string | undefined): void {
    const element = this.fieldElement(name);
    if (!element) return;
    const slot = element.querySelector<HTMLElement>('[data-field-error]');
    const target = element.querySelector<HTMLElement>('fieldset') ?? element.querySelector<HTMLElement>('input, select, textarea');
    if (!slot || !target) return;
    slot.textContent = message ?? '';
    slot.hidden = !message;
    const ids = new Set((target.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean));
    if (message) ids.add(slot.id);
    else ids.delete(slot.id);
    if (ids.size) target.setAttribute('aria-describedby', [...ids].join(' '));
    else target.removeAttribute('aria-describedby');
    if (message) target.setAttribute('aria-invalid', 'true');
    else target.removeAttribute('aria-invalid');
  }

  private clearError(target: EventTarget | null): void {
    const element = target instanceof HTMLElement ? target.closest<HTMLElement>('[data-field]') : null;
    if (element?.querySelector('[data-field-error]:not([hidden])')) this.setError(element.dataset.field ?? '', undefined);
  }

  private summary(message: string | undefined): HTMLElement | null {
    const summary = this.form.querySelector<HTMLElement>('[data-form-summary]');
    if (summary) {
      summary.textContent = message ?? '';
      summary.hidden = !message;
      if (message) this.form.setAttribute('aria-describedby', summary.id);
      else this.form.removeAttribute('aria-describedby');
    }
    return summary;
  }

  /** Shows every problem and moves focus to the first field that has one. */
  private showErrors(errors: Record<string, string>, message?: string): void {
    for (const element of this.form.querySelectorAll<HTMLElement>('[data-field]'))
      this.setError(element.dataset.field ?? '', errors[element.dataset.field ?? '']);
    const names = Object.keys(errors).filter((name) => this.fieldElement(name));
    // In the order the fields appear, not the order the checks ran.
    names.sort((a, b) => (this.fieldElement(a)!.compareDocumentPosition(this.fieldElement(b)!) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
    this.summary(message ?? (names.length ? messagesByLocale[this.locale].check(names.map((name) => this.labelOf(name))) : undefined));
    const first = names[0] && this.controlsOf(names[0]).find((control) => !(control as HTMLInputElement).disabled);
    if (first) first.focus();
    else if (message) this.form.querySelector<HTMLElement>('[data-form-summary]')?.focus();
  }

  private setBusy(busy: boolean): void {
    this.busy = busy;
    const button = this.form.querySelector<HTMLButtonElement>('[data-submit]');
    const status = this.form.querySelector<HTMLElement>('[data-form-status]');
    if (button) {
      button.disabled = busy;
      button.setAttribute('aria-busy', String(busy));
    }
    if (status) status.textContent = busy ? formMessagesByLocale[this.locale].sending : '';
  }

  async submit(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    const extra = await this.extraChecks;
    this.busy = false;
    const values = this.values();
    // The email forms carry the parent's own words (the question and the note), which the site
    // keeps (never HubSpot fields), and check names as the server does (src/lib/shared/email/fields.ts).
    // Without their checks (they did not load) the server's answer is the check.
    const errors: Record<string, string> =
      this.extraChecks && !extra ? {} : checkSubmission(this.definition, values, extra?.extraNames ?? [], this.locale).errors;
    if (extra) for (const [name, problem] of Object.entries(extra.problems(values, this.locale))) errors[name] ??= problem;
    if (Object.keys(errors).length) return this.showErrors(errors);
    this.showErrors({});
    this.setBusy(true);
    let response: Response;
    try {
      response = await fetch(this.form.action, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify(values),
      });
    } catch {
      this.setBusy(false);
      return this.showErrors({}, formMessagesByLocale[this.locale].network);
    }
    const body = (await response.json().catch(() => null)) as (FormAnswer & ErrorBody) | null;
    this.setBusy(false);
    if (!response.ok || !body || body.status !== 'accepted') {
      const fields = body?.error?.fields ?? {};
      const known = Object.fromEntries(Object.entries(fields).filter(([name]) => this.fieldElement(name)));
      const message = Object.keys(known).length
        ? undefined
        : (body?.error?.message ?? (response.status >= 500 ? formMessagesByLocale[this.locale].failed : formMessagesByLocale[this.locale].network));
      return this.showErrors(known, message);
    }
    this.succeed(body);
  }

  private succeed(answer: FormAnswer): void {
    const detail: SubmittedDetail = { purpose: this.dataset.purpose ?? '', formId: this.dataset.formId ?? '', answer, region: this };
    const proceed = this.dispatchEvent(new CustomEvent('native-form:submitted', { detail, bubbles: true, cancelable: true }));
    if (!proceed) return;
    if (answer.redirect) {
      location.assign(answer.redirect);
      return;
    }
    this.showSuccess();
  }

  /**
   * Brings the form back after its thank-you message, with what the visitor typed still in it
   * ("Edit details"), and moves focus to its first field.
   */
  showForm(): void {
    const success = this.querySelector<HTMLElement>('[data-form-success]');
    if (success) success.hidden = true;
    this.form.hidden = false;
    this.updateDependents();
    firstField(this.form)?.focus();
  }

  /** Replaces the form with its thank-you message and moves focus there. */
  showSuccess(): HTMLElement | null {
    const success = this.querySelector<HTMLElement>('[data-form-success]');
    if (!success) return null;
    this.form.hidden = true;
    success.hidden = false;
    success.focus();
    return success;
  }
}

if (!customElements.get('native-form')) customElements.define('native-form', NativeFormElement);
