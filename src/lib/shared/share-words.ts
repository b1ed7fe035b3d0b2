/**
 * The words of the school's page to share (content/i18n/{locale}/share.yaml), in the parent's
 * language: the block /confirm-send draws (shareBlockHtml) and the email dialog's SchoolShare, the
 * message they share and the links for the apps a parent shares with.
 */
import { fillWords, type Translate } from './i18n/translator';

export const shareWordKeys = [
  'title',
  'lead',
  'leadShort',
  'linkLabel',
  'copy',
  'native',
  'shareTitle',
  'message',
  'apps.whatsapp',
  'apps.sms',
  'apps.email',
  'copied.title',
  'copied.description',
  'copyFailed.title',
  'copyFailed.description',
] as const;

/** The words with `{school}` still in them (filled where the school is known). */
export type ShareWords = Record<(typeof shareWordKeys)[number], string>;

export function shareWordsOf(t: Translate): ShareWords {
  return Object.fromEntries(shareWordKeys.map((key) => [key, t(`share.${key}`)])) as ShareWords;
}

/** One of the words with the school's name in it. */
export const forSchool = (text: string, school: string) => fillWords(text, { school });

/** Plain links for the apps a parent shares with, each opening that app with the message (`message`, else the usual one) and link. */
export function shareLinks(words: ShareWords, school: string, url: string, message = forSchool(words.message, school)): Array<{ label: string; href: string }> {
  const text = `${message} ${url}`;
  return [
    { label: words['apps.whatsapp'], href: `https://wa.me/?text=${encodeURIComponent(text)}` },
    { label: words['apps.sms'], href: `sms:?&body=${encodeURIComponent(text)}` },
    { label: words['apps.email'], href: `mailto:?subject=${encodeURIComponent(forSchool(words.shareTitle, school))}&body=${encodeURIComponent(text)}` },
  ];
}

/** The notices of "Copy link": copied, or not (then the link is selected in its box). */
export function shareToastsOf(words: ShareWords) {
  return {
    copied: { title: words['copied.title'], description: words['copied.description'] },
    failed: { title: words['copyFailed.title'], description: words['copyFailed.description'], variant: 'destructive' as const },
  };
}
export type ShareToasts = ReturnType<typeof shareToastsOf>;
