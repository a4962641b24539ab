// The problem catalogue and the cultures as data: `src/catalogue/problems.json` (slug, status, operations) and one
// `src/catalogue/cultures/<tag>.json` per culture (its name and the problems' titles and details in it), each checked
// against its JSON schema. `buildCatalogue` merges them into `generated/catalogue.json`, which the SDK's generator
// (problem unions, `Culture`), the mock (problem texts, culture negotiation) and the docs (the DECISIONS.md table,
// the `Accept-Language` description) read. Adding a culture is adding a file here.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";

/** Reads and parses one JSON data file, naming the file when it is not JSON. */
function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`${file}: not valid JSON (${error instanceof Error ? error.message : error})`);
  }
}

function validator(ajv, schemaFile) {
  const validate = ajv.compile(readJson(schemaFile));
  return (file, data) => {
    if (validate(data)) return;
    const errors = (validate.errors ?? []).map((e) => `  ${e.instancePath || "/"} ${e.message}`);
    throw new Error(`${file} does not match ${path.basename(schemaFile)}:\n${errors.join("\n")}`);
  };
}

/**
 * The merged catalogue from the data files under `dir` (default `src/catalogue`): `{cultures, problems}` with the
 * cultures in serving order (default first) and each problem's `title`/`detail` by culture tag. `operationIds`,
 * when given, are the contract's operations: a problem naming another one is an error.
 */
export function buildCatalogue(dir, operationIds) {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  const checkProblems = validator(ajv, path.join(dir, "problems.schema.json"));
  const checkCulture = validator(ajv, path.join(dir, "culture.schema.json"));
  const problemsFile = path.join(dir, "problems.json");
  const { problems } = readJson(problemsFile);
  checkProblems(problemsFile, { problems });
  const slugs = problems.map((p) => p.slug);
  const duplicate = slugs.find((slug, i) => slugs.indexOf(slug) !== i);
  if (duplicate) throw new Error(`${problemsFile}: the slug "${duplicate}" is listed twice`);
  if (operationIds) {
    const known = new Set(operationIds);
    for (const problem of problems) {
      const unknown = problem.operations === "*" ? [] : problem.operations.filter((id) => !known.has(id));
      if (unknown.length > 0)
        throw new Error(`${problemsFile}: "${problem.slug}" names unknown operations: ${unknown.join(", ")}`);
    }
  }

  const cultureDir = path.join(dir, "cultures");
  const cultures = [];
  for (const name of readdirSync(cultureDir).filter((n) => n.endsWith(".json"))) {
    const file = path.join(cultureDir, name);
    const culture = readJson(file);
    checkCulture(file, culture);
    if (`${culture.tag}.json` !== name)
      throw new Error(`${file}: the file of culture "${culture.tag}" must be named ${culture.tag}.json`);
    const missing = slugs.filter((slug) => !(slug in culture.problems));
    const extra = Object.keys(culture.problems).filter((slug) => !slugs.includes(slug));
    if (missing.length > 0) throw new Error(`${file}: no title and detail for ${missing.join(", ")}`);
    if (extra.length > 0) throw new Error(`${file}: problems not in problems.json: ${extra.join(", ")}`);
    cultures.push(culture);
  }
  const defaults = cultures.filter((c) => c.default);
  if (defaults.length !== 1)
    throw new Error(
      `${cultureDir}: exactly one culture must be the default ("default": true), found ${defaults.length}`,
    );
  const rank = (c) => (c.default ? -1 : (c.order ?? Number.MAX_SAFE_INTEGER));
  cultures.sort((a, b) => rank(a) - rank(b) || a.tag.localeCompare(b.tag));

  return {
    cultures: cultures.map((c) => ({ tag: c.tag, name: c.name, default: c.default === true })),
    problems: problems.map((p) => ({
      slug: p.slug,
      status: p.status,
      mockOnly: p.mockOnly === true,
      operations: p.operations,
      title: Object.fromEntries(cultures.map((c) => [c.tag, c.problems[p.slug].title])),
      detail: Object.fromEntries(cultures.map((c) => [c.tag, c.problems[p.slug].detail])),
    })),
  };
}

/** The sentence the bundled `Accept-Language` parameter ends with: the supported cultures, from the data. */
export function culturesSentence(catalogue) {
  const tags = catalogue.cultures.map((c) => `\`${c.tag}\`${c.default ? " (default)" : ""}`);
  return `Supported cultures (generated from the culture catalogue): ${tags.join(", ")}.`;
}

const BEGIN =
  "<!-- generated:problem-catalogue (packages/openapi/scripts/catalogue.mjs; edit src/catalogue) -->";
const END = "<!-- /generated:problem-catalogue -->";

/** The DECISIONS.md table of the catalogue (slug, status, title in the default culture and in English, scope). */
export function catalogueTable(catalogue, operationCount) {
  const english = catalogue.cultures.find((c) => c.tag.startsWith("en-"))?.tag;
  const fallback = catalogue.cultures[0]?.tag;
  const titleOf = (p) => p.title[english ?? fallback];
  const scope = (p) => {
    if (p.operations === "*") return "every operation";
    if (p.operations.length === 0) return p.mockOnly ? "mock only (any path)" : "engine (any path)";
    if (p.operations.length > 8) return `${p.operations.length} of ${operationCount} operations`;
    return p.operations.map((id) => `\`${id}\``).join(", ");
  };
  const rows = catalogue.problems.map((p) => [
    `\`${p.slug}\``,
    String(p.status),
    `${titleOf(p)}${p.mockOnly ? " (mock only)" : ""}`,
    scope(p),
  ]);
  return [
    BEGIN,
    "",
    `Cultures: ${catalogue.cultures.map((c) => `\`${c.tag}\` ${c.name}${c.default ? " (default)" : ""}`).join(", ")}.`,
    "",
    ...alignedTable(["Slug", "Status", "Title", "Returned by"], rows),
    "",
    END,
  ].join("\n");
}

/** A Markdown table with its columns padded to one width each. */
function alignedTable(head, rows) {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
  return [line(head), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)];
}

/** DECISIONS.md with its generated catalogue region replaced (the markers must be present). */
export function withCatalogueTable(decisions, table) {
  const start = decisions.indexOf(BEGIN);
  const end = decisions.indexOf(END);
  if (start === -1 || end === -1) throw new Error(`DECISIONS.md has no "${BEGIN}" … "${END}" region`);
  return decisions.slice(0, start) + table + decisions.slice(end + END.length);
}
