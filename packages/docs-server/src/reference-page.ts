/**
 * The HTML reference's page: a static shell (written at build time), the renderer (Scalar's standalone bundle,
 * copied from `@scalar/api-reference` at build time and served from this origin) and a small start script that
 * configures it. Everything is same-origin: no CDN, no web fonts, nothing fetched from elsewhere, so it works
 * offline and under {@link REFERENCE_CSP}.
 */

/** The demo client whose credentials the reference pre-fills so "Send" works against the mock it is mounted in. */
export interface TryItClient {
  clientId: string;
  clientSecret: string;
  /** OAuth scopes asked for (`["Shop", "TERP"]` reaches every operation of the mock). */
  scopes: string[];
}

/** Where the page loads the renderer and its start script (served by the docs server). */
export const REFERENCE_SCRIPT_PATH = "/reference/scalar.js";
export const REFERENCE_START_PATH = "/reference/start.js";

/**
 * Content-Security-Policy of the reference page. Scripts only from this origin (the bundle and the start script;
 * no inline script, no eval); requests (the document, the token, "Send") only to this origin. The one
 * relaxation is `style-src 'unsafe-inline'`: the renderer (Vue) injects its stylesheet and sets style
 * attributes at run time, which a nonce cannot cover for a static page. Images may be `data:` (inline icons).
 */
export const REFERENCE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c] as string);

/** The page shell: the mount point, then the renderer and the start script (both same-origin files). */
export function referenceShell(title: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
</head>
<body>
<div id="reference"></div>
<noscript>The interactive reference needs JavaScript. Read the same documentation as Markdown at <a href="/ai/index.md">/ai/index.md</a> or the document at <a href="/reference/openapi.json">/reference/openapi.json</a>.</noscript>
<script src="${REFERENCE_SCRIPT_PATH}"></script>
<script src="${REFERENCE_START_PATH}"></script>
</body>
</html>
`;
}

/**
 * The start script. With a demo client (the mock mounts the docs server and passes one), it points the reference's
 * server at this origin, fetches a client-credentials token for the developer and pre-fills the OAuth flow with
 * the client's id, secret and scopes (so "Authorize" can fetch a fresh one later); then renders. Without one (the
 * docs server on its own), it renders the document as it is.
 */
export function referenceStartScript(client: TryItClient | null): string {
  return `"use strict";
(async () => {
  const client = ${JSON.stringify(client)};
  const origin = window.location.origin;
  const config = {
    url: "/reference/openapi.json",
    withDefaultFonts: false,
    documentDownloadType: "json",
    showDeveloperTools: "never",
    mcp: { disabled: true },
    agent: { disabled: true },
    telemetry: false,
    persistAuth: false,
  };
  if (client) {
    let token = "";
    try {
      const response = await fetch("/connect/token", {
        method: "POST",
        headers: {
          authorization: "Basic " + btoa(encodeURIComponent(client.clientId) + ":" + encodeURIComponent(client.clientSecret)),
          "content-type": "application/x-www-form-urlencoded",
        },
        body: "grant_type=client_credentials&scope=" + encodeURIComponent(client.scopes.join(" ")),
      });
      if (response.ok) token = (await response.json()).access_token;
      else console.warn("Entrada reference: no demo token (" + response.status + "); use Authorize.");
    } catch (error) {
      console.warn("Entrada reference: no demo token; use Authorize.", error);
    }
    config.baseServerURL = origin;
    config.servers = [{ url: origin, description: "This mock server (same origin)" }];
    config.authentication = {
      preferredSecurityScheme: "oauth2",
      securitySchemes: {
        oauth2: {
          flows: {
            clientCredentials: {
              tokenUrl: origin + "/connect/token",
              "x-scalar-client-id": client.clientId,
              clientSecret: client.clientSecret,
              "x-scalar-credentials-location": "header",
              selectedScopes: client.scopes,
              token,
            },
          },
        },
      },
    };
  }
  window.Scalar.createApiReference("#reference", config);
})();
`;
}
