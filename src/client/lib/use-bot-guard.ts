import { useState, useSyncExternalStore } from 'react';
import { formShownAt, looksAutomated, type GuardedForm } from '../../shared/bot-guard.js';

const noSubscribe = () => () => undefined;

/** When the page was first painted (epoch ms), or null where the browser does not say. */
function firstPaintAt(): number | null {
  if (typeof performance === 'undefined' || typeof performance.getEntriesByType !== 'function') return null;
  const paint = performance.getEntriesByType('paint').find((e) => e.name === 'first-contentful-paint' || e.name === 'first-paint');
  if (paint) return performance.timeOrigin + paint.startTime;
  const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
  return nav ? performance.timeOrigin + nav.responseEnd : null;
}

/** One form's clock and decoy: `attach` is the <form>'s ref callback, `check` runs at submit. */
class FormBotGuard {
  private shownAt: number | null = null;
  private observer: IntersectionObserver | null = null;

  constructor(
    private readonly form: GuardedForm | null,
    /** Drawn by the server and hydrated (on screen since the first paint), or drawn by the browser now. */
    private readonly hydrated: boolean,
  ) {}

  /** The timer starts when the form is visible: drawn and in view. */
  readonly attach = (el: HTMLFormElement | null): void => {
    this.observer?.disconnect();
    this.observer = null;
    if (!el) return;
    const mountedAt = Date.now();
    const paint = firstPaintAt();
    this.shownAt = formShownAt({ hydrated: this.hydrated, firstPaintAt: paint, mountedAt, inViewAt: null });
    if (typeof IntersectionObserver === 'undefined') return;
    let first = true;
    this.observer = new IntersectionObserver((entries) => {
      const visible = entries.some((e) => e.isIntersecting);
      if (first && visible) {
        // In view from the start: timed from when it was drawn.
        this.observer?.disconnect();
      } else if (first) {
        // Out of view: the clock waits until it scrolls in.
        this.shownAt = null;
      } else if (visible && this.shownAt === null) {
        this.shownAt = formShownAt({ hydrated: this.hydrated, firstPaintAt: paint, mountedAt, inViewAt: Date.now() });
        this.observer?.disconnect();
      }
      first = false;
    });
    this.observer.observe(el);
  };

  /** At submit: the values the server checks, and whether they look automated for this form. */
  readonly check = (el: HTMLFormElement): { elapsedMs: number; website: string; automated: boolean } => {
    const elapsedMs = this.shownAt === null ? 0 : Math.max(0, Math.round(Date.now() - this.shownAt));
    const decoy = new FormData(el).get('website');
    const website = typeof decoy === 'string' ? decoy : '';
    return { elapsedMs, website, automated: looksAutomated(this.form, { elapsedMs, website }) };
  };
}

/**
 * The one bot guard of the shop's forms (src/shared/bot-guard.ts): timed from when the form became
 * visible (its first paint when the server drew it, its mount after a navigation, or when it
 * scrolled into view), restarted when the form remounts (a tab change), plus the decoy field.
 * `form` null: only the decoy (no timer where the specification names none).
 */
export function useBotGuard(form: GuardedForm | null): FormBotGuard {
  // True only while React hydrates the server's HTML (its first render uses the server snapshot).
  const hydrating = useSyncExternalStore(
    noSubscribe,
    () => false,
    () => true,
  );
  const [guard] = useState(() => new FormBotGuard(form, hydrating));
  return guard;
}
