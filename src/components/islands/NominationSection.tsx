import { useId, useRef, useState, type SubmitEvent } from 'react';
import { submitNomination, type NominationWords } from '../../lib/shared/nomination';
import type { Nomination } from '../../lib/shared/schemas';
import { showToast } from '../../lib/browser/frame/toast';
import { buttonClass } from '../../lib/shared/ui';

interface Props {
  bookingUrl: string;
  /** Its words in the page's language (`nominationWords`, content/i18n/{locale}/homeBands.yaml). */
  words: NominationWords;
  /** For tests: start in the thank-you view. */
  initialView?: 'form' | 'thanks';
}

const fields: Array<{ name: keyof Nomination; type?: string; autoComplete?: string }> = [
  { name: 'schoolName', autoComplete: 'organization' },
  { name: 'city', autoComplete: 'address-level2' },
  { name: 'yourName', autoComplete: 'name' },
  { name: 'email', type: 'email', autoComplete: 'email' },
  { name: 'childGrade' },
  { name: 'sendTo' },
];

/** The home nomination section (switched off by default): book a call or nominate a school. */
export default function NominationSection({ bookingUrl, words: w, initialView = 'form' }: Props) {
  const steps = [
    { title: w.step1Title, body: w.step1Body },
    { title: w.step2Title, body: w.step2Body },
    { title: w.step3Title, body: w.step3Body },
  ];
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  const [view, setView] = useState(initialView);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<keyof Nomination, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);

  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setFailure(null);
    const values = Object.fromEntries(new FormData(event.currentTarget).entries());
    const result = await submitNomination(values, w);
    setBusy(false);
    if (result.ok) {
      setErrors({});
      form.current?.reset();
      setView('thanks');
      showToast({ title: w.successTitle, description: w.success });
    } else if (result.kind === 'invalid') {
      setErrors(result.fieldErrors);
      const first = Object.keys(result.fieldErrors)[0];
      if (first) form.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
    } else {
      setErrors({});
      setFailure(w.failure);
      showToast({ title: w.failureTitle, description: w.failure, variant: 'destructive' });
    }
  };

  return (
    <section id="nominate" aria-labelledby={`${id}-title`} className="bg-white px-4 py-section" data-nomination-section>
      <div className="mx-auto grid max-w-6xl gap-10 lg:grid-cols-2">
        <div>
          <p className="text-sm font-semibold uppercase tracking-widest text-accent-600">{w.eyebrow}</p>
          <h2 id={`${id}-title`} className="mt-2 text-title font-extrabold tracking-tight">
            {w.title}
          </h2>
          <ol className="mt-8 space-y-5">
            {steps.map((step, index) => (
              <li key={step.title} className="flex gap-4">
                <span className="inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-brand-600 font-bold text-white" aria-hidden="true">
                  {index + 1}
                </span>
                <div>
                  <h3 className="font-bold">{step.title}</h3>
                  <p className="text-ink-soft">{step.body}</p>
                </div>
              </li>
            ))}
          </ol>
          <a href={bookingUrl} target="_blank" rel="noopener noreferrer" className={buttonClass('accent', 'lg', 'mt-8')}>
            {w.book}
            <span className="sr-only"> {w.newTab}</span>
          </a>
        </div>
        <div className="rounded-card border border-line bg-canvas p-6 sm:p-8">
          {view === 'thanks' ? (
            <div role="status" className="text-center" data-nomination-thanks>
              <h3 className="text-xl font-bold">{w.thanksTitle}</h3>
              <p className="mt-2 text-ink-soft">{w.success}</p>
              <button type="button" className={buttonClass('primary', 'md', 'mt-6')} onClick={() => setView('form')}>
                {w.another}
              </button>
            </div>
          ) : (
            <form ref={form} noValidate onSubmit={onSubmit} aria-describedby={failure ? `${id}-failure` : undefined} data-nomination-form>
              <h3 className="text-xl font-bold">{w.formTitle}</h3>
              <div className="mt-5 grid gap-4 sm:grid-cols-2">
                {fields.map((field) => (
                  <div key={field.name} className={field.name === 'sendTo' ? 'sm:col-span-2' : undefined}>
                    <label htmlFor={`${id}-${field.name}`} className="block text-sm font-semibold">
                      {w[field.name]}
                    </label>
                    <input
                      id={`${id}-${field.name}`}
                      name={field.name}
                      type={field.type ?? 'text'}
                      autoComplete={field.autoComplete}
                      required
                      aria-invalid={errors[field.name] ? true : undefined}
                      aria-describedby={errors[field.name] ? `${id}-${field.name}-error` : undefined}
                      className="mt-1 block min-h-11 w-full rounded-lg border border-line bg-white px-3 text-ink"
                    />
                    {errors[field.name] && (
                      <p id={`${id}-${field.name}-error`} className="mt-1 text-sm text-danger-600">
                        {errors[field.name]}
                      </p>
                    )}
                  </div>
                ))}
              </div>
              {failure && (
                <p id={`${id}-failure`} role="alert" className="mt-4 rounded-lg bg-danger-50 p-3 text-sm text-danger-600">
                  {failure}
                </p>
              )}
              <button type="submit" disabled={busy} className={buttonClass('primary', 'lg', 'mt-6 w-full')}>
                {busy ? w.submitting : w.submit}
              </button>
            </form>
          )}
        </div>
      </div>
    </section>
  );
}
