import { useId, useState } from 'react';
import { apiRequest, failureMessage, formatDate } from '../../../lib/browser/admin-api';
import { buttonClass } from '../../../lib/shared/ui';

interface Words {
  messageId: string;
  field: 'note' | 'own_words' | 'answer_comment';
  schoolName: string;
  firstName: string;
  words: string;
  sentAt: string | null;
  starred: boolean;
  /** The copy the school page shows, when starred. */
  starredCopy?: string;
}

const fieldLabels = { note: 'Note', own_words: 'What would this change for your child?', answer_comment: 'Comment on the answer' } as const;

/**
 * Parents' own words: read on request (each read is on the audit log), only of parents who agreed to
 * be quoted and from letters that reached their school; starred by a person to appear on that
 * school's page with the parent's first name, as the copy staff leave (a child's name cut out). The
 * server takes out email addresses, links and phone numbers. Nothing unstarred is shown anywhere.
 */
export function ParentWordsSection() {
  const [words, setWords] = useState<Words[] | null>(null);
  const [cursor, setCursor] = useState<string>();
  const [error, setError] = useState<string>();
  // The copy staff are editing, by entry; what the school page shows once starred.
  const [copies, setCopies] = useState<Record<string, string>>({});
  const id = useId();
  const keyOf = (entry: Words) => `${entry.messageId}-${entry.field}`;
  const copyOf = (entry: Words) => copies[keyOf(entry)] ?? entry.starredCopy ?? entry.words;

  async function load(after?: string) {
    try {
      const page = await apiRequest<{ words: Words[]; nextCursor?: string }>('GET', `/api/admin/words${after ? `?cursor=${encodeURIComponent(after)}` : ''}`);
      setWords((current) => [...(after ? (current ?? []) : []), ...page.words]);
      setCursor(page.nextCursor);
      setError(undefined);
    } catch (failure) {
      setError(failureMessage(failure, 'The words could not be loaded.'));
    }
  }

  async function star(entry: Words, starred: boolean) {
    try {
      const copy = copyOf(entry);
      const answer = await apiRequest<{ starred: boolean; words?: string }>(
        'POST',
        `/api/admin/words/${starred ? 'star' : 'unstar'}`,
        starred
          ? { messageId: entry.messageId, field: entry.field, ...(copy !== entry.words ? { words: copy } : {}) }
          : { messageId: entry.messageId, field: entry.field },
      );
      setWords(
        (current) =>
          current?.map((item) =>
            keyOf(item) === keyOf(entry)
              ? { ...item, starred: answer.starred, ...(answer.words ? { starredCopy: answer.words } : { starredCopy: undefined }) }
              : item,
          ) ?? null,
      );
      if (answer.words) setCopies((current) => ({ ...current, [keyOf(entry)]: answer.words! }));
      setError(undefined);
    } catch (failure) {
      setError(failureMessage(failure, 'The words could not be changed.'));
    }
  }

  return (
    <section aria-labelledby={`${id}-title`} className="mt-10">
      <h2 id={`${id}-title`} className="text-xl font-bold">
        Parents’ words
      </h2>
      <p className="text-sm text-muted">
        Only parents who agreed to be quoted, from letters that reached their school. Cut from the copy what should not be shown (a child’s name: put “[name]”
        in its place), then star it for their school’s page (first name only). Email addresses, links and phone numbers are taken out. Opening this list is
        recorded on the audit log.
      </p>
      {error && (
        <p role="alert" className="mt-2 rounded-lg bg-danger-50 px-3 py-2 text-sm text-danger-600">
          {error}
        </p>
      )}
      {!words && (
        <button type="button" className={`${buttonClass('secondary', 'sm')} mt-3`} onClick={() => void load()}>
          Read parents’ words
        </button>
      )}
      {words && words.length === 0 && (
        <p className="mt-3 text-sm text-muted">No parent who agreed to be quoted has a delivered letter with words of their own yet.</p>
      )}
      {words && words.length > 0 && (
        <ul className="mt-3 grid gap-3">
          {words.map((entry) => (
            <li key={`${entry.messageId}-${entry.field}`} className="rounded-card border border-line bg-white p-4">
              <p className="text-xs font-semibold uppercase tracking-wide text-muted">
                {fieldLabels[entry.field]} · {entry.firstName}, {entry.schoolName}
                {entry.sentAt ? ` · ${formatDate(entry.sentAt)}` : ''}
              </p>
              <blockquote className="mt-2 whitespace-pre-line text-ink">“{entry.words}”</blockquote>
              <label htmlFor={`${id}-${keyOf(entry)}`} className="mt-3 block text-sm font-semibold">
                Copy for the school page
                <span className="sr-only">
                  {' '}
                  ({fieldLabels[entry.field]}, {entry.firstName})
                </span>
              </label>
              <textarea
                id={`${id}-${keyOf(entry)}`}
                rows={3}
                maxLength={2000}
                value={copyOf(entry)}
                onChange={(event) => setCopies((current) => ({ ...current, [keyOf(entry)]: event.target.value }))}
                className="mt-1 block w-full rounded-xl border border-line bg-white px-3 py-2 text-sm"
              />
              <div className="mt-3 flex flex-wrap gap-2">
                <button
                  type="button"
                  aria-pressed={entry.starred}
                  className={buttonClass(entry.starred ? 'primary' : 'secondary', 'sm')}
                  onClick={() => void star(entry, !entry.starred)}
                >
                  {entry.starred ? '★ Starred for the school page' : '☆ Star for the school page'}
                </button>
                {entry.starred && copyOf(entry) !== entry.starredCopy && (
                  <button type="button" className={buttonClass('secondary', 'sm')} onClick={() => void star(entry, true)}>
                    Save the copy
                  </button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      {cursor && (
        <button type="button" className={`${buttonClass('secondary', 'sm')} mt-3`} onClick={() => void load(cursor)}>
          Load more
        </button>
      )}
    </section>
  );
}
