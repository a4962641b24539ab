import { type DocsSnapshot, type EndpointDoc, kebab, type ModuleDoc } from "./content.ts";
import { deprecationOf, deprecationSentence } from "./deprecation.ts";
import { sampleMarkdown, sdkSample } from "./samples.ts";

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
  if (typeof s.pattern === "string" && s.pattern.length <= 80) extras.push(`pattern \`${s.pattern}\``);
  if (s.minimum !== undefined || s.maximum !== undefined)
    extras.push(`${s.minimum ?? "…"}–${s.maximum ?? "…"}`);
  if (s.default !== undefined) extras.push(`default ${JSON.stringify(s.default)}`);
  return extras.length ? `${type} (${extras.join("; ")})` : type;
}

const withoutVendorKeys = (key: string, v: unknown) => (key.startsWith("x-") ? undefined : v);

/** JSON on one line, spaced like the indented form (`{"amount": 4500, "currency": "CHF"}`). */
function inline(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(inline).join(", ")}]`;
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  return `{${Object.entries(value)
    .map(([k, v]) => `${JSON.stringify(k)}: ${inline(v)}`)
    .join(", ")}}`;
}

/** Indented JSON whose small objects and arrays (a `Money`, a list of two codes) stay on one line. */
function pretty(value: unknown, indent: string): string {
  const flat = inline(value);
  if (value === null || typeof value !== "object" || flat.length + indent.length <= 72) return flat;
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((item) => `${inner}${pretty(item, inner)}`).join(",\n")}\n${indent}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return "{}";
  return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${pretty(v, inner)}`).join(",\n")}\n${indent}}`;
}

/** The value with every array longer than `keep` cut to its first `keep` items and a note of how many were left out. */
function cutArrays(value: unknown, keep: number): unknown {
  if (Array.isArray(value)) {
    const kept = value.slice(0, keep).map((item) => cutArrays(item, keep));
    return value.length > keep ? [...kept, `… ${value.length - keep} more`] : kept;
  }
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cutArrays(v, keep)]));
}

/** The value with strings longer than `max` characters cut (a long description, an embedded document). */
function cutStrings(value: unknown, max: number): unknown {
  if (typeof value === "string") return value.length > max ? `${value.slice(0, max)}…` : value;
  if (Array.isArray(value)) return value.map((item) => cutStrings(item, max));
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cutStrings(v, max)]));
}

/**
 * A JSON code block of at most about `max` characters (vendor `x-` keywords left out). A longer value keeps its
 * structure — every member, in order — and loses array items first (the first ones stay, with a note how many
 * went), then the length of long strings; only what is still too long is cut at the end. So an example keeps the
 * parts that come last (the checkout answer's tickets with their Quicodes and links).
 */
function json(value: unknown, max = 4000): string {
  const render = (v: unknown) => pretty(JSON.parse(JSON.stringify(v, withoutVendorKeys) ?? "null"), "");
  let text = render(value);
  for (let keep = 3; text.length > max && keep >= 1; keep--) text = render(cutArrays(value, keep));
  if (text.length > max) text = render(cutStrings(cutArrays(value, 1), 120));
  if (text.length > max) text = `${text.slice(0, max)}\n…`;
  return `\`\`\`json\n${text}\n\`\`\``;
}

interface MediaContent {
  schema?: unknown;
  example?: unknown;
  examples?: Record<string, { summary?: string; value?: unknown }>;
}

/** The examples of a media type (named `examples` first, then a single `example`), at most `n`. */
function examplesOf(content: MediaContent, n: number): { name: string; value: unknown }[] {
  const named = Object.entries(content.examples ?? {})
    .filter(([, e]) => e && e.value !== undefined)
    .map(([name, e]) => ({ name: e.summary ?? name, value: e.value }));
  if (named.length === 0 && content.example !== undefined)
    named.push({ name: "Example", value: content.example });
  return named.slice(0, n);
}

