import { atom } from 'nanostores';

/** How long a toast stays, in milliseconds (the specification's 5 s). */
export const TOAST_DURATION = 5000;

export type ToastVariant = 'default' | 'destructive';

export interface Toast {
  id: number;
  title: string;
  description?: string;
  variant: ToastVariant;
  duration: number;
}

/** At most one toast is visible: a new one replaces the current one. */
export const $toast = atom<Toast | null>(null);

let nextId = 1;
let timer: ReturnType<typeof setTimeout> | undefined;

export function showToast(input: { title: string; description?: string; variant?: ToastVariant; duration?: number }): Toast {
  const toast: Toast = {
    id: nextId++,
    title: input.title,
    description: input.description,
    variant: input.variant ?? 'default',
    duration: input.duration ?? TOAST_DURATION,
  };
  clearTimeout(timer);
  $toast.set(toast);
  timer = setTimeout(() => dismissToast(toast.id), toast.duration);
  return toast;
}

export function dismissToast(id?: number): void {
  const current = $toast.get();
  if (current && (id === undefined || current.id === id)) {
    clearTimeout(timer);
    $toast.set(null);
  }
}
