/**
 * `entrada-mock verify` as users get it: the package is packed (npm pack), extracted into a fresh node_modules
 * next to its runtime dependencies (linked from the workspace; no network), and its bin runs against a mock on
 * port 0 (exit 0) and against the drifting relay (exit 1, naming each difference). Builds `dist/` first when it is
 * missing or older than the sources.
 */
import { execFile, execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import operationTable from "@entrada/openapi/operations.json" with { type: "json" };
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMockServer } from "../../src/node/index.ts";
import { type DriftingRelay, RELAY_DIFFERENCES, startDriftingRelay } from "../../src/proxy/drifting-relay.ts";

/** Every operation of the contract is probed (its count follows the contract). */
const OPERATIONS = Object.keys(operationTable).length;

const run = promisify(execFile);
const pkgDir = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const require = createRequire(join(pkgDir, "package.json"));

function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) latest = Math.max(latest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  return latest;
}

/** Links a dependency's package directory (its real path, so its own dependencies resolve) into `modules`. */
function link(modules: string, name: string, from: NodeJS.Require): void {
  let dir: string;
  try {
    dir = dirname(from.resolve(`${name}/package.json`));
  } catch {
    // Exports maps may hide package.json: walk up from the entry.
    dir = dirname(from.resolve(name));
    while (!existsSync(join(dir, "package.json"))) dir = dirname(dir);
  }
  const target = join(modules, name);
  mkdirSync(dirname(target), { recursive: true });
  if (!existsSync(target)) symlinkSync(realpathSync(dir), target, "dir");
}

let tmp: string;
let bin: string;
let mock: MockServer;
let relay: DriftingRelay;

beforeAll(async () => {
  const built = join(pkgDir, "dist/cli.js");
  if (!existsSync(built) || newest(join(pkgDir, "src")) > statSync(built).mtimeMs) {
    const tsup = join(dirname(require.resolve("tsup/package.json")), "dist/cli-default.js");
    execFileSync(process.execPath, [tsup, "--silent"], { cwd: pkgDir, stdio: "inherit" });
  }
  tmp = mkdtempSync(join(tmpdir(), "entrada-mock-pack-"));
  const out = execFileSync("npm", ["pack", "--json", "--pack-destination", tmp], {
    cwd: pkgDir,
    encoding: "utf8",
  });
  const [{ filename }] = JSON.parse(out) as [{ filename: string }];
  execFileSync("tar", ["-xzf", join(tmp, filename), "-C", tmp]);
  const modules = join(tmp, "node_modules");
  mkdirSync(join(modules, "@entrada"), { recursive: true });
  execFileSync("mv", [join(tmp, "package"), join(modules, "@entrada/mock-server")]);
  // Runtime dependencies that stay imports in the bundle (the @entrada packages are bundled into dist).
  const manifest = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")) as {
    dependencies: Record<string, string>;
  };
  for (const name of Object.keys(manifest.dependencies).filter((n) => !n.startsWith("@entrada/")))
    link(modules, name, require);
  const sdkRequire = createRequire(require.resolve("@entrada/sdk/package.json"));
  const sdkManifest = JSON.parse(readFileSync(sdkRequire.resolve("@entrada/sdk/package.json"), "utf8")) as {
    dependencies?: Record<string, string>;
  };
  for (const name of Object.keys(sdkManifest.dependencies ?? {})) link(modules, name, sdkRequire);
  bin = join(modules, "@entrada/mock-server", "dist/cli.js");
  mock = await startMockServer({ port: 0, docs: false, rateLimit: false });
  relay = await startDriftingRelay();
}, 240_000);

afterAll(async () => {
  await relay?.close();
  await mock?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

async function verify(baseUrl: string): Promise<{ code: number; stdout: string }> {
  const junit = join(tmp, `junit-${Date.now()}.xml`);
  try {
    const { stdout } = await run(
      process.execPath,
      [
        bin,
        "verify",
        "--base-url",
        baseUrl,
        "--client-id",
        "entrada-demo",
        "--client-secret",
        "demo-secret",
        "--junit",
        junit,
      ],
      {
        cwd: tmp,
        encoding: "utf8",
      },
    );
    expect(readFileSync(junit, "utf8")).toContain("<testsuites");
    return { code: 0, stdout };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? "" };
  }
}

describe("entrada-mock verify from the packed tarball", () => {
  it("ships the verify, proxy and seed commands in dist/cli.js", () => {
    expect(existsSync(bin)).toBe(true);
    const help = execFileSync(process.execPath, [bin, "proxy", "--help"], { encoding: "utf8" });
    expect(help).toContain("entrada-mock proxy --upstream <url>");
  });

  it("exits 0 against the mock", async () => {
    const result = await verify(mock.url);
    expect(result.stdout).toMatch(
      new RegExp(
        `${OPERATIONS} operations, \\d+ authentication probes, 4 journeys, 0 skipped: conforms to the contract`,
      ),
    );
    expect(result.code).toBe(0);
  });

  it("exits 1 against the drifting relay, naming each difference (operation, rule, pointer)", async () => {
    const result = await verify(relay.url);
    expect(result.code).toBe(1);
    for (const d of RELAY_DIFFERENCES)
      expect(result.stdout).toContain(`${d.operationId}  ${d.rule}  ${d.pointer}`);
    // The relay's 410 for listVenues also answers its four authentication probes: a fourth difference.
    expect(result.stdout).toContain("listVenues  auth  /status");
    expect(result.stdout).toMatch(/skipped: 4 differences in 9 cases/);
  });
});
