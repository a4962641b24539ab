import { defineProject } from "vitest/config";

// `source` first: workspace packages (and this one) resolve to their TypeScript sources.
const conditions = ["source", "import", "module", "node", "default"];

export default defineProject({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    name: "bi-assistant",
    include: ["test/**/*.test.ts"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // eventsource-parser (under the MCP SDK's client) publishes its TypeScript under the `source` condition too.
    server: { deps: { inline: [/@modelcontextprotocol\/sdk/, /eventsource-parser/] } },
  },
});
