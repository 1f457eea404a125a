import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** The rules the issue asks for: WCAG 2.0, 2.1 and 2.2 at levels A and AA. */
const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[]; failureSummary?: string }>;
}

/**
 * Runs axe-core in the page as it is now and returns every violation of WCAG 2.2 A/AA, each as
 * one readable line (rule, impact, the elements), so a failing test says what to fix.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated rather than added as a script element: the pages' Content-Security-Policy refuses
  // inline scripts, and tools speaking to the browser directly are not subject to it.
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async (tags) => {
    const axe = (
      window as unknown as {
        axe: { run: (ctx: Document, o: object) => Promise<{ violations: AxeViolation[] }> };
      }
    ).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: tags } });
    return result.violations;
  }, WCAG_22_AA);
  return violations.map(
    (v) =>
      `${v.id} (${v.impact ?? 'n/a'}): ${v.help} — ${v.nodes
        .slice(0, 5)
        .map(
          (n) =>
            `${JSON.stringify(n.target)} ${n.failureSummary?.split('\n').slice(1).join(' ') ?? ''}`,
        )
        .join(', ')}`,
  );
}
