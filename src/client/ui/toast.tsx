import { useSyncExternalStore } from 'react';
import { CloseIcon } from './icons.js';

type ToastInput = {
  title: string;
  description?: string;
  variant?: 'default' | 'destructive';
};

type ToastState = (ToastInput & { id: number }) | null;

/** The spec's toaster shows one toast at a time; a new one replaces the current one. */
const TOAST_DURATION_MS = 4000;

let current: ToastState = null;
let nextId = 1;
let timer: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<() => void>();

function emit(): void {
  for (const l of listeners) l();
}

function dismissToast(): void {
  if (timer) clearTimeout(timer);
  timer = undefined;
  current = null;
  emit();
}

export function toast(input: ToastInput): void {
  if (timer) clearTimeout(timer);
  current = { ...input, id: nextId++ };
  timer = setTimeout(dismissToast, TOAST_DURATION_MS);
  emit();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const getSnapshot = (): ToastState => current;

export function Toaster() {
  const t = useSyncExternalStore(subscribe, getSnapshot, () => null);
  const destructive = t?.variant === 'destructive';
  return (
    <div
      role="status"
      aria-live="polite"
      aria-atomic="true"
      className="pointer-events-none fixed inset-x-0 bottom-0 z-50 flex justify-center p-4 sm:inset-x-auto sm:right-0 sm:justify-end"
    >
      {t && (
        <div
          key={t.id}
          className={`pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-lg border p-4 shadow-lg ${
            destructive ? 'border-red-800 bg-red-700 text-white' : 'border-stone-200 bg-white text-stone-900'
          }`}
        >
          <div className="flex-1">
            <p className="font-semibold">{t.title}</p>
            {t.description && (
              <p className={`mt-1 whitespace-pre-line text-sm ${destructive ? 'text-white' : 'text-stone-700'}`}>{t.description}</p>
            )}
          </div>
          <button
            type="button"
            onClick={dismissToast}
            aria-label="Close notification"
            className="rounded p-1 hover:bg-black/10 focus-visible:outline-2 focus-visible:outline-current"
          >
            <CloseIcon size={16} />
          </button>
        </div>
      )}
    </div>
  );
}
