import { inject } from 'vitest';
import type { Locator, Page } from 'playwright-core';

/** What the browser journeys share: the demo accounts, signing in as a person does, the fakes. */
export const ADMIN = { email: 'admin@example.com', password: 'Admin-Demo-2026' };
export const CUSTOMER = { email: 'customer@example.com', password: 'Customer-Demo-2026' };
/** A person takes more than the forms' 1-second bot guard to fill them in. */
export const HUMAN_PAUSE_MS = 1200;

export async function signInThroughForm(page: Page, who: { email: string; password: string }): Promise<void> {
  await page.goto('/auth?tab=signin');
  await page.getByRole('tab', { name: 'Sign In', selected: true }).waitFor();
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password', { exact: true }).fill(who.password);
  await page.waitForTimeout(HUMAN_PAUSE_MS);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.getByText('Welcome back!').waitFor();
}

/** The first toast (or any text) that reads exactly this. */
export function toast(page: Page, text: string): Locator {
  return page.getByText(text, { exact: true }).first();
}

/** Switches are visually hidden checkboxes: flip them the way a keyboard user does. */
export async function toggle(page: Page, control: Locator): Promise<void> {
  await control.focus();
  await page.keyboard.press('Space');
}

/** The control API of the fakes in e2e/fakes.ts (mail received, the workflow endpoint). */
export async function fakes<T>(path: string, method = 'GET'): Promise<T> {
  return (await (await fetch(`${inject('fakesUrl')}${path}`, { method })).json()) as T;
}

export type ReceivedMail = { to: string[]; subject: string };
