/**
 * The documentation server (second document, `@entrada/openapi/docs-openapi.json`): MCP at `/api/mcp`, the server
 * card and the Markdown mirrors under `/ai`. Not a world section: it serves the same snapshot to everyone, with no
 * auth and no state. Mount `createDocsServer(...).handle` in front of (or beside) the API engine.
 */
export type { DocsSnapshot, GuideName } from "./content.ts";
export { buildSnapshot, GUIDE_NAMES } from "./content.ts";
export { GUIDE_SOURCES, loadGuides } from "./guides.ts";
export { createDocsServer, type DocsServer, type DocsServerOptions, PROTOCOL_VERSIONS } from "./server.ts";
export { TOOLS } from "./tools.ts";
