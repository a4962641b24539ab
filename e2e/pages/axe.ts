import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/** No accessibility violation in the widget (axe-core: WCAG 2.x A/AA and 2.2 AA rules, contrast included). */
export async function expectNoAxeViolations(page: Page) {
  const axe = await new AxeBuilder({ page })
    .include("#tickets")
    .withTags(["wcag2a", "wcag2aa", "wcag21aa", "wcag22aa"])
    .analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual(
    [],
  );
}
