/**
 * The Entrada BI assistant (spec §4.6): a credential-protected MCP server over Streamable HTTP that answers questions
 * about a customer's own event data from the BI feed, with the caller's own token (no stored secret, no copy of the
 * data). Mount `createBiAssistant(...).fetch` in any web-standard server, or run `entrada-bi-assistant`.
 */
export { answerMcp, INSTRUCTIONS, SERVER_INFO, TOOLS, toolList } from "./mcp.ts";
export { answerNode, type RunningBiAssistant, startBiAssistant } from "./node.ts";
export { type AggregateSpec, aggregateUrl, applyOf } from "./requests.ts";
export { type BiAssistant, type BiAssistantOptions, createBiAssistant, SCOPE } from "./server.ts";
