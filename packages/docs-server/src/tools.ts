import { type DocsSnapshot, findEndpoint, type GuideName, kebab, suggest } from "./content.ts";
import { deprecationOf } from "./deprecation.ts";
import { endpointMarkdown, parametersOf, securityOf } from "./markdown.ts";
import { sdkSample } from "./samples.ts";
import type { SearchIndex } from "./search.ts";

type Obj = Record<string, unknown>;

export interface ToolContext {
  snapshot: DocsSnapshot;
  index: SearchIndex;
  /** Absolute docs URL without trailing slash (links in results). */
  docsUrl: string;
  /** The BI assistant served alongside (the mock mounts one), or null. */
  biAssistantUrl?: string | null;
}

export type ToolOutcome = { ok: true; structured: Obj; markdown: string } | { ok: false; markdown: string };

export interface ToolDef {
  name: string;
  title: string;
  description: string;
  /** Names of the contract's argument and result schemas (docs-openapi components). */
  inputSchema: string;
  outputSchema: string;
  /** Arguments of a valid call, quoted when a call's arguments do not fit. */
  example: Obj;
  run(ctx: ToolContext, args: Obj): ToolOutcome;
}

const refLink = (ctx: ToolContext, tag: string, op?: string) =>
  `${ctx.docsUrl}/reference#tag/${tag}${op ? `/operation/${op}` : ""}`;
const mdLink = (ctx: ToolContext, module: string) => `${ctx.docsUrl}/ai/module-${kebab(module)}.md`;

const searchDocs: ToolDef = {
  name: "search_docs",
  title: "Search the documentation",
  description:
    "Ranked full-text search over API modules, endpoints and guide sections. Returns the best matches with a score from 0 to 1 and links.",
  inputSchema: "SearchDocsArguments",
  example: { query: "checkout a cart", limit: 5 },
  outputSchema: "SearchDocsResult",
  run(ctx, args) {
    const query = String(args.query);
    const limit = typeof args.limit === "number" ? args.limit : 10;
    const results = ctx.index.search(query, limit).map((h) => ({
      kind: h.doc.kind,
      id: h.doc.id,
      title: h.doc.title,
      summary: h.doc.summary,
      score: h.score,
      link: `${ctx.docsUrl}${h.doc.path}`,
    }));
    const markdown = results.length
      ? [
          `Results for “${query}”:`,
          "",
          ...results.map(
            (r, i) =>
              `${i + 1}. **${r.title}** (${r.kind} \`${r.id}\`, score ${r.score}) — ${r.summary} ${r.link}`,
          ),
        ].join("\n")
      : `No results for “${query}”. Try other words, or \`list_modules\` to browse.`;
    return { ok: true, structured: { query, results }, markdown };
  },
};

const listModules: ToolDef = {
  name: "list_modules",
  title: "List API modules",
  description: "All API modules (sections) with direction, endpoint count and links, plus the guides.",
  inputSchema: "ListModulesArguments",
  example: {},
  outputSchema: "ListModulesResult",
  run(ctx) {
    const modules = ctx.snapshot.modules.map((m) => ({
      name: m.name,
      title: m.title,
      direction: m.direction,
      endpointCount: m.endpoints.length,
      links: { reference: refLink(ctx, m.name), markdown: mdLink(ctx, m.name) },
    }));
    const guides = ctx.snapshot.guides.map((g) => ({
      name: g.name,
      title: g.title,
      link: `${ctx.docsUrl}/ai/guide-${g.name}.md`,
    }));
    const markdown = [
      "| Module | Title | Direction | Endpoints |",
      "| --- | --- | --- | --- |",
      ...modules.map((m) => `| \`${m.name}\` | ${m.title} | ${m.direction} | ${m.endpointCount} |`),
      "",
      "Guides:",
      ...guides.map((g) => `- \`${g.name}\`: ${g.title} — ${g.link}`),
    ].join("\n");
    return { ok: true, structured: { modules, guides }, markdown };
  },
};

const listEndpoints: ToolDef = {
  name: "list_endpoints",
  title: "List the endpoints of a module",
  description:
    "All endpoints of one module with method, path and summary (webhook events of the webhooks module have method WEBHOOK and the event kind as path).",
  inputSchema: "ListEndpointsArguments",
  example: { module: "shop" },
  outputSchema: "ListEndpointsResult",
  run(ctx, args) {
    const name = String(args.module);
    const module = ctx.snapshot.modules.find((m) => m.name === name);
    if (!module) {
      return {
        ok: false,
        markdown: `Unknown module \`${name}\`. Modules: ${ctx.snapshot.modules.map((m) => `\`${m.name}\``).join(", ")}.`,
      };
    }
    const endpoints = module.endpoints.map((e) => ({
      operationId: e.operationId,
      method: e.method,
      path: e.path,
      summary: e.summary,
    }));
    const markdown = [
      `# ${module.title}`,
      "",
      "| Method | Path | operationId | Summary |",
      "| --- | --- | --- | --- |",
      ...endpoints.map((e) => `| ${e.method} | \`${e.path}\` | \`${e.operationId}\` | ${e.summary} |`),
    ].join("\n");
    return { ok: true, structured: { module: name, endpoints }, markdown };
  },
};

