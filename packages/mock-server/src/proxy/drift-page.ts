/**
 * The drift report as a page for a browser (`GET /__mock/drift` with `Accept: text/html`): a summary, then per
 * operation a table of the differences (rule, pointer, what, how often) with the first example folded under each.
 * No script; a strict Content-Security-Policy (inline styles only).
 */
import type { DriftEntry, DriftReport, OperationDrift } from "./drift.ts";

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1b1b1f;background:#fafafa}
main{max-width:72rem;margin:0 auto;padding:1.5rem}h1{font-size:1.6rem;margin:0 0 .25rem}
.summary{display:flex;gap:1.5rem;flex-wrap:wrap;margin:1rem 0}.summary div{background:#fff;border:1px solid #ddd;border-radius:6px;padding:.5rem 1rem}
.summary strong{display:block;font-size:1.4rem}table{border-collapse:collapse;width:100%;background:#fff;margin-bottom:1.5rem}
th,td{text-align:left;border-bottom:1px solid #e3e3e3;padding:.4rem .6rem;vertical-align:top}th{background:#f0f0f3}
code{font-family:ui-monospace,monospace;font-size:.9em}pre{white-space:pre-wrap;word-break:break-word;background:#f6f6f8;padding:.5rem;margin:.25rem 0;max-height:20rem;overflow:auto}
.rule{display:inline-block;border-radius:4px;padding:0 .4rem;background:#ffe2d6;color:#7a2100;font-weight:600}
.ok{color:#0a6b2f;font-weight:600}h2{font-size:1.15rem;margin:1.5rem 0 .5rem}`;

function example(entry: DriftEntry): string {
  const { request, response } = entry.example;
  const body = response.body
    ? response.body.json !== undefined
      ? JSON.stringify(response.body.json, null, 2)
      : `${response.body.text ?? ""}${response.body.truncated ? "\n… (cut)" : ""}`
    : "(no body)";
  const headers = Object.entries(response.headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join("\n");
  return `<details><summary>First example (${escapeHtml(entry.firstSeen)})</summary><pre>${escapeHtml(
    `${request.method} ${request.path}\n\nHTTP ${response.status}\n${headers}\n\n${body}`,
  )}</pre></details>`;
}

function sections(operations: readonly OperationDrift[]): string {
  return operations
    .map(
      (op) =>
        `<section><h3><code>${escapeHtml(op.operationId)}</code> <small><code>${escapeHtml(op.method)} ${escapeHtml(
          op.template,
        )}</code></small></h3><table><thead><tr><th>Rule</th><th>Pointer</th><th>What</th><th>Count</th></tr></thead><tbody>${op.drift
          .map(
            (d) =>
              `<tr><td><span class="rule">${escapeHtml(d.rule)}</span></td><td><code>${escapeHtml(
                d.pointer,
              )}</code></td><td>${escapeHtml(d.message)}${example(d)}</td><td>${d.count}</td></tr>`,
          )
          .join("")}</tbody></table></section>`,
    )
    .join("");
}

export function driftPage(report: DriftReport): string {
  const differences = report.operations.reduce((n, op) => n + op.drift.length, 0);
  const requests = report.requests.reduce((n, op) => n + op.drift.length, 0);
  const requestPart =
    requests === 0
      ? ""
      : `<h2>Requests that break the contract</h2><p>Sent by the proxy's clients (not the upstream's drift): ${requests} difference${
          requests === 1 ? "" : "s"
        }.</p>${sections(report.requests)}`;
  const verdict =
    differences === 0
      ? `<p class="ok">No drift: every answer checked so far conforms to the contract.</p>`
      : `<p>${differences} difference${differences === 1 ? "" : "s"} in ${report.operations.length} operation${
          report.operations.length === 1 ? "" : "s"
        }.${report.dropped > 0 ? ` ${report.dropped} more not kept (cap ${report.maxEntries}).` : ""}</p>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Contract drift — Entrada mock proxy</title><style>${STYLE}</style></head><body><main><h1>Contract drift</h1><p>Upstream <code>${escapeHtml(
    report.upstream ?? "(none)",
  )}</code> against the Entrada contract, since ${escapeHtml(report.since)}. JSON: <code>curl -H 'Accept: application/json' …/__mock/drift</code>.</p><div class="summary"><div><strong>${report.checked}</strong>answers checked</div><div><strong>${report.conforming}</strong>conforming</div><div><strong>${differences}</strong>differences</div><div><strong>${report.fallbacks}</strong>local fallbacks</div><div><strong>${report.unreachable}</strong>upstream unreachable</div></div><h2>Answers that differ from the contract</h2>${verdict}${sections(report.operations)}${requestPart}</main></body></html>`;
}

export const DRIFT_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'";
