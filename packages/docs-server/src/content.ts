/**
 * The documentation snapshot: modules, endpoints (and webhook events) from the OpenAPI document, and the Markdown
 * guides. The MCP tools, the Markdown mirrors under /ai and the search index are all built from this one object,
 * so they always agree.
 */

import { distance as editDistance } from "fastest-levenshtein";

export type GuideName = "shop-front-end" | "guidelines" | "webhooks";
export const GUIDE_NAMES: readonly GuideName[] = ["shop-front-end", "guidelines", "webhooks"];

type Obj = Record<string, unknown>;

export interface EndpointDoc {
  operationId: string;
  /** HTTP method in upper case, or `WEBHOOK` for an outbound event. */
  method: string;
  /** Path, or the event kind for webhooks. */
  path: string;
  module: string;
  summary: string;
  description: string;
  /** The operation object with every `$ref` resolved. */
  operation: Obj;
  /** Path-level parameters (resolved). */
  pathParameters: Obj[];
}

export interface ModuleDoc {
  name: string;
  title: string;
  description: string;
  direction: "inbound" | "outbound";
  endpoints: EndpointDoc[];
}

export interface GuideSection {
  slug: string;
  title: string;
  markdown: string;
}

export interface GuideDoc {
  name: GuideName;
  title: string;
  markdown: string;
  sections: GuideSection[];
}

export interface DocsSnapshot {
  modules: ModuleDoc[];
  endpoints: EndpointDoc[];
  guides: GuideDoc[];
  /** Title and version of the API document. */
  api: { title: string; version: string };
}

const METHODS = ["get", "post", "put", "patch", "delete"];

/** Resolve local `$ref`s (`#/...`) recursively; cycles are cut with `{$ref}` left in place. */
export function dereference(doc: unknown, value: unknown, seen: string[] = []): unknown {
  if (Array.isArray(value)) return value.map((v) => dereference(doc, v, seen));
  if (value === null || typeof value !== "object") return value;
  const obj = value as Obj;
  if (typeof obj.$ref === "string" && obj.$ref.startsWith("#/")) {
    if (seen.includes(obj.$ref) || seen.length > 24) return { $ref: obj.$ref };
    const target = obj.$ref
      .slice(2)
      .split("/")
      .reduce<unknown>(
        (node, key) => (node as Obj | undefined)?.[key.replace(/~1/g, "/").replace(/~0/g, "~")],
        doc,
      );
    const { $ref: _ignored, ...siblings } = obj;
    const resolved = dereference(doc, target, [...seen, obj.$ref]);
    return Object.keys(siblings).length > 0 && resolved && typeof resolved === "object"
      ? { ...(resolved as Obj), ...(dereference(doc, siblings, seen) as Obj) }
      : resolved;
  }
  const out: Obj = {};
  for (const [k, v] of Object.entries(obj)) out[k] = dereference(doc, v, seen);
  return out;
}

/** `Verifying signatures` → `verifying-signatures`. */
export function slugify(title: string): string {
  return title
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/`/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** Split a guide into its `##` sections (the part before the first `##` belongs to the title). */
export function parseGuide(name: GuideName, markdown: string): GuideDoc {
  const lines = markdown.replace(/\r\n/g, "\n").split("\n");
  const title = (lines.find((l) => l.startsWith("# ")) ?? `# ${name}`).slice(2).trim();
  const sections: GuideSection[] = [];
  let current: { title: string; lines: string[] } | null = null;
  let fenced = false;
  for (const line of lines) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = !fenced && /^## (.+)$/.exec(line);
    if (heading) {
      if (current)
        sections.push({
          slug: slugify(current.title),
          title: current.title,
          markdown: current.lines.join("\n").trim(),
        });
      current = { title: (heading[1] as string).trim(), lines: [line] };
    } else if (current) current.lines.push(line);
  }
  if (current)
    sections.push({
      slug: slugify(current.title),
      title: current.title,
      markdown: current.lines.join("\n").trim(),
    });
  return { name, title, markdown: markdown.trim(), sections };
}

