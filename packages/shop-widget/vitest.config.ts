import react from "@vitejs/plugin-react";
import { defineProject } from "vitest/config";
import pkg from "./package.json" with { type: "json" };

export default defineProject({
  plugins: [react()],
  define: { __ENTRADA_SHOP_VERSION__: JSON.stringify(pkg.version) },
  resolve: { conditions: ["source", "browser", "module", "import", "default"] },
  ssr: { resolve: { conditions: ["source", "module", "import", "default"] } },
  test: {
    name: "shop-widget",
    environment: "jsdom",
    css: { include: [/.+/] },
    include: ["test/**/*.test.{ts,tsx}", "src/**/*.test.{ts,tsx}"],
    setupFiles: ["./test/setup.ts"],
    testTimeout: 20_000,
  },
});
