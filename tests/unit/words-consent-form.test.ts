// @vitest-environment jsdom
/**
 * "You may quote my words on our school's page (first name only)" as the email forms draw it: its
 * own box, never ticked for the parent, and never put back by "Edit details" after a reload (a
 * consent is given anew each time, src/lib/browser/email/saved-details.ts).
 */
import { expect, test } from 'vitest';
import { typedValues } from '../../src/lib/browser/email/saved-details';
import { OWN_WORDS_FIELD, WORDS_CONSENT_FIELD, WORDS_CONSENT_VALUE } from '../../src/lib/shared/email/personal-fields';
import { wordsConsentHtml } from '../../src/lib/shared/forms/render';

function form(values: Record<string, string> = {}): HTMLFormElement {
  document.body.innerHTML = `<form><textarea name="${OWN_WORDS_FIELD}">Leo waits all day.</textarea>${wordsConsentHtml({ instance: 'f', values })}</form>`;
  return document.querySelector('form')!;
}

test('the box is unticked unless the parent ticked it, and its label names it', () => {
  const box = form().querySelector<HTMLInputElement>(`input[name="${WORDS_CONSENT_FIELD}"]`)!;
  expect(box.type).toBe('checkbox');
  expect(box.checked).toBe(false);
  expect(document.querySelector(`label[for="${box.id}"]`)?.textContent).toBe('You may quote my words on our school’s page (first name only)');
  expect(form({ [WORDS_CONSENT_FIELD]: WORDS_CONSENT_VALUE }).querySelector<HTMLInputElement>('input[type="checkbox"]')!.checked).toBe(true);
  expect(form({ [WORDS_CONSENT_FIELD]: 'true' }).querySelector<HTMLInputElement>('input[type="checkbox"]')!.checked).toBe(false);
});

test('a ticked box is not kept for "Edit details" after a reload; the words are', () => {
  const ticked = form({ [WORDS_CONSENT_FIELD]: WORDS_CONSENT_VALUE });
  expect(typedValues(ticked)).toEqual({ [OWN_WORDS_FIELD]: 'Leo waits all day.' });
});