function exampleBlock(media: string, value: unknown, max: number): string {
  if (typeof value === "string" && !media.includes("json")) {
    const text = value.length > max ? `${value.slice(0, max)}\n…` : value;
    return `\`\`\`${media.includes("xml") ? "xml" : media.includes("markdown") ? "markdown" : ""}\n${text.trimEnd()}\n\`\`\``;
  }
  return json(value, max);
}

/**
 * The full contract of one endpoint as Markdown a model can read without the structured result: summary and
 * description, authentication, parameters and request headers, the request body (schema and examples), and every
 * response with its headers and the contract's example bodies.
 */
export function endpointMarkdown(e: EndpointDoc, level = 2): string {
  const h = "#".repeat(level);
  const sub = "#".repeat(level + 1);
  const lines = [`${h} ${e.method} ${e.path}`, "", `\`${e.operationId}\` — ${e.summary}`, ""];
  const deprecation = deprecationOf(e.operation);
  if (deprecation) lines.push(`**${deprecationSentence(deprecation)}**`, "");
  if (e.description) lines.push(e.description.trim(), "");
  lines.push(`**Authentication:** ${securityOf(e).join(" or ")}`, "");
  lines.push(...sampleMarkdown(sdkSample(e.operationId, e.method, e.path), level + 1));
  const params = parametersOf(e);
  for (const [place, heading] of [
    ["path", "Path parameters"],
    ["query", "Query parameters"],
    ["header", "Request headers"],
  ] as const) {
    const these = params.filter((p) => p.in === place);
    if (these.length === 0) continue;
    lines.push(
      `${sub} ${heading}`,
      "",
      "| Name | Required | Type | Description |",
      "| --- | --- | --- | --- |",
    );
    for (const p of these) {
      const example = p.example !== undefined ? ` Example: \`${cell(JSON.stringify(p.example))}\`.` : "";
      const deprecated = deprecationOf(p);
      const note = deprecated ? `**${deprecationSentence(deprecated)}** ` : "";
      lines.push(
        `| \`${cell(p.name)}\` | ${p.required ? "yes" : "no"} | ${cell(schemaSummary(p.schema))} | ${note}${cell(p.description)}${example} |`,
      );
    }
    lines.push("");
  }
  const body = e.operation.requestBody as
    | { required?: boolean; description?: string; content?: Record<string, MediaContent> }
    | undefined;
  if (body?.content) {
    lines.push(`${sub} Request body${body.required ? " (required)" : " (optional)"}`, "");
    if (body.description) lines.push(body.description.trim(), "");
    for (const [media, content] of Object.entries(body.content)) {
      lines.push(`Schema (\`${media}\`):`, "", json(content.schema), "");
      for (const example of examplesOf(content, 3))
        lines.push(`Example — ${example.name}:`, "", exampleBlock(media, example.value, 2000), "");
    }
  }
  const responses =
    (e.operation.responses as
      | Record<
          string,
          {
            description?: string;
            headers?: Record<string, { description?: string }>;
            content?: Record<string, MediaContent>;
          }
        >
      | undefined) ?? {};
  if (Object.keys(responses).length) {
    lines.push(`${sub} Responses`, "");
    for (const [status, r] of Object.entries(responses)) {
      lines.push(`**\`${status}\`** ${(r.description ?? "").trim()}`, "");
      const headers = Object.keys(r.headers ?? {});
      if (headers.length) lines.push(`Headers: ${headers.map((name) => `\`${name}\``).join(", ")}`, "");
      for (const [media, content] of Object.entries(r.content ?? {})) {
        const examples = examplesOf(content, 2);
        if (examples.length === 0) {
          lines.push(`Body: \`${media}\``, "");
          continue;
        }
        for (const example of examples)
          lines.push(
            `Example (\`${media}\`) — ${example.name}:`,
            "",
            exampleBlock(media, example.value, 2400),
            "",
          );
      }
    }
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
      `| ${e.method} | \`${e.path}\` | [\`${e.operationId}\`](${docsUrl}/ai/endpoint-${e.operationId}.md) | ${cell(e.summary)} |`,
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
