import { useId, type ReactNode } from 'react';
import { buttonClass } from '../../../lib/ui';

const inputClass =
  'mt-1 block w-full rounded-lg border bg-white px-3 py-2 text-sm text-ink placeholder:text-muted aria-[invalid=true]:border-danger-600';

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

export function CheckboxField({ label, name, checked, onChange, hint }: { label: string; name: string; checked: boolean; onChange: (checked: boolean) => void; hint?: string }) {
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
  return <span className={`inline-flex items-center rounded-pill px-2.5 py-0.5 text-xs font-semibold ${tones[tone]}`}>{children}</span>;
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="rounded-card border border-dashed border-line bg-white px-6 py-10 text-center">
      <p className="font-semibold text-ink">{title}</p>
      {children && <div className="mt-1 text-sm text-muted">{children}</div>}
    </div>
  );
}

/** A dialog form's footer: Cancel, and the submit button that names what is under way while busy. */
export function DialogActions({ onCancel, busy, label, busyLabel }: { onCancel: () => void; busy: boolean; label: string; busyLabel: string }) {
  return (
    <div className="flex justify-end gap-2 border-t border-line pt-4">
      <button type="button" className={buttonClass('secondary', 'sm')} onClick={onCancel}>
        Cancel
      </button>
      <button type="submit" className={buttonClass('primary', 'sm')} disabled={busy}>
        {busy ? busyLabel : label}
      </button>
    </div>
  );
}

/** The header row's look, shared by every admin table. */
export const tableHeadClass = 'border-b border-line bg-canvas text-xs uppercase tracking-wide text-muted';

/**
 * A wide table that scrolls sideways in its own focusable region on a narrow screen. The region is
 * the containing block of what is absolutely placed inside (screen-reader-only text), so nothing
 * escapes it and widens the page.
 */
export function ScrollTable({ label, minWidth, children }: { label: string; /** a Tailwind min-w-[…] class */ minWidth: string; children: ReactNode }) {
  return (
    <div className="relative overflow-x-auto rounded-card border border-line bg-white" tabIndex={0} role="region" aria-label={label}>
      <table className={`w-full ${minWidth} text-left text-sm`}>{children}</table>
    </div>
  );
}

/** "Load older …" under a paged list. */
export function LoadOlder({ onClick, children }: { onClick: () => void; children: ReactNode }) {
  return (
    <div className="mt-4 text-center">
      <button type="button" className={buttonClass('secondary', 'sm')} onClick={onClick}>
        {children}
      </button>
    </div>
  );
}
