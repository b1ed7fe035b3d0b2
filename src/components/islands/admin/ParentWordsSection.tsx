import { useId, useState } from 'react';
import { apiRequest, failureMessage, formatDate } from '../../../lib/admin-api';
import { buttonClass } from '../../../lib/ui';

interface Words {
  messageId: string;
  field: 'note' | 'own_words' | 'answer_comment';
  schoolName: string;
  firstName: string;
  words: string;
  sentAt: string | null;
  starred: boolean;
}

const fieldLabels = { note: 'Note', own_words: 'What would this change for your child?', answer_comment: 'Comment on the answer' } as const;

/**
 * Parents' own words: read on request (each read is on the audit log), and starred by a person to
 * appear on that school's page with the parent's first name. Nothing unstarred is shown anywhere.
 */
export function ParentWordsSection() {
  const [words, setWords] = useState<Words[] | null>(null);
  const [cursor, setCursor] = useState<string>();
  const [error, setError] = useState<string>();
  const id = useId();

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

  async function toggle(entry: Words) {
    try {
      await apiRequest('POST', `/api/admin/words/${entry.starred ? 'unstar' : 'star'}`, { messageId: entry.messageId, field: entry.field });
      setWords(
        (current) =>
          current?.map((item) => (item.messageId === entry.messageId && item.field === entry.field ? { ...item, starred: !entry.starred } : item)) ?? null,
      );
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
        Star the words that may appear on their school’s page (first name only). Opening this list is recorded on the audit log.
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
      {words && words.length === 0 && <p className="mt-3 text-sm text-muted">No parent has written words of their own yet.</p>}
      {words && words.length > 0 && (
        <ul className="mt-3 grid gap-3">
          {words.map((entry) => (
            <li key={`${entry.messageId}-${entry.field}`} className="rounded-card border border-line bg-white p-4">
              <p className="text-xs font-semibold uppercase tracking-wide text-muted">
                {fieldLabels[entry.field]} · {entry.firstName}, {entry.schoolName}
                {entry.sentAt ? ` · ${formatDate(entry.sentAt)}` : ''}
              </p>
              <blockquote className="mt-2 whitespace-pre-line text-ink">“{entry.words}”</blockquote>
              <button
                type="button"
                aria-pressed={entry.starred}
                className={`${buttonClass(entry.starred ? 'primary' : 'secondary', 'sm')} mt-3`}
                onClick={() => void toggle(entry)}
              >
                {entry.starred ? '★ Starred for the school page' : '☆ Star for the school page'}
              </button>
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
