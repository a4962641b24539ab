/**
 * Packs the built package as users get it and imports it from fresh ESM and CJS projects on Node 20 (the
 * machine's node) and Node 24 (the workspace's), then type-checks a consumer against the packed declarations.
 * No network: the tarball is extracted into a temporary node_modules next to openapi-fetch copied from the
 * workspace. Builds `dist/` first when it is missing or older than the sources.
 */
import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const pkgDir = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const workspaceRoot = resolve(pkgDir, "../..");
const require = createRequire(join(pkgDir, "package.json"));
const workspaceRequire = createRequire(join(workspaceRoot, "package.json"));

/** Node 20: the first `node` on PATH outside pnpm's shims (the machine's). Node 24: the workspace binary. */
function nodeBinaries(): Array<[string, string]> {
  const found = new Map<string, string>();
  const candidates = [
    "/usr/bin/node",
    "/usr/local/bin/node",
    process.execPath,
    join(workspaceRoot, "node_modules/.bin/node"),
  ];
  for (const bin of candidates) {
    if (!existsSync(bin)) continue;
    const version = execFileSync(bin, ["--version"], { encoding: "utf8" }).trim();
    const major = version.slice(1).split(".")[0] as string;
    if (!found.has(major)) found.set(major, bin);
  }
  return [...found.entries()].map(([major, bin]) => [`node ${major}`, bin]);
}