const getEndpoint: ToolDef = {
  name: "get_endpoint",
  title: "Get the full contract of an endpoint",
  description:
    "Parameters, headers, request body and example responses of one endpoint, by operationId (checkoutCart) or `METHOD /path`.",
  inputSchema: "GetEndpointArguments",
  example: { endpoint: "checkoutCart" },
  outputSchema: "GetEndpointResult",
  run(ctx, args) {
    const query = String(args.endpoint);
    const e = findEndpoint(ctx.snapshot, query);
    if (!e) {
      const ids = suggest(
        query,
        ctx.snapshot.endpoints.map((x) => x.operationId),
      );
      return {
        ok: false,
        markdown: `No endpoint \`${query}\`. Did you mean ${ids.map((i) => `\`${i}\``).join(", ")}? Use \`list_endpoints\` or \`search_docs\` to find one.`,
      };
    }
    const body = e.operation.requestBody as Obj | undefined;
    const structured = {
      operationId: e.operationId,
      method: e.method,
      path: e.path,
      module: e.module,
      summary: e.summary,
      description: e.description,
      security: securityOf(e),
      parameters: parametersOf(e).map((p) => ({
        name: p.name,
        in: p.in,
        required: p.required === true,
        ...(p.description ? { description: p.description } : {}),
        ...(p.schema ? { schema: p.schema } : {}),
        ...(deprecationOf(p) ? { deprecation: deprecationOf(p) } : {}),
      })),
      requestBody: body ?? null,
      responses: (e.operation.responses as Obj | undefined) ?? {},
      sdkSample: sdkSample(e.operationId, e.method, e.path) ?? null,
      deprecation: deprecationOf(e.operation),
    };
    // The same text as the mirror /ai/endpoint-<operationId>.md.
    return { ok: true, structured, markdown: endpointMarkdown(e, 1) };
  },
};

const getGuide: ToolDef = {
  name: "get_guide",
  title: "Read a guide",
  description:
    "Markdown of the shop front-end guide, the Guidelines or the Webhooks guide, whole or one section (by slug).",
  inputSchema: "GetGuideArguments",
  example: { guide: "webhooks", section: "verifying-signatures" },
  outputSchema: "GetGuideResult",
  run(ctx, args) {
    const name = String(args.guide) as GuideName;
    const guide = ctx.snapshot.guides.find((g) => g.name === name);
    if (!guide) {
      return {
        ok: false,
        markdown: `The guide \`${name}\` is not part of this snapshot. Available: ${ctx.snapshot.guides.map((g) => `\`${g.name}\``).join(", ") || "none"}.`,
      };
    }
    const sections = guide.sections.map((s) => ({ slug: s.slug, title: s.title }));
    const link = `${ctx.docsUrl}/ai/guide-${guide.name}.md`;
    if (typeof args.section === "string") {
      const section = guide.sections.find((s) => s.slug === args.section);
      if (!section) {
        const close = suggest(
          args.section,
          guide.sections.map((s) => s.slug),
        );
        return {
          ok: false,
          markdown: `The ${guide.title} has no section \`${args.section}\`. Did you mean ${close.map((c) => `\`${c}\``).join(", ")}? Sections: ${sections.map((s) => `\`${s.slug}\``).join(", ")}.`,
        };
      }
      return {
        ok: true,
        structured: {
          guide: guide.name,
          title: guide.title,
          section: section.slug,
          markdown: section.markdown,
          sections,
          link: `${link}#${section.slug}`,
        },
        markdown: section.markdown,
      };
    }
    return {
      ok: true,
      structured: {
        guide: guide.name,
        title: guide.title,
        section: null,
        markdown: guide.markdown,
        sections,
        link,
      },
      markdown: guide.markdown,
    };
  },
};

const aboutBiAssistantMcp: ToolDef = {
  name: "about_bi_assistant_mcp",
  title: "About the BI assistant MCP server",
  description:
    "Explains the second, separate, credential-protected MCP server of the Business Intelligence module, which answers questions about a customer's own event data.",
  inputSchema: "AboutBiAssistantMcpArguments",
  example: {},
  outputSchema: "AboutBiAssistantMcpResult",
  run(ctx) {
    const local = ctx.biAssistantUrl ? { localEndpoint: ctx.biAssistantUrl } : {};
    const structured = {
      name: "Entrada BI assistant",
      summary:
        "A separate MCP server that answers questions about your own ticketing, payment and entrance data, such as sales per event, no-show rates or peak entry times.",
      endpoint: "https://{customer_system}.bi.entrada.dev/api/mcp",
      authentication:
        "OAuth 2.0 bearer token of your customer system (the BI feed's credentials); no anonymous access.",
      dataScope:
        "Exactly the data scope of the BI API (the OData feed's Orders, Tickets, Payments and Entrances) of one customer system, read only.",
      provisioning:
        "Provisioned per customer system on request; its address and credentials are handed over with the BI API access.",
      differences: [
        "This documentation server is public, needs no credentials and never touches customer data.",
        "The BI assistant is credential-protected and answers from your own event data.",
        "This server describes the API; the assistant answers business questions with figures from your data.",
      ],
      ...local,
    };
    const markdown = [
      `# ${structured.name}`,
      "",
      structured.summary,
      "",
      `- **Endpoint:** ${structured.endpoint}`,
      `- **Authentication:** ${structured.authentication}`,
      `- **Data scope:** ${structured.dataScope}`,
      `- **Provisioning:** ${structured.provisioning}`,
      ...(ctx.biAssistantUrl
        ? [
            `- **Here:** ${ctx.biAssistantUrl} — the same assistant over this server's BI feed; connect with a bearer token of a client-credentials grant (scope Shop) from /connect/token.`,
          ]
        : []),
      "",
      ...structured.differences.map((d) => `- ${d}`),
    ].join("\n");
    return { ok: true, structured, markdown };
  },
};

/** The six tools, in the order the description lists them. */
export const TOOLS: readonly ToolDef[] = [
  searchDocs,
  listModules,
  listEndpoints,
  getEndpoint,
  getGuide,
  aboutBiAssistantMcp,
];
