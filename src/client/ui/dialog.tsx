import { useEffect, useId, useRef, type ReactNode } from 'react';
import { CloseIcon } from './icons.js';

type DialogProps = {
  open: boolean;
  onClose: () => void;
  /** The heading, which names the dialog. */
  title: ReactNode;
  children: ReactNode;
  /** Buttons under the scrolling body, always in view (e.g. Close and Print). */
  footer?: ReactNode;
  /** More classes for the <dialog> itself (e.g. its print layout). */
  className?: string;
};

/** The fields a person types in or picks from, the first of which a form dialog opens on. */
const FIRST_FIELD = 'input:not([type=hidden]):not([disabled]):not([tabindex="-1"]), select:not([disabled]), textarea:not([disabled])';

let locks = 0;
let kept: { overflow: string; paddingRight: string } | null = null;

/**
 * Stops the page behind a dialog from scrolling; the scrollbar's width becomes padding so nothing
 * shifts sideways. Counted, so a dialog opened over another unlocks only when the last one closes.
 */
function lockPageScroll(): () => void {
  const root = document.documentElement;
  if (locks++ === 0) {
    kept = { overflow: root.style.overflow, paddingRight: root.style.paddingRight };
    const scrollbar = window.innerWidth - root.clientWidth;
    root.style.overflow = 'hidden';
    if (scrollbar > 0) root.style.paddingRight = `${scrollbar}px`;
  }
  return () => {
    if (--locks > 0 || !kept) return;
    root.style.overflow = kept.overflow;
    root.style.paddingRight = kept.paddingRight;
    kept = null;
  };
}

/**
 * Modal built on the native <dialog>: showModal() gives us the focus trap, Escape handling and
 * inert background for free; we only return focus to whatever opened it. Printed, it drops its
 * screen chrome (Close button, footer, scrolling).
 */
export function Dialog({ open, onClose, title, children, footer, className = '' }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const returnFocusTo = useRef<HTMLElement | null>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      returnFocusTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
      // A form opens on its first field (showModal alone would focus the Close button); a dialog of
      // text keeps the browser's choice.
      dialog.querySelector<HTMLElement>(FIRST_FIELD)?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  // The page behind stays where it is while the dialog is open (no scrolling it by wheel or touch).
  useEffect(() => {
    if (!open) return;
    return lockPageScroll();
  }, [open]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const handleClose = () => {
      returnFocusTo.current?.focus();
      onClose();
    };
    dialog.addEventListener('close', handleClose);
    return () => dialog.removeEventListener('close', handleClose);
  }, [onClose]);

  return (
    // A click on the backdrop closes the dialog; the keyboard has Escape (native to <dialog>) and the Close button.
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      className={`m-auto max-h-[85vh] w-[calc(100%-2rem)] max-w-2xl rounded-xl bg-white p-0 text-stone-900 shadow-xl backdrop:bg-black/50 ${className}`}
      onClick={(e) => {
        // A click on the backdrop lands on the <dialog> element itself.
        if (e.target === e.currentTarget) ref.current?.close();
      }}
    >
      {open && (
        <div className="flex max-h-[85vh] flex-col print:max-h-none">
          <div className="flex items-center justify-between gap-4 border-b border-stone-200 px-6 py-4">
            <h2 id={titleId} className="text-xl font-semibold">
              {title}
            </h2>
            <button
              type="button"
              onClick={() => ref.current?.close()}
              aria-label="Close"
              className="rounded-md p-2 text-stone-700 hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-brand-600 print:hidden"
            >
              <CloseIcon size={20} />
            </button>
          </div>
          {/* Focusable so keyboard users can scroll long text that has no links in it. */}
          <div
            // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
            tabIndex={0}
            className="overflow-y-auto px-6 py-4 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600 print:overflow-visible"
          >
            {children}
          </div>
          {footer && (
            <div className="flex flex-col-reverse gap-2 border-t border-stone-200 px-6 py-4 sm:flex-row sm:justify-end print:hidden">
              {footer}
            </div>
          )}
        </div>
      )}
    </dialog>
  );
}
