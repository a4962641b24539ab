import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
import { AXE_SCOPE, AXE_TAGS, describeViolations } from "./axe-rules";

/** The widget's axe-core violations with the suites' one rule set (pages/axe-rules.ts), one line each. */
export async function axeViolations(page: Page): Promise<string[]> {
  const axe = await new AxeBuilder({ page }).include(AXE_SCOPE).withTags(AXE_TAGS).analyze();
  return describeViolations(axe.violations);
}

/** No accessibility violation in the widget. */
export async function expectNoAxeViolations(page: Page) {
  expect(await axeViolations(page)).toEqual([]);
}
