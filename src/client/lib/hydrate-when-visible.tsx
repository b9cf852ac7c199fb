import { memo, Suspense, use, type ComponentType, type ReactNode } from 'react';
import { useLocation, type Location } from 'react-router';

/**
 * True from when start.tsx hydrates the server's HTML until the shopper first moves to another
 * location: only on the page the server drew may a part stay as the server drew it. From the first
 * navigation on, every part renders at once, as before, so a page opened by a link (or the first
 * page again, from the back button) never waits for anything.
 */
let onServerPage = false;
let serverPageLocation: Location | undefined;

export function hydratingServerPage(): void {
  onServerPage = true;
}

function seeLocation(location: Location): void {
  serverPageLocation ??= location;
  // The router makes a new location object for every navigation, and keeps it between renders.
  if (location !== serverPageLocation) onServerPage = false;
}

/**
 * Called by the layout on every render. Another location ends the waiting during that render, not
 * in an effect: the new page's parts render after the layout and must not wait.
 */
export function useFirstPageEnd(): void {
  seeLocation(useLocation());
}

type Wait = { element: Element; promise: Promise<void>; release: () => void; released: boolean };

const waits = new Map<string, Wait>();
/** Events that mean a person is about to use a part: it hydrates before React handles them. */
const INTERACTIONS = ['pointerdown', 'mousedown', 'touchstart', 'keydown', 'focusin', 'click'] as const;
let listening = false;

function releaseOnInteraction(e: Event): void {
  if (!(e.target instanceof Node)) return;
  for (const w of waits.values()) if (!w.released && w.element.contains(e.target)) w.release();
}

/** The wait of the server-drawn element at `selector`, created on first use (none if it is not there). */
function waitFor(selector: string): Wait | undefined {
  const known = waits.get(selector);
  if (known) return known;
  const element = document.querySelector(selector);
  if (!element || typeof IntersectionObserver === 'undefined') return undefined;
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  const observer = new IntersectionObserver(
    (entries) => {
      if (entries.some((entry) => entry.isIntersecting)) wait.release();
    },
    // A little ahead of the screen, so a scrolling shopper seldom meets a part still waiting (one
    // tapped while waiting hydrates at once and gets the tap anyway).
    { rootMargin: '200px 0px' },
  );
  const wait: Wait = {
    element,
    promise,
    released: false,
    release() {
      if (wait.released) return;
      wait.released = true;
      observer.disconnect();
      resolve();
    },
  };
  waits.set(selector, wait);
  observer.observe(element);
  if (!listening) {
    listening = true;
    // Capturing on the document runs before React's own listeners on #root, so a click on a part
    // still drawn by the server finds it ready to hydrate at once, and React then delivers the click.
    for (const type of INTERACTIONS) document.addEventListener(type, releaseOnInteraction, { capture: true, passive: true });
  }
  return wait;
}

function Gate({ selector, children }: { selector: string; children: ReactNode }) {
  if (onServerPage) {
    const wait = waitFor(selector);
    // Suspending while hydrating keeps the server's HTML of this part as it is (no fallback shown).
    // A part drawn afresh where its server-drawn element is gone (a list filtered and back) does not wait.
    if (wait && !wait.released && wait.element.isConnected) use(wait.promise);
  }
  return children;
}

type HydrateWhenVisibleProps<P extends object> = {
  /** The element the server drew for the part. */
  selector: string;
  part: ComponentType<P>;
  /** The part's props: values that stay the same from one render to the next (ids, texts). */
  props?: P;
};

function HydrateWhenVisibleBoundary<P extends object>({ selector, part: Part, props }: HydrateWhenVisibleProps<P>) {
  return (
    <Suspense fallback={null}>
      <Gate selector={selector}>
        <Part {...(props ?? ({} as P))} />
      </Gate>
    </Suspense>
  );
}

function sameParts<P extends object>(a: HydrateWhenVisibleProps<P>, b: HydrateWhenVisibleProps<P>): boolean {
  if (a.selector !== b.selector || a.part !== b.part) return false;
  const pa: Record<string, unknown> = a.props ?? {};
  const pb: Record<string, unknown> = b.props ?? {};
  const keys = Object.keys(pa);
  return keys.length === Object.keys(pb).length && keys.every((k) => Object.is(pa[k], pb[k]));
}

/**
 * A part of a server-rendered page that the browser hydrates only when it comes near the screen or
 * is touched, clicked or focused: on a phone, a page's start-up then spends no time on what lies
 * below the first screen (the footer, lower sections). The part hydrates at once when `selector`
 * finds nothing, and on any page but the server's.
 *
 * Memoised on the part and its props' values: a part still waiting must not receive new props from
 * a parent's render, or React would draw it afresh (its fallback, nothing) instead of keeping the
 * server's HTML. So the part reads what changes through its own hooks, and gets only fixed values.
 */
export const HydrateWhenVisible = memo(HydrateWhenVisibleBoundary, sameParts) as <P extends object>(
  props: HydrateWhenVisibleProps<P>,
) => ReactNode;
