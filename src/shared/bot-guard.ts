/**
 * The shop's one bot guard (issue 29), used by every form that has one and by the server that
 * receives it. A form says how long it was on screen before its submit (`elapsedMs`, timed from
 * when the form became visible, or from a tab change) and carries a decoy field people never see
 * (`website`). The specification names the forms and their times: sign-in and sign-up 1000 ms,
 * the admin's order form 1000 ms, the contact form 1500 ms; the review form takes 2000 ms (issue
 * [6/8]). Other forms (a password-reset request) have no timer: only the decoy.
 */
export const BOT_GUARD_MS = {
  signIn: 1000,
  signUp: 1000,
  adminOrder: 1000,
  contact: 1500,
  /** A review written without an order (issue [6/8]): a title and ten characters at least take a person longer. */
  review: 2000,
} as const;
export type GuardedForm = keyof typeof BOT_GUARD_MS;

export type BotGuardFields = { elapsedMs?: number | undefined; website?: string | undefined };

/**
 * A submit that filled the decoy, or came faster than a person can fill `form` (a submit that does
 * not say how long it took counts as too fast: the forms always say). What the caller answers is
 * the specification's for that form: "Please try again" (sign-in, sign-up), a success that sends
 * nothing (contact), or silence (admin order).
 */
export function looksAutomated(form: GuardedForm | null, input: BotGuardFields): boolean {
  if (input.website) return true;
  if (form === null) return false;
  return input.elapsedMs === undefined || input.elapsedMs < BOT_GUARD_MS[form];
}

/**
 * When a form became visible, in epoch milliseconds. A form drawn in the server's HTML was on
 * screen from the page's first paint, well before the script that hydrates it ran; a form the
 * browser drew later (a client-side navigation, a tab change) from its mount. A form out of view
 * at that moment starts counting when it scrolls into view.
 */
export function formShownAt(o: { hydrated: boolean; firstPaintAt: number | null; mountedAt: number; inViewAt: number | null }): number {
  const drawnAt = o.hydrated && o.firstPaintAt !== null ? Math.min(o.firstPaintAt, o.mountedAt) : o.mountedAt;
  return o.inViewAt === null ? drawnAt : Math.max(drawnAt, o.inViewAt);
}
