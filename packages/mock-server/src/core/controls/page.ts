/** The `/__mock` index page for developers who open it in a browser (controls, demo clients, test cards). */

import type { MockSession } from "../session.ts";
import type { MockResponse } from "../types.ts";
import type { ControlServices } from "./services.ts";

/** A control route as the page lists it. */
export interface ControlEntry {
  method: string;
  path: string;
  description: string;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A human-readable index for developers who open /__mock in a browser (no script, strict CSP). */
export function htmlIndex(
  core: ControlServices,
  session: MockSession,
  logId: string,
  builtIn: readonly ControlEntry[],
): MockResponse {
  const controls = [
    ...builtIn.map((c) => ({
      method: c.method,
      path: `/__mock${c.path === "/" ? "" : c.path}`,
      description: c.description,
    })),
    ...[...core.sections.flatMap((s) => s.controls ?? []), ...(core.options.controls ?? [])].map((c) => ({
      method: c.method,
      path: `/__mock${c.path}`,
      description: c.description,
    })),
  ];
  const rows = controls
    .map(
      (c) =>
        `<tr><td><code>${c.method}</code></td><td><code>${escapeHtml(c.path)}</code></td><td>${escapeHtml(c.description)}</td></tr>`,
    )
    .join("");
  const clients = core.options.clients
    .map(
      (c) =>
        `<li><code>${escapeHtml(c.clientId)}</code> / <code>${escapeHtml(c.secrets[0] ?? "")}</code> — ${escapeHtml(c.scopes.join(" "))}</li>`,
    )
    .join("");
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Entrada mock server</title></head><body><main><h1>Entrada mock server</h1><p>${core.operations.length} operations from the contract (<a href="__mock/openapi.json">/__mock/openapi.json</a>). Session <code>${escapeHtml(session.id)}</code>; isolate test suites with the <code>X-Mock-Session</code> header.</p><h2>Demo OAuth clients</h2><ul>${clients}</ul><h2>Test payments</h2><ul><li>Provider <code>card</code>: <code>4242424242424242</code> succeeds, <code>4000000000000002</code> declines (402).</li><li>Provider <code>redirect</code>: checkout answers 202 with a <code>redirectUrl</code> to a hosted page with Pay, Fail and Cancel.</li></ul><h2>Developer controls</h2><table><thead><tr><th>Method</th><th>Path</th><th>What it does</th></tr></thead><tbody>${rows}</tbody></table></main></body></html>`;
  return {
    status: 200,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "x-log-id": logId,
      "content-security-policy": "default-src 'none'; base-uri 'none'; frame-ancestors 'none'",
      "cache-control": "no-store",
    },
    body: html,
  };
}
