/**
 * The verifier's results as JUnit XML (`--junit FILE`), the format CI systems show as test reports: one
 * `<testsuite>` per suite (operations, authentication, journeys), one `<testcase>` per case and rule — a case that
 * found differences of several rules (a schema and a status, say) is one failing testcase per rule, named
 * `<case> [<rule>]`, so a report shows each operation and rule —, a `<failure>` listing the rule's differences
 * (operation, rule, pointer, message), `<skipped>` for what was not sent.
 */
import type { CaseResult, Difference } from "./suite.ts";

/** XML 1.0 text: markup escaped, control characters (other than tab and line breaks) dropped. */
function xml(value: string): string {
  let out = "";
  for (const c of value) {
    const code = c.charCodeAt(0);
    if (code < 0x20 && c !== "\t" && c !== "\n" && c !== "\r") continue;
    out += /[<>&"']/.test(c) ? `&#${code};` : c;
  }
  return out;
}

export function differenceLine(d: Difference): string {
  return `${d.operationId}  ${d.rule}  ${d.pointer}  ${d.message}${d.count ? ` (×${d.count})` : ""}`;
}

/** A case as testcases: itself when it found differences of one rule at most, else one per rule. */
function byRule(result: CaseResult): CaseResult[] {
  const rules = [...new Set(result.differences.map((d) => d.rule))];
  if (rules.length <= 1) return [result];
  return rules.map((rule) => ({
    ...result,
    name: `${result.name} [${rule}]`,
    differences: result.differences.filter((d) => d.rule === rule),
  }));
}

export function junitXml(baseUrl: string, results: readonly CaseResult[]): string {
  const suites = (["operations", "authentication", "journeys"] as const).map((suite) => {
    const cases = results.filter((r) => r.suite === suite).flatMap(byRule);
    const failures = cases.filter((c) => c.differences.length > 0).length;
    const skipped = cases.filter((c) => c.skipped !== undefined).length;
    const time = cases.reduce((t, c) => t + c.ms, 0) / 1000;
    const body = cases
      .map((c) => {
        const open = `<testcase classname="entrada.verify.${suite}" name="${xml(c.name)}" time="${(c.ms / 1000).toFixed(3)}"`;
        if (c.skipped !== undefined) return `${open}><skipped message="${xml(c.skipped)}"/></testcase>`;
        if (c.differences.length === 0) return `${open}/>`;
        const first = c.differences[0] as Difference;
        return `${open}><failure message="${xml(`${first.rule} ${first.pointer}: ${first.message}`)}" type="${xml(first.rule)}">${xml(
          c.differences.map(differenceLine).join("\n"),
        )}</failure></testcase>`;
      })
      .join("\n    ");
    return `  <testsuite name="entrada-mock verify: ${suite}" tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${time.toFixed(3)}">
    <properties><property name="baseUrl" value="${xml(baseUrl)}"/></properties>
    ${body}
  </testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="entrada-mock verify">\n${suites.join("\n")}\n</testsuites>\n`;
}
