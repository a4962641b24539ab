import type { DocsSnapshot } from "./content.ts";
import { withDeprecationNotes } from "./deprecation.ts";
import { sdkSample } from "./samples.ts";

type Obj = Record<string, unknown>;

/** Tag of a guide in the reference document (`guide-webhooks`); the HTML reference links it as `#tag/<tag>`. */
export const guideTag = (name: string): string => `guide-${name}`;

/**
 * The document the HTML reference is rendered from: the API contract as it is, plus the snapshot's guides as
 * documentation-only tags (one per guide, no operations; `x-traitTag` for renderers that know it; Scalar lists a
 * tag without operations as a page whose Markdown sections are its headings) grouped before the API modules with
 * `x-tagGroups`. The MCP tools and the `/ai` mirrors read the same snapshot.
 */
export function referenceDocument(document: unknown, snapshot: DocsSnapshot): Obj {
  const doc = structuredClone(document) as Obj;
  const info = { ...((doc.info as Obj | undefined) ?? {}) };
  info.description = [
    String(info.description ?? "").trim(),
    "",
    "## Documentation server",
    "",
    "This reference, the guides below, the Markdown mirrors under [`/ai/index.md`](/ai/index.md) and the MCP server at `/api/mcp` (tools `search_docs`, `list_modules`, `list_endpoints`, `get_endpoint`, `get_guide`, `about_bi_assistant_mcp`) are built from one snapshot of the contract, so they always agree.",
    "",
    "Served by the Entrada mock server, the mock's developer controls (reset, clock, sessions, faults) are at [`/__mock`](/__mock).",
  ].join("\n");
  doc.info = info;
  const moduleTags = (doc.tags as Obj[] | undefined) ?? [];
  const guideTags = snapshot.guides.map((g) => ({
    name: guideTag(g.name),
    "x-displayName": g.title,
    "x-traitTag": true,
    // The title is the tag's display name; the sections (## headings) become the tag's menu entries.
    description: g.markdown.replace(/^# .*\n+/, ""),
  }));
  doc.tags = [...guideTags, ...moduleTags];
  withSdkSamples(doc);
  withDeprecationNotes(doc);
  doc["x-tagGroups"] = [
    { name: "Guides", tags: guideTags.map((t) => t.name) },
    { name: "API", tags: moduleTags.map((t) => String(t.name)) },
  ];
  return doc;
}

const HTTP_METHODS = ["get", "put", "post", "delete", "patch", "options", "head", "trace"];

/** Each operation the SDK has gets its SDK sample as the first of its `x-codeSamples` (Scalar shows them first). */
function withSdkSamples(doc: Obj): void {
  for (const [path, item] of Object.entries((doc.paths as Record<string, Obj> | undefined) ?? {})) {
    for (const method of HTTP_METHODS) {
      const operation = item[method] as Obj | undefined;
      if (!operation || typeof operation.operationId !== "string") continue;
      const sample = sdkSample(operation.operationId, method, path);
      if (!sample) continue;
      const others = (operation["x-codeSamples"] as Obj[] | undefined) ?? [];
      operation["x-codeSamples"] = [sample, ...others];
    }
  }
}
