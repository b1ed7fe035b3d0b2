import { useEffect, useId, useState, type ReactNode, type SubmitEvent } from 'react';
import type { z } from 'zod';
import { apiRequest, failureMessage, fieldErrors } from '../../../lib/browser/admin-api';
import { showToast } from '../../../lib/browser/frame/toast';
import { buttonClass } from '../../../lib/shared/ui';

const inputClass = 'mt-1 block w-full rounded-lg border bg-white px-3 py-2 text-sm text-ink placeholder:text-muted aria-[invalid=true]:border-danger-600';

interface FieldProps {
  label: string;
  name: string;
  error?: string;
  hint?: ReactNode;
  required?: boolean;
}

function Message({ id, error, hint }: { id: string; error?: string; hint?: ReactNode }) {
  return (
    <>
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-muted">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm font-medium text-danger-600">
          {error}
        </p>
      )}
    </>
  );
}

const describedBy = (id: string, error?: string, hint?: ReactNode) =>
  [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;

function Label({ htmlFor, label, required }: { htmlFor: string; label: string; required?: boolean }) {
  return (
    <label htmlFor={htmlFor} className="block text-sm font-semibold text-ink">
      {label}
      {required && (
        <span className="text-danger-600" aria-hidden="true">
          {' '}
          *
        </span>
      )}
    </label>
  );
}

export function TextField({
  label,
  name,
  error,
  hint,
  required,
  value,
  onChange,
  type = 'text',
  placeholder,
  autoComplete = 'off',
}: FieldProps & { value: string; onChange: (value: string) => void; type?: string; placeholder?: string; autoComplete?: string }) {
  const id = useId();
  return (
    <div>
      <Label htmlFor={id} label={label} required={required} />
      <input
        id={id}
        name={name}
        type={type}
        value={value}
        placeholder={placeholder}
        autoComplete={autoComplete}
        spellCheck={false}
        aria-required={required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        onChange={(event) => onChange(event.target.value)}
        className={`${inputClass} ${error ? 'border-danger-600' : 'border-line'}`}
      />
      <Message id={id} error={error} hint={hint} />
    </div>
  );
}

export function TextAreaField({ label, name, error, hint, value, onChange }: FieldProps & { value: string; onChange: (value: string) => void }) {
  const id = useId();
  return (
    <div>
      <Label htmlFor={id} label={label} />
      <textarea
        id={id}
        name={name}
        rows={2}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        onChange={(event) => onChange(event.target.value)}
        className={`${inputClass} border-line`}
      />
      <Message id={id} error={error} hint={hint} />
    </div>
  );
}

export function SelectField({
  label,
  name,
  error,
  required,
  value,
  onChange,
  options,
  placeholder,
}: FieldProps & { value: string; onChange: (value: string) => void; options: Array<{ value: string; label: string }>; placeholder: string }) {
  const id = useId();
  return (
    <div>
      <Label htmlFor={id} label={label} required={required} />
      <select
        id={id}
        name={name}
        value={value}
        aria-required={required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error)}
        onChange={(event) => onChange(event.target.value)}
        className={`${inputClass} ${error ? 'border-danger-600' : 'border-line'}`}
      >
        <option value="">{placeholder}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <Message id={id} error={error} />
    </div>
  );
}

export function CheckboxField({
  label,
  name,
  checked,
  onChange,
  hint,
}: {
  label: string;
  name: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  hint?: string;
}) {
  const id = useId();
  return (
    <div className="flex items-start gap-3">
      <input
        id={id}
        name={name}
        type="checkbox"
        checked={checked}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onChange={(event) => onChange(event.target.checked)}
        className="mt-0.5 h-5 w-5 rounded border-line accent-brand-600"
      />
      <div>
        <label htmlFor={id} className="text-sm font-semibold text-ink">
          {label}
        </label>
        {hint && (
          <p id={`${id}-hint`} className="text-xs text-muted">
            {hint}
          </p>
        )}
      </div>
    </div>
  );
}

/** A group of checkboxes with one legend and one error, e.g. the webhook events. */
export function CheckboxGroup({
  legend,
  name,
  options,
  values,
  onChange,
  error,
  required,
}: {
  legend: string;
  name: string;
  options: readonly string[];
  values: string[];
  onChange: (values: string[]) => void;
  error?: string;
  required?: boolean;
}) {
  const id = useId();
  return (
    <fieldset aria-describedby={error ? `${id}-error` : undefined} aria-invalid={error ? true : undefined}>
      <legend className="text-sm font-semibold text-ink">
        {legend}
        {required && (
          <span className="text-danger-600" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </legend>
      <div className="mt-2 grid gap-2 sm:grid-cols-2">
        {options.map((option) => (
          <label key={option} className="flex items-center gap-2 rounded-lg border border-line px-3 py-2 text-sm">
            <input
              type="checkbox"
              name={name}
              value={option}
              checked={values.includes(option)}
              onChange={(event) => onChange(event.target.checked ? [...values, option] : values.filter((value) => value !== option))}
              className="h-4 w-4 accent-brand-600"
            />
            <code className="text-[0.8rem]">{option}</code>
          </label>
        ))}
      </div>
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm font-medium text-danger-600">
          {error}
        </p>
      )}
    </fieldset>
  );
}

const tones = {
  success: 'bg-green-100 text-success-600',
  error: 'bg-danger-50 text-danger-600',
  pending: 'bg-accent-100 text-ink',
  neutral: 'bg-canvas text-ink-soft',
  brand: 'bg-brand-100 text-brand-700',
} as const;

export function StatusBadge({ tone, children }: { tone: keyof typeof tones; children: ReactNode }) {
  return <span className={`inline-flex items-center rounded-pill px-2.5 py-0.5 text-xs font-semibold lg:whitespace-nowrap ${tones[tone]}`}>{children}</span>;
}

/** The box of a loading or an empty state: one size, so that one does not move the page into the other. */
export const stateBoxClass = 'flex min-h-32 flex-col items-center justify-center rounded-card border border-dashed border-line bg-white px-6 py-8 text-center';

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className={stateBoxClass}>
      <p className="font-semibold text-ink">{title}</p>
      {children && <div className="mt-1 text-sm text-muted">{children}</div>}
    </div>
  );
}

