import { useEffect, useId, useState } from 'react';
import { canShareNatively, copyShareLink, nativeShare } from '../../lib/browser/school-share';
import { forSchool, shareLinks, shareToastsOf, type ShareWords } from '../../lib/shared/share-words';
import { buttonClass } from '../../lib/shared/ui';

/**
 * The school's page to share, right after the parent says they sent their email: the link (with
 * their referral code), "Copy link", the device's share sheet where there is one, and plain
 * WhatsApp, SMS and email links. The /confirm-send page draws the same block on the server.
 */
export function SchoolShare({ url, schoolName, words }: { url: string; schoolName: string; words: ShareWords }) {
  const id = useId();
  const [native, setNative] = useState(false);
  useEffect(() => setNative(canShareNatively()), []);
  const say = (key: keyof ShareWords) => forSchool(words[key], schoolName);
  const data = { title: say('shareTitle'), text: say('message'), url };
  return (
    <section aria-labelledby={`${id}-title`} className="space-y-2 rounded-xl border border-brand-200 bg-brand-50 p-3" data-testid="school-share">
      <h4 id={`${id}-title`} className="text-sm font-semibold">
        {say('title')}
      </h4>
      <p className="text-sm text-ink-soft">{say('leadShort')}</p>
      <label htmlFor={`${id}-link`} className="sr-only">
        {say('linkLabel')}
      </label>
      <input
        id={`${id}-link`}
        type="url"
        readOnly
        value={url}
        className="w-full rounded-lg border border-line bg-white px-2 py-1 text-xs text-ink"
        onFocus={(event) => event.currentTarget.select()}
      />
      <div className="flex flex-wrap gap-2">
        <button type="button" className={buttonClass('primary', 'sm')} onClick={() => void copyShareLink(url, shareToastsOf(words))}>
          {say('copy')}
        </button>
        {native && (
          <button type="button" className={buttonClass('accent', 'sm')} onClick={() => void nativeShare(data)}>
            {say('native')}
          </button>
        )}
        {shareLinks(words, schoolName, url).map((link) => (
          <a key={link.label} className={buttonClass('secondary', 'sm')} href={link.href}>
            {link.label}
          </a>
        ))}
      </div>
    </section>
  );
}
