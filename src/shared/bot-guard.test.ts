import { describe, expect, it } from 'vitest';
import { BOT_GUARD_MS, formShownAt, looksAutomated } from './bot-guard.js';

describe('the bot guard', () => {
  it('holds the specification’s times: sign-in and sign-up 1 s, admin order 1 s, contact 1.5 s; a review 2 s', () => {
    expect(BOT_GUARD_MS).toEqual({ signIn: 1000, signUp: 1000, adminOrder: 1000, contact: 1500, review: 2000 });
  });

  it('refuses a submit faster than the form’s time, one without a time, and one with the decoy filled', () => {
    expect(looksAutomated('signIn', { elapsedMs: 999 })).toBe(true);
    expect(looksAutomated('signIn', { elapsedMs: 1000 })).toBe(false);
    expect(looksAutomated('contact', { elapsedMs: 1400 })).toBe(true);
    expect(looksAutomated('contact', { elapsedMs: 1500 })).toBe(false);
    expect(looksAutomated('signUp', {})).toBe(true);
    expect(looksAutomated('signUp', { elapsedMs: 5000, website: 'spam.example' })).toBe(true);
  });

  it('has no timer where the specification names none (the reset request): only the decoy', () => {
    expect(looksAutomated(null, {})).toBe(false);
    expect(looksAutomated(null, { elapsedMs: 10 })).toBe(false);
    expect(looksAutomated(null, { website: 'x' })).toBe(true);
  });

  it('times a server-drawn form from the first paint, not from hydration', () => {
    // Painted at t=0, hydrated 1.5 s later: a person who typed meanwhile is not "too fast".
    expect(formShownAt({ hydrated: true, firstPaintAt: 0, mountedAt: 1500, inViewAt: null })).toBe(0);
  });

  it('times a form drawn later (a navigation, a tab change) from its mount, and one out of view from when it comes into view', () => {
    expect(formShownAt({ hydrated: false, firstPaintAt: 0, mountedAt: 8000, inViewAt: null })).toBe(8000);
    expect(formShownAt({ hydrated: false, firstPaintAt: 0, mountedAt: 8000, inViewAt: 9000 })).toBe(9000);
    expect(formShownAt({ hydrated: true, firstPaintAt: 0, mountedAt: 1500, inViewAt: 4000 })).toBe(4000);
  });
});
