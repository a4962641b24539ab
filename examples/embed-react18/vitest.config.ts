import react from "@vitejs/plugin-react";
import { defineProject } from "vitest/config";

export default defineProject({
  plugins: [react()],
  define: { __ENTRADA_SHOP_VERSION__: JSON.stringify("example") },
  resolve: {
    conditions: ["source", "browser", "module", "import", "default"],
    // One React for host and widget: this package's React 18 (the widget's own dev React is 19).
    dedupe: ["react", "react-dom"],
  },
  ssr: { resolve: { conditions: ["source", "module", "import", "default"] } },
  test: {
    name: "embed-react18",
    environment: "jsdom",
    include: ["test/**/*.test.{ts,tsx}"],
    testTimeout: 20_000,
    // Inlined so their `react` imports go through `dedupe` too (pnpm links them to the widget's React 19).
    server: { deps: { inline: [/@entrada\//, /@tanstack\/react-query/, /@testing-library\/react/] } },
  },
});
