import { type DocsSnapshot, type EndpointDoc, kebab, type ModuleDoc } from "./content.ts";

type Obj = Record<string, unknown>;

/** Parameters of an endpoint: path-level ones overridden by operation-level ones of the same name and place. */
export function parametersOf(e: EndpointDoc): Obj[] {
  const own = ((e.operation.parameters as Obj[] | undefined) ?? []).filter((p) => typeof p.name === "string");
  const inherited = e.pathParameters.filter((p) => !own.some((o) => o.name === p.name && o.in === p.in));
  return [...inherited, ...own].filter((p) => p.in === "path" || p.in === "query" || p.in === "header");
}

/** `oauth2 (Shop)`, `sessionToken`, or `none`. */
export function securityOf(e: EndpointDoc): string[] {
  const sec = e.operation.security as Record<string, string[]>[] | undefined;
  if (!sec || sec.length === 0) return ["none"];
  return sec.flatMap((req) =>
    Object.entries(req).map(([scheme, scopes]) =>
      scopes.length ? `${scheme} (${scopes.join(", ")})` : scheme,
    ),
  );
}

function cell(text: unknown): string {
  return String(text ?? "")
    .replace(/\s+/g, " ")
    .replace(/\|/g, "\\|")
    .trim();
}

function schemaSummary(schema: unknown): string {
  const s = (schema ?? {}) as Obj;
  const type = Array.isArray(s.type)
    ? (s.type as string[]).join(" | ")
    : String(s.type ?? (s.oneOf ? "oneOf" : s.anyOf ? "anyOf" : "object"));
  const extras: string[] = [];
  if (Array.isArray(s.enum))
    extras.push(`one of ${(s.enum as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`);
  if (s.format) extras.push(String(s.format));
  if (s.pattern) extras.push(`pattern \`${s.pattern}\``);
  if (s.minimum !== undefined || s.maximum !== undefined)
    extras.push(`${s.minimum ?? "…"}–${s.maximum ?? "…"}`);
  if (s.default !== undefined) extras.push(`default ${JSON.stringify(s.default)}`);
  return extras.length ? `${type} (${extras.join("; ")})` : type;
}

/** A JSON code block, trimmed to keep pages readable. */
function json(value: unknown, max = 4000): string {
  let text = JSON.stringify(value, null, 2);
  if (text.length > max) text = `${text.slice(0, max)}\n…`;
  return `\`\`\`json\n${text}\n\`\`\``;
}

/** The full contract of one endpoint as Markdown. */
export function endpointMarkdown(e: EndpointDoc, level = 2): string {
  const h = "#".repeat(level);
  const lines = [`${h} ${e.method} ${e.path}`, "", `\`${e.operationId}\` — ${e.summary}`, ""];
  if (e.description) lines.push(e.description.trim(), "");
  lines.push(`**Authentication:** ${securityOf(e).join(" or ")}`, "");
  const params = parametersOf(e);
  if (params.length) {
    lines.push("| Parameter | In | Required | Type | Description |", "| --- | --- | --- | --- | --- |");
    for (const p of params) {
      lines.push(
        `| \`${cell(p.name)}\` | ${cell(p.in)} | ${p.required ? "yes" : "no"} | ${cell(schemaSummary(p.schema))} | ${cell(p.description)} |`,
      );
    }
    lines.push("");
  }
  const body = e.operation.requestBody as
    | { content?: Record<string, { schema?: unknown; examples?: Record<string, { value?: unknown }> }> }
    | undefined;
  if (body?.content) {
    for (const [media, content] of Object.entries(body.content)) {
      lines.push(`**Request body** (\`${media}\`):`, "", json(content.schema));
      const example = content.examples ? Object.values(content.examples)[0]?.value : undefined;
      if (example !== undefined) lines.push("", "Example:", "", json(example, 2000));
      lines.push("");
    }
  }
  const responses =
    (e.operation.responses as
      | Record<string, { description?: string; content?: Record<string, unknown> }>
      | undefined) ?? {};
  if (Object.keys(responses).length) {
    lines.push("**Responses:**", "");
    for (const [status, r] of Object.entries(responses)) {
      const media = Object.keys(r.content ?? {});
      lines.push(
        `- \`${status}\` ${cell(r.description)}${media.length ? ` (${media.map((m) => `\`${m}\``).join(", ")})` : ""}`,
      );
    }
    lines.push("");
  }
  return lines.join("\n");
}

export function moduleMarkdown(m: ModuleDoc, docsUrl: string): string {
  const lines = [
    `# ${m.title}`,
    "",
    m.description,
    "",
    `Module \`${m.name}\` · ${m.endpoints.length} endpoints · ${m.direction}`,
    "",
  ];
  lines.push("| Method | Path | Operation | Summary |", "| --- | --- | --- | --- |");
  for (const e of m.endpoints)
    lines.push(
      `| ${e.method} | \`${e.path}\` | [\`${e.operationId}\`](#${e.operationId.toLowerCase()}) | ${cell(e.summary)} |`,
    );
  lines.push("");
  for (const e of m.endpoints)
    lines.push(`<a id="${e.operationId.toLowerCase()}"></a>`, "", endpointMarkdown(e, 2), "");
  lines.push(`Index of all pages: ${docsUrl}/ai/index.md`);
  return `${lines.join("\n").trim()}\n`;
}

export function indexMarkdown(snapshot: DocsSnapshot, docsUrl: string): string {
  const lines = [
    `# ${snapshot.api.title} — documentation mirrors`,
    "",
    `Markdown mirrors of the API reference (version ${snapshot.api.version}) and the guides. The MCP server at ${docsUrl}/api/mcp answers from the same snapshot.`,
    "",
    "## Guides",
    "",
    ...snapshot.guides.map((g) => `- [${g.title}](${docsUrl}/ai/guide-${g.name}.md)`),
    "",
    "## Modules",
    "",
    ...snapshot.modules.map(
      (m) => `- [${m.title}](${docsUrl}/ai/module-${kebab(m.name)}.md) — ${m.endpoints.length} endpoints`,
    ),
  ];
  return `${lines.join("\n")}\n`;
}
