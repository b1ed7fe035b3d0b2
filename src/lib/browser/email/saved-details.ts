/**
 * "Edit details" after a reload: what a parent typed into an email form, kept in this tab's
 * sessionStorage once an email was made from it, and put back into the form when the page loads
 * again, until the parent clears it. Only the fields the parent filled in are kept: never an id or
 * a token, never a consent (given anew each time), never the site's hidden fields; and nothing of
 * it leaves the device.
 */
import { WORDS_CONSENT_FIELD } from '../../shared/email/personal-fields';

export const SAVED_DETAILS_KEY = 'email-form-details';

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** The controls a parent fills in: visible, named, and not a consent box (nor "You may quote my words"). */
function typedControls(form: HTMLFormElement): Control[] {
  return [...form.querySelectorAll<Control>('input, select, textarea')].filter(
    (control) =>
      control.name &&
      control.type !== 'hidden' &&
      !control.name.startsWith('_consent') &&
      control.name !== WORDS_CONSENT_FIELD &&
      !control.closest('[hidden]:not(form)'),
  );
}

// Per page too: a school page's form comes with its school already filled in.
const storageKey = (formId: string) => `${SAVED_DETAILS_KEY}:${location.pathname}:${formId}`;

function storage(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    // Storage turned off: the details are simply not kept.
    return undefined;
  }
}

/** The form's typed values, by name (a checkbox group's as a list). */
export function typedValues(form: HTMLFormElement): Record<string, string | string[]> {
  const values: Record<string, string | string[]> = {};
  for (const control of typedControls(form)) {
    if (control instanceof HTMLInputElement && (control.type === 'checkbox' || control.type === 'radio')) {
      if (!control.checked) continue;
      const existing = values[control.name];
      values[control.name] =
        control.type === 'radio' || existing === undefined ? control.value : [...(Array.isArray(existing) ? existing : [existing]), control.value];
    } else if (control.value !== '') {
      values[control.name] = control.value;
    }
  }
  return values;
}

export function saveDetails(form: HTMLFormElement, formId: string): void {
  try {
    storage()?.setItem(storageKey(formId), JSON.stringify(typedValues(form)));
  } catch {
    // A full or refused storage: nothing is kept.
  }
}

export function clearDetails(formId: string): void {
  storage()?.removeItem(storageKey(formId));
}

/** Whether the control differs from what the page was served with. */
function isChanged(control: Control): boolean {
  if (control instanceof HTMLInputElement && (control.type === 'checkbox' || control.type === 'radio')) return control.checked !== control.defaultChecked;
  if (control instanceof HTMLSelectElement) return [...control.options].some((option) => option.selected !== option.defaultSelected);
  return control.value !== control.defaultValue;
}

/** Puts kept details back into the form, except what the parent has changed already; true when it put any back. */
export function restoreDetails(form: HTMLFormElement, formId: string): boolean {
  let saved: Record<string, unknown>;
  try {
    saved = JSON.parse(storage()?.getItem(storageKey(formId)) ?? 'null') ?? {};
  } catch {
    return false;
  }
  if (typeof saved !== 'object' || Array.isArray(saved)) return false;
  let restored = false;
  // What the parent typed or chose since the page appeared, before this script arrived, is theirs:
  // a kept value never overwrites it (nor, for a group of boxes, the group they changed).
  const changed = new Set(
    typedControls(form)
      .filter(isChanged)
      .map((control) => control.name),
  );
  for (const control of typedControls(form)) {
    const value = saved[control.name];
    if (value === undefined || changed.has(control.name)) continue;
    const wanted = (Array.isArray(value) ? value : [value]).map(String);
    if (control instanceof HTMLInputElement && (control.type === 'checkbox' || control.type === 'radio')) control.checked = wanted.includes(control.value);
    else control.value = wanted[0] ?? '';
    restored = true;
  }
  // The form's script shows the dependent fields the restored answers call for.
  if (restored) form.dispatchEvent(new Event('change', { bubbles: true }));
  return restored;
}