/** A button that names what is under way while `busy` ("Retrying…"), and cannot be pressed again meanwhile. */
export function BusyButton({
  busy,
  busyLabel,
  children,
  onClick,
  type = 'button',
  variant = 'secondary',
}: {
  busy: boolean;
  busyLabel: string;
  children: ReactNode;
  onClick?: () => void;
  type?: 'button' | 'submit';
  variant?: 'primary' | 'secondary';
}) {
  return (
    <button type={type} className={buttonClass(variant, 'sm')} disabled={busy} onClick={onClick}>
      {busy ? busyLabel : children}
    </button>
  );
}

/** A dialog form's footer: Cancel, and the submit button. */
export function DialogActions({ onCancel, busy, label, busyLabel }: { onCancel: () => void; busy: boolean; label: string; busyLabel: string }) {
  return (
    <div className="flex justify-end gap-2 border-t border-line pt-4">
      <button type="button" className={buttonClass('secondary', 'sm')} onClick={onCancel}>
        Cancel
      </button>
      <BusyButton type="submit" variant="primary" busy={busy} busyLabel={busyLabel}>
        {label}
      </BusyButton>
    </div>
  );
}

/** A failure said where it happened, announced as it appears. */
export function ErrorNote({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="mb-4 rounded-lg bg-danger-50 px-3 py-2 text-sm text-danger-600">
      {children}
    </p>
  );
}

/** A dialog's facts about one record (who, when, where), each a term and its value. */
export function Details({ children }: { children: ReactNode }) {
  return <dl className="space-y-1 rounded-xl border border-line bg-canvas p-4">{children}</dl>;
}

/** One of `Details`: "To: …". `className` goes on the value, e.g. `break-all` for an address. */
export function Detail({ term, className, children }: { term: string; className?: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap gap-x-2">
      <dt className="font-semibold">{term}:</dt>
      <dd className={className}>{children}</dd>
    </div>
  );
}

