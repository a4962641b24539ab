// The committed generated/ files must match a fresh build of the sources, and the sources must lint clean.
import { cpSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  formatJson,
  lint,
  operationsTable,
  packageDir,
  staleFiles,
  staleReport,
} from "../scripts/generate.mjs";

describe("generated files", () => {
  it("are fresh (regenerate with `pnpm --filter @entrada/openapi generate`)", async () => {
    expect(await staleFiles()).toEqual([]);
  });

  it("the contract lints clean with redocly.yaml (zero errors, zero warnings)", () => {
    const report = lint();
    expect(report.problems).toEqual([]);
    expect({ errors: report.errors, warnings: report.warnings }).toEqual({ errors: 0, warnings: 0 });
  });
});

describe("the staleness check", () => {
  it("names an edited, a missing and an orphaned generated file", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "entrada-openapi-stale-"));
    try {
      cpSync(path.join(packageDir, "generated"), path.join(root, "generated"), { recursive: true });
      cpSync(path.join(packageDir, "DECISIONS.md"), path.join(root, "DECISIONS.md"));
      expect(await staleFiles(root)).toEqual([]);
      writeFileSync(path.join(root, "generated", "operations.json"), "{}\n");
      unlinkSync(path.join(root, "generated", "schema.d.ts"));
      writeFileSync(path.join(root, "generated", "old.json"), "{}\n");
      const report = await staleReport(root);
      expect(report.sort((a, b) => a.file.localeCompare(b.file))).toEqual([
        { file: "generated/old.json", reason: "orphaned" },
        { file: "generated/operations.json", reason: "differs" },
        { file: "generated/schema.d.ts", reason: "missing" },
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("formatJson", () => {
  it("is 2-space indented with a trailing newline", () => {
    expect(formatJson({ a: [1] })).toBe('{\n  "a": [\n    1\n  ]\n}\n');
  });
});

describe("operationsTable", () => {
  it("derives method, tag, write, scopes and session from the document", () => {
    const table = operationsTable({
      paths: {
        "/a/{id}": {
          get: {
            operationId: "getA",
            tags: ["shop"],
            security: [{ oauth2: ["Shop"] }, { sessionToken: [] }],
          },
          delete: { operationId: "deleteA", tags: ["entrance"] },
        },
        "/token": { post: { operationId: "createToken", tags: ["token"], security: [] } },
      },
      security: [{ oauth2: ["TERP"] }],
    });
    expect(table).toEqual({
      getA: { method: "GET", path: "/a/{id}", tag: "shop", write: false, scopes: ["Shop"], session: true },
      deleteA: {
        method: "DELETE",
        path: "/a/{id}",
        tag: "entrance",
        write: true,
        scopes: ["TERP"],
        session: false,
      },
      createToken: { method: "POST", path: "/token", tag: "token", write: true, scopes: [], session: false },
    });
  });
});
