/**
 * The email dialog's own words (issue 48): every key in both languages (content/i18n/{en,es}/
 * emailDialog.yaml), the English exactly the dialog's words before they moved, the Spanish all
 * there, and a page that hands the dialog fewer words fails loudly instead of showing a key.
 */
import { describe, expect, test } from 'vitest';
import { dialogWordKeys, dialogWordsFrom, dialogWordsOf, toastsOf } from '../../src/lib/shared/email/dialog-words';
import { emailMessages } from '../../src/lib/shared/email/messages';
import { fillWords, translator } from '../../src/lib/shared/i18n/translator';
import { readLocaleWords } from '../../src/server/words';

const words = await readLocaleWords();
const en = dialogWordsOf(translator(words.en!, 'content/i18n/en'), 'en');
const es = dialogWordsOf(translator(words.es!, 'content/i18n/es'), 'es');

describe('the email dialog’s words', () => {
  test.each([
    ['title', 'Your Email is Ready'],
    ['close', 'Close dialog'],
    ['panel.view', 'View your email'],
    ['editDetails', 'Edit details'],
    ['note.label', 'Add a personal note'],
    ['copy', 'Copy'],
    ['copied', 'Copied!'],
    ['sendYourself.title', 'Send it yourself'],
    ['sendYourself.openInApp', 'Open in my email app'],
    ['selfSent.button', "I've sent it myself"],
    ['platform.title', 'Or let us send it'],
    ['platform.send', 'Send via our platform'],
    ['platform.sending', 'Sending…'],
  ] as const)('English %s is still “%s”', (key, text) => {
    expect(en.words[key]).toBe(text);
  });

  test('the English notices are the §8 messages', () => {
    const toasts = toastsOf(en);
    for (const name of ['copied', 'copyFailed', 'sent', 'sendFailed'] as const) {
      expect(toasts[name]).toEqual(emailMessages[name]);
    }
  });

  test('every key has its Spanish, different from the English where it is words', () => {
    for (const key of dialogWordKeys) {
      expect(es.words[key], key).toBeTruthy();
      expect(es.words[key], key).not.toMatch(/emailDialog\./);
    }
    expect(es.words.title).toBe('Su correo está listo');
    expect(es.words.close).toBe('Cerrar el diálogo');
    const same = dialogWordKeys.filter((key) => es.words[key] === en.words[key]);
    // "Error" is a word in both languages.
    expect(same).toEqual(['toast.copyFailed.title', 'toast.sendFailed.title']);
  });

  test('the placeholders are the same in both languages, and all are filled', () => {
    const names = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
    for (const key of dialogWordKeys) expect(names(es.words[key]), key).toEqual(names(en.words[key]));
    expect(fillWords(es.words['note.count'], { count: 12, max: 600 })).toBe('12 de 600 caracteres');
    expect(fillWords(en.words['note.count'], { count: 12, max: 600 })).toBe('12 of 600 characters');
  });

  test('the words travel through the page as they are, and a page that gives fewer fails naming them', () => {
    expect(dialogWordsFrom(JSON.stringify(es))).toEqual(es);
    expect(() => dialogWordsFrom(undefined)).toThrow(/data-dialog-words/);
    const { title: _title, ...rest } = es.words;
    expect(() => dialogWordsFrom(JSON.stringify({ locale: 'es', words: rest, share: es.share }))).toThrow(/lacks title$/);
    expect(() => dialogWordsFrom(JSON.stringify({ locale: 'fr', words: es.words, share: es.share }))).toThrow(/locale/);
    // The share block's words come with them (issue 48: the school's page to share, in Spanish).
    const { message: _message, ...share } = es.share;
    expect(() => dialogWordsFrom(JSON.stringify({ locale: 'es', words: es.words, share }))).toThrow(/lacks share\.message$/);
    expect(es.share.message).toMatch(/^Escribí a \{school\}/);
  });
});