/** A tab's or a section's heading, the sentence under it, and its buttons on the right (Refresh, Add …). */
export function SectionHeader({ id, title, children, actions }: { id: string; title: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
      <div>
        <h2 id={id} className="text-xl font-bold">
          {title}
        </h2>
        <p className="text-sm text-muted">{children}</p>
      </div>
      {actions}
    </div>
  );
}

/** "From" and "To" dates of a period, each bounding the other; `inputClass` sizes them for the form they sit in. */
export function PeriodFields({
  value,
  onChange,
  inputClass,
}: {
  value: { from: string; to: string };
  onChange: (period: { from: string; to: string }) => void;
  inputClass: string;
}) {
  const id = useId();
  return (
    <>
      <div>
        <label htmlFor={`${id}-from`} className="block text-sm font-semibold">
          From
        </label>
        <input
          id={`${id}-from`}
          type="date"
          value={value.from}
          max={value.to || undefined}
          onChange={(event) => onChange({ from: event.target.value, to: value.to })}
          className={inputClass}
        />
      </div>
      <div>
        <label htmlFor={`${id}-to`} className="block text-sm font-semibold">
          To
        </label>
        <input
          id={`${id}-to`}
          type="date"
          value={value.to}
          min={value.from || undefined}
          onChange={(event) => onChange({ from: value.from, to: event.target.value })}
          className={inputClass}
        />
      </div>
    </>
  );
}

/**
 * A form's values as `schema` reads them, or undefined when a field is wrong; either way the form's
 * messages (keyed by field) are set, to none when all is well.
 */
export function validate<T>(schema: z.ZodType<T>, values: unknown, setErrors: (errors: Record<string, string>) => void): T | undefined {
  const parsed = schema.safeParse(values);
  setErrors(parsed.success ? {} : fieldErrors(parsed.error.issues));
  return parsed.success ? parsed.data : undefined;
}

/**
 * An "Add …" dialog's form: its values, set afresh from `initial()` each time the dialog opens; on
 * submit, `schema`'s messages beside the fields, or the parsed values posted to `path` and the
 * answer handed to `done`; a refusal is said in a toast with the server's sentence or `failure`.
 */
export function useAddForm<Values extends object, Answer>(options: {
  open: boolean;
  initial: () => Values;
  schema: z.ZodType;
  path: string;
  failure: string;
  done: (answer: Answer) => Promise<void>;
}) {
  const { open, initial, schema, path, failure, done } = options;
  const [form, setForm] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const set =
    <K extends keyof Values>(key: K) =>
    (value: Values[K]) =>
      setForm((current) => ({ ...current, [key]: value }));

  // biome-ignore lint/correctness/useExhaustiveDependencies: the form starts afresh each time the dialog opens, not when initial() is redefined
  useEffect(() => {
    if (open) {
      setForm(initial());
      setErrors({});
    }
  }, [open]);

  async function submit(event: SubmitEvent) {
    event.preventDefault();
    const values = validate(schema, form, setErrors);
    if (values === undefined) return;
    setBusy(true);
    try {
      await done(await apiRequest<Answer>('POST', path, values));
    } catch (error) {
      showToast({ title: 'Error', description: failureMessage(error, failure), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }

  return { form, errors, busy, set, submit };
}

export const tableHeadClass = 'border-b border-line bg-canvas text-xs uppercase tracking-wide text-muted';

/**
 * A table of figures (the Insights tab's), not a list of records (those are AdminList): it scrolls
 * sideways in its own focusable region on a narrow screen, and the region is the containing block
 * of what is absolutely placed inside (screen-reader-only text), so nothing widens the page.
 */
export function ScrollTable({ label, minWidth, children }: { label: string /** a Tailwind min-width class */; minWidth: string; children: ReactNode }) {
  return (
    <div className="relative overflow-x-auto rounded-card border border-line bg-white" tabIndex={0} role="region" aria-label={label}>
      <table className={`w-full ${minWidth} text-left text-sm`}>{children}</table>
    </div>
  );
}
