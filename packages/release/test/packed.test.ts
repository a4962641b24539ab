// The packages as the registry would receive them: packed once, linted (publint, are-the-types-wrong), then
// installed from the tarballs into a fresh npm project (the registry only for their third-party dependencies)
// where the SDK runs in ESM and CommonJS, the widget's npm build imports, and the mock's CLI starts through npx
// and answers the installed SDK.
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attwProblems, metadataProblems, pack, publintProblems } from "../src/pack.ts";
import { publishedPackages } from "../src/workspace.ts";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const packages = publishedPackages(repo);
const tarballs = new Map<string, string>();
let work: string;
let project: string;

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), "entrada-packed-"));
  for (const pkg of packages) tarballs.set(pkg.name, pack(repo, pkg, work));
}, 120_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe.each(packages.map((pkg) => [pkg.name, pkg] as const))("%s as published", (_name, pkg) => {
  it("has complete metadata, a LICENSE and a CHANGELOG", () => {
    expect(metadataProblems(repo, pkg)).toEqual([]);
  });

  it("passes publint --strict and are-the-types-wrong", async () => {
    const tarball = tarballs.get(pkg.name) as string;
    expect([...(await publintProblems(pkg, tarball)), ...attwProblems(pkg, tarball)]).toEqual([]);
  });
});

describe("installed from the tarballs into a fresh project", () => {
  const node = (script: string, type: "mjs" | "cjs", args: string[] = []) => {
    const file = path.join(project, `check-${Math.random().toString(36).slice(2)}.${type}`);
    writeFileSync(file, script);
    return execFileSync(process.execPath, [file, ...args], { cwd: project, encoding: "utf8" }).trim();
  };

  beforeAll(() => {
    project = path.join(work, "app");
    mkdirSync(project);
    const files = Object.fromEntries([...tarballs].map(([name, file]) => [name, `file:${file}`]));
    // Overrides point the packages' own dependencies on each other at the tarballs, never at the registry.
    writeFileSync(
      path.join(project, "package.json"),
      JSON.stringify({ name: "app", private: true, dependencies: files, overrides: files }),
    );
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], {
      cwd: project,
      stdio: ["ignore", "ignore", "inherit"],
    });
  }, 300_000);

  it("runs the SDK from ESM and CommonJS", () => {
    const version = JSON.parse(readFileSync(path.join(repo, "packages/sdk/package.json"), "utf8")).version;
    expect(
      node(
        'import { createClient, SDK_VERSION } from "@entrada/sdk";\nimport { verifyWebhook } from "@entrada/sdk/webhooks";\nconsole.log(SDK_VERSION, typeof createClient({ baseUrl: "http://127.0.0.1:9", clientId: "a", clientSecret: "b" }).shop.listEvents, typeof verifyWebhook);\n',
        "mjs",
      ),
    ).toBe(`${version} function function`);
    expect(
      node(
        'const { createClient } = require("@entrada/sdk");\nconst { biFeed } = require("@entrada/sdk/bi");\nconsole.log(typeof createClient, typeof biFeed);\n',
        "cjs",
      ),
    ).toBe("function function");
  });

  it("imports the widget's npm build without a DOM", () => {
    const version = JSON.parse(
      readFileSync(path.join(repo, "packages/shop-widget/package.json"), "utf8"),
    ).version;
    expect(
      node(
        'import { mount, version } from "@entrada/shop-widget";\nimport { EntradaShop } from "@entrada/shop-widget/react";\nconsole.log(typeof mount, version, typeof EntradaShop);\n',
        "mjs",
      ),
    ).toBe(`function ${version} function`);
  });

  it("starts the mock's CLI through npx and answers the installed SDK", async () => {
    const mock = spawn(
      "npx",
      ["--no-install", "entrada-mock", "--port", "0", "--history-orders", "0", "--no-webhooks"],
      // Its own process group: npx runs the CLI as a child, and killing npx alone left the mock running.
      { cwd: project, stdio: ["ignore", "pipe", "pipe"], detached: true },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = "";
        mock.stdout.on("data", (chunk: Buffer) => {
          out += chunk;
          const found = /Entrada mock server\s+(http:\/\/\S+)/.exec(out);
          if (found?.[1]) resolve(found[1]);
        });
        mock.stderr.on("data", (chunk: Buffer) => {
          out += chunk;
        });
        mock.on("exit", (code) => reject(new Error(`entrada-mock exited (${code}):\n${out}`)));
      });
      const answer = node(
        [
          'import { createClient } from "@entrada/sdk";',
          'import { DEMO_CLIENTS } from "@entrada/mock-server";',
          "const demo = DEMO_CLIENTS[0];",
          "const client = createClient({ baseUrl: process.argv[2], clientId: demo.clientId, clientSecret: demo.secrets[0] });",
          "const { data, error } = await client.shop.listEvents({ params: { query: { limit: 2 } } });",
          "if (error) throw error;",
          "console.log(data.items.length, data.items[0].id.slice(0, 4));",
        ].join("\n"),
        "mjs",
        [url],
      );
      expect(answer).toBe("2 evt_");
    } finally {
      if (mock.pid) process.kill(-mock.pid, "SIGTERM");
    }
  });
});