const CONSUMER_LOGIC = `
  const calls = [];
  const fetch = async (request) => {
    calls.push({ url: request.url, auth: request.headers.get("authorization"), key: request.headers.get("idempotency-key") });
    const path = new URL(request.url).pathname;
    if (path === "/connect/token") {
      if (request.headers.get("authorization") !== "Basic " + btoa("id:secret"))
        return new Response(JSON.stringify({ error: "invalid_client" }), { status: 401, headers: { "content-type": "application/json" } });
      return new Response(JSON.stringify({ access_token: "tok", token_type: "Bearer", expires_in: 3600 }), { headers: { "content-type": "application/json" } });
    }
    if (path.endsWith("/checkout")) {
      return new Response(JSON.stringify({ type: "https://docs.entrada.dev/problems/payment-declined", title: "Zahlung abgelehnt", status: 402, detail: "Karte abgelehnt." }), { status: 402, headers: { "content-type": "application/problem+json", "x-log-id": "log_2", "x-request-id": "req_2" } });
    }
    return new Response(JSON.stringify({ id: "crt_1" }), { status: 201, headers: { "content-type": "application/json", "x-log-id": "log_1" } });
  };
  const client = sdk.createClient({ baseUrl: "https://api.example.test", clientId: "id", clientSecret: "secret", locale: "de-CH", fetch });
  const result = await client.shop.createCart({ body: {} });
  // The token operation itself: HTTP Basic with the client's credentials, not a bearer token.
  const token = await client.token.createToken({ body: { grant_type: "client_credentials", scope: "Shop" } });
  const tokenCall = calls.at(-1);
  const badLocale = await client.shop.listVenues({ locale: "de_CH" });
  const longKey = await client.shop.createCart({ body: {}, idempotencyKey: "k".repeat(300) });
  let thrownLongKey = "";
  try { await client.shop.createCart.orThrow({ body: {}, idempotencyKey: "k".repeat(300) }); } catch (e) { thrownLongKey = e.kind; }
  const checkout = await client.shop.checkoutCart({ params: { path: { id: "crt_1" } }, body: {} });
  // A wrong secret under the BI feed is an OAuth error after one token request, not a network error.
  let biCalls = 0;
  const biError = await (async () => {
    const feed = bi.biFeed({ baseUrl: "https://api.example.test", clientId: "id", clientSecret: "wrong",
      fetch: async (url, init) => { biCalls++; return fetch(new Request(url, init)); } });
    for await (const row of feed.rows(bi.odata("Orders"))) void row;
  })().catch((e) => e);
  // An error made by the other build (CJS vs ESM) is recognised by this one's guards.
  const foreign = new other.EntradaProblemError({ type: "https://docs.entrada.dev/problems/sold-out", title: "Sold out", status: 409 }, { status: 409 });
  let configError = "";
  try { sdk.createClient({ baseUrl: "nope", clientId: "a", clientSecret: "b" }); } catch (e) { configError = e.name; }
  const body = JSON.stringify({ type: "ticket.issued", timestamp: new Date().toISOString(), data: {} });
  const secret = "whsec_" + btoa("0123456789abcdef0123456789abcdef");
  const signed = await webhooks.signWebhook({ id: "msg_1", body, secret });
  const verified = await webhooks.verifyWebhook(body, signed, secret);
  console.log(JSON.stringify({
    data: result.data,
    logId: result.meta.logId,
    keyed: typeof result.meta.idempotencyKey === "string",
    auth: calls[1].auth,
    token: { data: token.data, auth: tokenCall.auth },
    badLocale: { kind: badLocale.error?.kind, argument: badLocale.error?.argument, isError: badLocale.error instanceof sdk.EntradaError },
    longKey: { kind: longKey.error?.kind, argument: longKey.error?.argument, thrown: thrownLongKey },
    problem: { message: checkout.error?.message, url: checkout.error?.url, method: checkout.error?.method, status: checkout.error?.status, logId: checkout.error?.logId, requestId: checkout.error?.requestId, slug: checkout.error?.slug },
    biError: { kind: biError?.kind, error: biError?.error, name: biError?.name, isEntradaError: sdk.isEntradaError(biError), calls: biCalls },
    crossBuild: { isProblem: sdk.isProblem(foreign, "sold-out"), instanceOf: foreign instanceof sdk.EntradaProblemError, base: foreign instanceof sdk.EntradaError, notNetwork: !(foreign instanceof sdk.NetworkError) },
    configError,
    problemClass: typeof sdk.EntradaProblemError,
    webhookHeaders: Object.keys(signed).sort(),
    coreVerifier: sdk.verifyWebhook === webhooks.verifyWebhook || typeof sdk.verifyWebhook === "function",
    verifiedType: verified.type,
    bi: typeof bi,
    raw: typeof raw.rawClient,
    shop: await (async () => {
      const shop = shopEntry.createShopClient({ baseUrl: "https://api.example.test", sessionToken: "ses_1", fetch });
      const r = await shop.shop.createCart({ body: {} });
      const declined = await shop.shop.checkoutCart({ params: { path: { id: "crt_1" } }, body: {} });
      return { data: r.data, auth: calls.at(-2).auth, kind: declined.error?.kind, sameModel: sdk.isProblem(declined.error, "payment-declined") };
    })(),
    survey: survey.validateSurvey({ questions: [{ id: "q1", type: "text", visibleIf: null, validation: { required: true, minLength: 3 } }] }, { q1: "ab" }).issues,
    parquetBytes: (() => { const e = new bi.ParquetEncoder("Entrances", ["ScanId", "ScannedAt"]); e.push([{ ScanId: "scn_1", ScannedAt: "2026-12-05T18:02:41Z" }]); return new TextDecoder().decode(e.finish().slice(0, 4)); })(),
    conversion: (await conversions.ga4FromWebhook({ type: "ticket.issued" })).code,
    middleware: await (async () => {
      // The ready middlewares from their own entries, on a client's every attempt.
      const lines = [];
      const line = (m, f) => lines.push(m + " " + JSON.stringify(f));
      const sink = { debug: line, info: line, warn: line, error: line };
      const seen = [];
      const traced = sdk.createClient({ baseUrl: "https://api.example.test", accessToken: "tok_secret", headers: { "x-api-key": "key_secret" }, fetch,
        middleware: [logger.logger({ level: "debug", sink }), otel.otel()] });
      traced.use({ onRequest: ({ request, attempt }) => { seen.push(attempt); request.headers.set("x-mine", "1"); } });
      const r = await traced.shop.createCart({ body: {} });
      return { data: r.data, lines: lines.length, secretLogged: lines.some((l) => /tok_secret|key_secret/.test(l)), seen };
    })(),
  }));
`;

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

let tmp: string;
let packageRoot: string;