/** Build the snapshot from the API document and the guides' Markdown. */
export function buildSnapshot(document: unknown, guides: Partial<Record<GuideName, string>>): DocsSnapshot {
  const doc = document as Obj;
  const tags =
    (doc.tags as { name: string; description?: string; "x-displayName"?: string }[] | undefined) ?? [];
  const endpoints: EndpointDoc[] = [];
  for (const [path, item] of Object.entries((doc.paths as Record<string, Obj> | undefined) ?? {})) {
    const pathParameters = (dereference(doc, item.parameters ?? []) as Obj[]) ?? [];
    for (const method of METHODS) {
      const op = item[method] as Obj | undefined;
      if (!op || typeof op.operationId !== "string") continue;
      endpoints.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        module: ((op.tags as string[] | undefined) ?? ["other"])[0] as string,
        summary: String(op.summary ?? ""),
        description: String(op.description ?? ""),
        operation: dereference(doc, op) as Obj,
        pathParameters,
      });
    }
  }
  for (const [kind, item] of Object.entries((doc.webhooks as Record<string, Obj> | undefined) ?? {})) {
    const op = item.post as Obj | undefined;
    if (!op || typeof op.operationId !== "string") continue;
    endpoints.push({
      operationId: op.operationId,
      method: "WEBHOOK",
      path: kind,
      module: ((op.tags as string[] | undefined) ?? ["webhooks"])[0] as string,
      summary: String(op.summary ?? ""),
      description: String(op.description ?? ""),
      operation: dereference(doc, op) as Obj,
      pathParameters: [],
    });
  }
  const modules: ModuleDoc[] = tags.map((tag) => ({
    name: tag.name,
    title: tag["x-displayName"] ?? tag.name,
    description: (tag.description ?? "").trim(),
    direction: tag.name === "webhooks" ? "outbound" : "inbound",
    endpoints: endpoints.filter((e) => e.module === tag.name),
  }));
  const info = (doc.info as { title?: string; version?: string } | undefined) ?? {};
  return {
    modules,
    endpoints,
    guides: GUIDE_NAMES.filter((g) => typeof guides[g] === "string").map((g) =>
      parseGuide(g, guides[g] as string),
    ),
    api: { title: info.title ?? "API", version: info.version ?? "1" },
  };
}

/** `externalEntrance` → `external-entrance`. */
export function kebab(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();
}

/** Find an endpoint by operationId or `METHOD /path` (method case-insensitive; `{param}` names may differ). */
export function findEndpoint(snapshot: DocsSnapshot, query: string): EndpointDoc | null {
  const q = query.trim();
  const byId =
    snapshot.endpoints.find((e) => e.operationId === q) ??
    snapshot.endpoints.find((e) => e.operationId.toLowerCase() === q.toLowerCase());
  if (byId) return byId;
  const m = /^([A-Za-z]+)\s+(\S+)$/.exec(q);
  if (!m) return null;
  const method = (m[1] as string).toUpperCase();
  const shape = (p: string) => p.replace(/\{[^}]+\}/g, "{}").replace(/\/+$/, "");
  const path = m[2] as string;
  return (
    snapshot.endpoints.find(
      (e) => e.method === method && (e.path === path || shape(e.path) === shape(path)),
    ) ?? null
  );
}

/** Up to `n` candidates closest to `input` (substring matches first). */
export function suggest(input: string, candidates: string[], n = 3): string[] {
  const q = input.toLowerCase();
  return candidates
    .map((c) => ({
      c,
      d: c.toLowerCase().includes(q) || q.includes(c.toLowerCase()) ? 0 : editDistance(q, c.toLowerCase()),
    }))
    .sort((a, b) => a.d - b.d || a.c.localeCompare(b.c))
    .slice(0, n)
    .map((x) => x.c);
}
