/**
 * The one axe-core configuration of the browser suites: the Playwright suite (pages/axe.ts, through
 * @axe-core/playwright) and the cross-engine journey (engines/journey.test.ts, axe-core injected into the page)
 * run the same rules on the same part of the page, so a rule cannot pass in one and go unchecked in the other.
 * A leaf without imports: the journey runs under node:test, outside Playwright.
 */

/** Every WCAG A/AA rule up to 2.2 (contrast included). */
export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/** The widget only: the dev page's host controls around it are not the product. */
export const AXE_SCOPE = "#tickets";

/** axe.run's options for {@link AXE_TAGS} (what AxeBuilder.withTags sends). */
export const AXE_RUN_OPTIONS = { runOnly: { type: "tag", values: AXE_TAGS } };

export interface AxeViolation {
  id: string;
  nodes: Array<{ target: unknown[] }>;
}

/** A violation as one line: the rule and the elements it found. */
export function describeViolations(violations: AxeViolation[]): string[] {
  return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}
