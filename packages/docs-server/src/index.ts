/**
 * The Entrada documentation server (spec §4.6, its own service): MCP at `/api/mcp`, the server card, the Markdown
 * mirrors under `/ai` and the HTML API reference with the guides at `/reference`, from one snapshot of the contract
 * and the guides. No auth and no state: mount `createNodeDocsServer(...).fetch` in any web-standard server.
 */
export type { DocsSnapshot, GuideName } from "./content.ts";
export { buildSnapshot, GUIDE_NAMES } from "./content.ts";
export { GUIDE_SOURCES, loadGuides } from "./guides.ts";
export { MAX_MESSAGE_BYTES, PROTOCOL_VERSIONS } from "./mcp.ts";
export {
  answerNode,
  createNodeDocsServer,
  loadGuidesFromPackages,
  type NodeDocsServerOptions,
  nodeListener,
  REFERENCE_HTML,
  REFERENCE_SCRIPT,
  type RunningDocsServer,
  readReferenceHtml,
  startDocsServer,
} from "./node.ts";
export { guideTag, referenceDocument } from "./reference.ts";
export { REFERENCE_CSP, referenceShell, type TryItClient } from "./reference-page.ts";
export { type SearchHit, SearchIndex, searchDocs } from "./search.ts";
export { createDocsServer, type DocsServer, type DocsServerOptions } from "./server.ts";
export { TOOLS } from "./tools.ts";