beforeAll(() => {
  const built = join(pkgDir, "dist/index.js");
  if (!existsSync(built) || newestSource(join(pkgDir, "src")) > statSync(built).mtimeMs) {
    const tsup = join(dirname(require.resolve("tsup/package.json")), "dist/cli-default.js");
    execFileSync(process.execPath, [tsup, "--silent"], { cwd: pkgDir, stdio: "inherit" });
  }
  tmp = mkdtempSync(join(tmpdir(), "entrada-sdk-pack-"));
  const out = execFileSync("npm", ["pack", "--json", "--pack-destination", tmp], {
    cwd: pkgDir,
    encoding: "utf8",
  });
  const [{ filename }] = JSON.parse(out) as [{ filename: string }];
  const modules = join(tmp, "node_modules");
  mkdirSync(join(modules, "@entrada"), { recursive: true });
  execFileSync("tar", ["-xzf", join(tmp, filename.replace(/^@entrada\//, "").replace("/", "-")), "-C", tmp]);
  packageRoot = join(modules, "@entrada/sdk");
  cpSync(join(tmp, "package"), packageRoot, { recursive: true });
  rmSync(join(tmp, "package"), { recursive: true });
  // Runtime dependencies, copied (not linked) from the workspace so the project resolves nothing else.
  const openapiFetch = realpathSync(dirname(require.resolve("openapi-fetch/package.json")));
  cpSync(openapiFetch, join(modules, "openapi-fetch"), { recursive: true, dereference: true });
  const helpers = realpathSync(join(openapiFetch, "..", "openapi-typescript-helpers"));
  cpSync(helpers, join(modules, "openapi-typescript-helpers"), { recursive: true, dereference: true });
  // The optional peer of `@entrada/sdk/otel`, as a tracing project has it.
  // (Its exports map hides package.json: walk up from the entry.)
  let otelApi = realpathSync(dirname(require.resolve("@opentelemetry/api")));
  while (!existsSync(join(otelApi, "package.json"))) otelApi = dirname(otelApi);
  cpSync(otelApi, join(modules, "@opentelemetry/api"), { recursive: true, dereference: true });
  for (const name of ["hyparquet-writer", "hyparquet"]) {
    // (Their exports maps hide package.json: walk up from the entry.)
    let dir = realpathSync(dirname(require.resolve(name)));
    while (!existsSync(join(dir, "package.json"))) dir = dirname(dir);
    cpSync(dir, join(modules, name), { recursive: true, dereference: true });
  }

  writeFileSync(
    join(tmp, "esm.mjs"),
    `
    import { createRequire } from "node:module";
    import * as sdk from "@entrada/sdk";
    import * as webhooks from "@entrada/sdk/webhooks";
    import * as bi from "@entrada/sdk/bi";
    import * as raw from "@entrada/sdk/raw";
    import * as shopEntry from "@entrada/sdk/shop";
    import * as survey from "@entrada/sdk/survey";
    const other = createRequire(import.meta.url)("@entrada/sdk");
    import * as conversions from "@entrada/sdk/conversions";
    import * as logger from "@entrada/sdk/logger";
    import * as otel from "@entrada/sdk/otel";
    ${CONSUMER_LOGIC}
  `,
  );
  writeFileSync(
    join(tmp, "cjs.cjs"),
    `
    const sdk = require("@entrada/sdk");
    const webhooks = require("@entrada/sdk/webhooks");
    const bi = require("@entrada/sdk/bi");
    const raw = require("@entrada/sdk/raw");
    const shopEntry = require("@entrada/sdk/shop");
    const survey = require("@entrada/sdk/survey");
    const conversions = require("@entrada/sdk/conversions");
    const logger = require("@entrada/sdk/logger");
    const otel = require("@entrada/sdk/otel");
    (async () => { const other = await import("@entrada/sdk"); ${CONSUMER_LOGIC} })().catch((e) => { console.error(e); process.exit(1); });
  `,
  );
}, 180_000);

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe("packed tarball", () => {
  it("ships dist, the docs the README links, the samples, README, changelog, licence and package.json only", () => {
    expect(readdirSync(packageRoot).sort()).toEqual([
      "CHANGELOG.md",
      "LICENSE",
      "README.md",
      "dist",
      "docs",
      "generated",
      "package.json",
    ]);
    expect(readdirSync(join(packageRoot, "generated"))).toEqual(["samples.json"]);
    const readme = readFileSync(join(packageRoot, "README.md"), "utf8");
    const links = [...readme.matchAll(/\]\(((?!https?:|#)[^)]+)\)/g)].map((m) => m[1] as string);
    expect(links).toEqual(expect.arrayContaining(["docs/webhooks.md", "docs/bi.md"]));
    for (const link of links) expect(existsSync(join(packageRoot, link)), link).toBe(true);
    const dist = readdirSync(join(packageRoot, "dist"));
    expect(dist).toEqual(
      expect.arrayContaining(["index.js", "index.cjs", "index.d.ts", "index.d.cts", "webhooks.js", "bi.js"]),
    );
    expect(dist.some((f) => f.endsWith(".test.js"))).toBe(false);
  });

  it("does not reference the private contract package (declarations carry the generated types themselves)", () => {
    const files = readdirSync(join(packageRoot, "dist"), { recursive: true, encoding: "utf8" }).filter((f) =>
      /\.(d\.ts|d\.cts|js|cjs)$/.test(f),
    );
    expect(files.filter((f) => /\.d\.c?ts$/.test(f)).length).toBeGreaterThan(3);
    const referencing = files.filter((f) =>
      readFileSync(join(packageRoot, "dist", f), "utf8").includes("@entrada/openapi"),
    );
    expect(referencing).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8")) as {
      dependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
    };
    expect(Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })).not.toContain(
      "@entrada/openapi",
    );
  });

  it("names its repository, homepage and supported Node versions", () => {
    const manifest = JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8")) as Record<
      string,
      unknown
    >;
    expect(manifest.repository).toMatchObject({
      type: "git",
      url: expect.stringMatching(/^git\+https:\/\//),
    });
    expect(manifest.homepage).toMatch(/^https:\/\//);
    expect(manifest.engines).toEqual({ node: ">=20" });
  });

  const binaries = nodeBinaries();
  it("finds Node 20 and Node 24 on this machine", () => {
    expect(binaries.map(([name]) => name)).toEqual(expect.arrayContaining(["node 20", "node 24"]));
  });

  for (const [name, bin] of binaries) {
    for (const file of ["esm.mjs", "cjs.cjs"]) {
      it(`imports and runs from a fresh ${file.startsWith("esm") ? "ESM" : "CJS"} project on ${name}`, () => {
        const stdout = execFileSync(bin, [file], { cwd: tmp, encoding: "utf8" });
        const result = JSON.parse(stdout.trim().split("\n").at(-1) as string);
        expect(result).toMatchObject({
          data: { id: "crt_1" },
          logId: "log_1",
          keyed: true,
          auth: "Bearer tok",
          configError: "EntradaConfigError",
          problemClass: "function",
          bi: "object",
          parquetBytes: "PAR1",
          conversion: "unknown_kind",
          verifiedType: "ticket.issued",
          coreVerifier: true,
          raw: "function",
          shop: { data: { id: "crt_1" }, auth: "Bearer ses_1", kind: "problem", sameModel: true },
          survey: { q1: { key: "minLength", count: 3 } },
          token: { data: { access_token: "tok" }, auth: `Basic ${btoa("id:secret")}` },
          badLocale: { kind: "invalid-argument", argument: "locale", isError: true },
          longKey: { kind: "invalid-argument", argument: "idempotencyKey", thrown: "invalid-argument" },
          problem: {
            message: "POST /shop/v1/cart/crt_1/checkout → 402 payment-declined: Karte abgelehnt.",
            url: "https://api.example.test/shop/v1/cart/crt_1/checkout",
            method: "POST",
            status: 402,
            logId: "log_2",
            requestId: "req_2",
            slug: "payment-declined",
          },
          biError: {
            kind: "oauth",
            error: "invalid_client",
            name: "OAuthError",
            isEntradaError: true,
            calls: 1,
          },
          crossBuild: { isProblem: true, instanceOf: true, base: true, notNetwork: true },
          middleware: { data: { id: "crt_1" }, lines: 2, secretLogged: false, seen: [1] },
        });
        expect(result.webhookHeaders).toEqual(["webhook-id", "webhook-signature", "webhook-timestamp"]);
      });
    }
  }

  it("type-checks a consumer against the packed declarations (node16 resolution, ESM and CJS)", () => {
    writeFileSync(
      join(tmp, "consumer.mts"),
      `import { createClient, paginate, type components } from "@entrada/sdk";
       import { verifyWebhook } from "@entrada/sdk/webhooks";
       const client = createClient({ baseUrl: "https://x.test", clientId: "a", clientSecret: "b" });
       const r = await client.shop.getEvent({ params: { path: { eventId: "evt_1" } } });
       if (!r.error) { const name: string = r.data.name; void name; }
       const events: components["schemas"]["EventSummary"][] = await paginate(client.shop.listEvents).all({ max: 5 });
       void events; void verifyWebhook;
       // @ts-expect-error — eventId is required
       void client.shop.getEvent({ params: { path: {} } });
      `,
    );
    writeFileSync(
      join(tmp, "consumer.cts"),
      `import sdk = require("@entrada/sdk");
       const client = sdk.createClient({ baseUrl: "https://x.test", sessionToken: "ses" });
       void client.shop.listVenues();
      `,
    );
    writeFileSync(
      join(tmp, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          module: "node16",
          moduleResolution: "node16",
          target: "es2022",
          lib: ["es2022", "dom"],
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: [],
        },
        files: ["consumer.mts", "consumer.cts"],
      }),
    );
    expect(typecheck("tsconfig.json")).toBe("");
  }, 60_000);

  // A fresh strict project per moduleResolution: every subpath resolves (TS2307 under node10 before) and the
  // types guide (cultures, per-operation problem slugs, named results).
  const TYPED_CONSUMER = `
    import { createClient, customLocale, type Cart, type CheckoutCartResult, type OperationProblems } from "@entrada/sdk";
    import { verifyWebhook } from "@entrada/sdk/webhooks";
    import { biFeed, odata } from "@entrada/sdk/bi";
    import { rawClient } from "@entrada/sdk/raw";
    import { createShopClient, isProblem } from "@entrada/sdk/shop";
    import { validateSurvey, type SurveyIssue } from "@entrada/sdk/survey";
    import { logger, type LogFields } from "@entrada/sdk/logger";
    import { otel } from "@entrada/sdk/otel";
    export async function main(): Promise<void> {
      const shop = createShopClient({ baseUrl: "https://x.test", sessionToken: async () => "ses", locale: "it-CH" });
      const event = await shop.shop.getEvent({ params: { path: { eventId: "evt_1" } } });
      if (isProblem(event.error, "not-found")) void event.error.slug;
      const issues: Record<string, SurveyIssue> = validateSurvey({ questions: [] }, {}).issues;
      void issues;
      const client = createClient({ baseUrl: "https://x.test", clientId: "a", clientSecret: "b", locale: "fr-CH", headers: { "x-gateway": "g" } });
      // @ts-expect-error — not a culture of the contract; customLocale() is the escape hatch
      createClient({ baseUrl: "https://x.test", sessionToken: "t", locale: "de-AT" });
      createClient({ baseUrl: "https://x.test", sessionToken: "t", locale: customLocale("de-AT") });
      const cart = await client.shop.getCart.orThrow({ params: { path: { id: "crt_1" } } });
      const named: Cart = cart.data;
      const checkout = await client.shop.checkoutCart({ params: { path: { id: "crt_1" } }, body: {} });
      if (checkout.error?.kind === "problem") {
        const slug: OperationProblems["checkoutCart"] = checkout.error.slug;
        void slug;
      }
      if (!checkout.error) { const result: CheckoutCartResult = checkout.data; void result; }
      const venues = await client.shop.listVenues();
      // @ts-expect-error — listVenues never answers payment-declined
      if (venues.error?.kind === "problem" && venues.error.slug === "payment-declined") void 0;
      void named; void verifyWebhook; void rawClient(client);
      void biFeed({ baseUrl: "https://x.test", client }).rows(odata("Orders"));
      client.use(logger({ level: "warn", sink: { debug() {}, info() {}, warn(_m: string, f: LogFields) { void f.logId; }, error() {} } }), otel());
      shop.use({ onRequest: ({ request, attempt }) => { request.headers.set("x-attempt", String(attempt)); } });
    }
  `;
  for (const [resolution, module] of [
    ["node10", "commonjs"],
    // node16 and nodenext resolve alike in TypeScript 5.9; one run covers both.
    ["node16", "node16"],
    ["bundler", "esnext"],
  ] as const) {
    it(`resolves every subpath and its types under moduleResolution ${resolution} (fresh strict project)`, () => {
      const dir = join(tmp, `ts-${resolution}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "consumer.ts"), TYPED_CONSUMER);
      writeFileSync(
        join(dir, "tsconfig.json"),
        JSON.stringify({
          compilerOptions: {
            module,
            moduleResolution: resolution,
            target: "es2022",
            lib: ["es2022", "dom"],
            strict: true,
            noEmit: true,
            skipLibCheck: false,
            types: [],
          },
          files: ["consumer.ts"],
        }),
      );
      expect(typecheck(`ts-${resolution}/tsconfig.json`)).toBe("");
    }, 60_000);
  }

  it("type-checks a Node-types-only consumer (lib ES2022 + types node, no DOM lib)", () => {
    // Node's types without the DOM lib: a DOM-only type name in the declarations (CryptoKey, RequestInit from
    // lib.dom) fails here. @types/node and undici-types are copied from the workspace like openapi-fetch.
    const typesNode = realpathSync(dirname(workspaceRequire.resolve("@types/node/package.json")));
    cpSync(typesNode, join(tmp, "node_modules/@types/node"), { recursive: true, dereference: true });
    const undici = join(typesNode, "..", "..", "undici-types");
    cpSync(realpathSync(undici), join(tmp, "node_modules/undici-types"), {
      recursive: true,
      dereference: true,
    });
    writeFileSync(
      join(tmp, "node-consumer.mts"),
      `import { readFile } from "node:fs/promises";
       import { createClient, isProblem, paginate } from "@entrada/sdk";
       import { signWebhook, verifyWebhook, type WebhookEvent } from "@entrada/sdk/webhooks";
       import * as bi from "@entrada/sdk/bi";
       const client = createClient({ baseUrl: "https://x.test", clientId: "a", clientSecret: "b", locale: "de-CH" });
       const pdf = await client.assets.getTicketPdf({ params: { path: { ticketId: "tkt_1" } } });
       if (!pdf.error) { const blob: Blob = pdf.data; void blob; }
       const { error } = await client.shop.createCart({ body: {} });
       if (isProblem(error, "conflict")) void error.slug;
       for await (const e of paginate(client.shop.listEvents)) void e.id;
       const secret = "whsec_" + Buffer.from("0123456789abcdef").toString("base64");
       const headers = await signWebhook({ id: "msg_1", body: "{}", secret });
       const event: WebhookEvent = await verifyWebhook(await readFile("body.json"), headers, [secret]);
       void event.type; void bi;
      `,
    );
    writeFileSync(
      join(tmp, "tsconfig.node.json"),
      JSON.stringify({
        compilerOptions: {
          module: "node16",
          moduleResolution: "node16",
          target: "es2022",
          lib: ["es2022"],
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: ["node"],
        },
        files: ["node-consumer.mts"],
      }),
    );
    expect(typecheck("tsconfig.node.json")).toBe("");
  }, 60_000);
});

/** Runs tsc on a project in the temporary consumer directory; its diagnostics, or "" when it compiles. */
function typecheck(project: string): string {
  const tsc = join(dirname(require.resolve("typescript/package.json")), "bin/tsc");
  try {
    execFileSync(process.execPath, [tsc, "-p", project], { cwd: tmp, encoding: "utf8" });
    return "";
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error);
  }
}
