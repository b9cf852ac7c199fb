import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Locator, Page } from 'playwright-core';

/**
 * axe-core (Deque's accessibility rules, the engine of Lighthouse's accessibility score) run in
 * the page on a part of it: what it finds against WCAG 2.x A and AA, as "rule: element" lines, so
 * a journey can expect none. The script is evaluated through the browser's debugging protocol, not
 * added as a <script>, so the shop's Content-Security-Policy does not stop it.
 */
const require = createRequire(import.meta.url);
let source: string | null = null;

export async function axeViolations(page: Page, at: Locator): Promise<string[]> {
  source ??= fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(source);
  const handle = await at.elementHandle();
  if (!handle) throw new Error('axeViolations: the element to check is not on the page');
  return handle.evaluate(async (el) => {
    const axe = (
      window as unknown as {
        axe: { run: (el: Element, o: object) => Promise<{ violations: { id: string; nodes: { target: unknown[] }[] }[] }> };
      }
    ).axe;
    const { violations } = await axe.run(el, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
    });
    return violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.map(String).join(' ')}`));
  });
}
