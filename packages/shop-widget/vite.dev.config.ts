import { defineConfig } from "vite";
import { entradaDevBackend } from "./dev/backend-plugin.ts";
import pkg from "./package.json" with { type: "json" };
import { SOURCE_CONDITIONS } from "./vite.config.ts";

/**
 * The widget's dev page (`pnpm start` at the root): the mock API over HTTP, a host page with the shop
 * embedded, a backend endpoint for session tokens, and a strict nonce-based Content-Security-Policy so CSP
 * problems show up while developing.
 */
const NONCE = "entrada-dev-nonce";

export default defineConfig({
  root: new URL("./dev", import.meta.url).pathname,
  plugins: [entradaDevBackend()],
  define: { __ENTRADA_SHOP_VERSION__: JSON.stringify(pkg.version) },
  resolve: { conditions: SOURCE_CONDITIONS },
  ssr: { resolve: { conditions: ["source", "node", "import", "module", "default"] } },
  oxc: { jsx: { runtime: "automatic" } },
  html: { cspNonce: NONCE },
  build: {
    rolldownOptions: {
      input: {
        index: new URL("./dev/index.html", import.meta.url).pathname,
        script: new URL("./dev/script.html", import.meta.url).pathname,
      },
    },
  },
  server: {
    host: "127.0.0.1",
    port: 5173,
    headers: {
      "content-security-policy": [
        "default-src 'self'",
        `script-src 'self' 'nonce-${NONCE}'`,
        `style-src 'self' 'nonce-${NONCE}'`,
        // Event images come from the API (the mock on loopback in dev), like its JSON.
        "img-src 'self' data: https: http://127.0.0.1:*",
        "connect-src 'self' http://127.0.0.1:* ws://127.0.0.1:*",
        "form-action 'self' http://127.0.0.1:*",
        "base-uri 'none'",
        "object-src 'none'",
      ].join("; "),
    },
  },
});
