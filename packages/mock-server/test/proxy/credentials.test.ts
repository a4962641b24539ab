/**
 * The proxy ready for real credentials (issue 31), over real HTTP: no credential of any kind — bearer and Basic
 * credentials, client secrets, webhook secrets, shop session tokens, link signatures inside response bodies — in
 * any file the proxy, the recorder and `seed --from` write, the drift report and page, or the log; a recording
 * directory holding foreign files is refused and left alone; replays checked both ways; `--fallback` accepts the
 * upstream's tokens and clients; every command's `--help`; one rule+pointer per violation; unmatched routes by
 * method and path.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contractHeader } from "../../src/core/contract.ts";
import { type MockServer, startMockServer } from "../../src/node/index.ts";
import { triggerMain } from "../../src/node/trigger.ts";
import { verifyMain } from "../../src/node/verify/main.ts";
import { DriftStore } from "../../src/proxy/drift.ts";
import { proxyMain } from "../../src/proxy/main.ts";
import { seedMain } from "../../src/proxy/seed-from.ts";
import { startProxyServer } from "../../src/proxy/server.ts";
import { startRewritingUpstream } from "./rewriting-upstream.ts";

const CLIENT = { id: "real-app", secret: "s3cr3t-client-Secret-9f8e7d" };
const basic = (id: string, secret: string) => `Basic ${btoa(`${id}:${secret}`)}`;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

async function json<T>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
function close(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

describe("no credential in anything written", () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({
      port: 0,
      webhooks: false,
      docs: false,
      rateLimit: false,
      clients: [{ clientId: CLIENT.id, secrets: [CLIENT.secret], scopes: ["Shop", "TERP"] }],
    });
  });
  afterAll(() => mock.close());

  it("plants one of each kind and finds none in recordings, examples, seed, report, drift page or log", async () => {
    const dir = mkdtempSync(join(tmpdir(), "entrada-credentials-"));
    const rec = join(dir, "rec");
    const report = join(dir, "report.json");
    const lines: string[] = [];
    const planted = new Map<string, string>();
    const plant = (kind: string, value: string | undefined) => {
      expect(value, kind).toBeTruthy();
      planted.set(kind, value as string);
    };
    plant("client secret", CLIENT.secret);
    plant("Basic credentials", btoa(`${CLIENT.id}:${CLIENT.secret}`));
    // An upstream that breaks the contract (status 299) and echoes credentials inside its body.
    let echoed = "";
    const echo = createServer((_req, res) => {
      res.writeHead(299, { "content-type": "application/json" });
      res.end(echoed);
    });
    const echoUrl = await listen(echo);
    const proxy = await startProxyServer({
      upstream: mock.url,
      port: 0,
      record: rec,
      log: (l) => lines.push(l),
    });
    const drifting = await startProxyServer({
      upstream: echoUrl,
      port: 0,
      report,
      log: (l) => lines.push(l),
    });
    try {
      // Basic credentials (one token), the client secret in the form body (another).
      const viaBasic = await json<{ access_token: string }>(
        await fetch(`${proxy.url}/connect/token`, {
          method: "POST",
          headers: {
            authorization: basic(CLIENT.id, CLIENT.secret),
            "content-type": "application/x-www-form-urlencoded",
          },
          body: "grant_type=client_credentials&scope=Shop%20TERP",
        }),
      );
      plant("bearer token", viaBasic.access_token);
      const viaForm = await json<{ access_token: string }>(
        await fetch(`${proxy.url}/connect/token`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: `grant_type=client_credentials&scope=Shop&client_id=${CLIENT.id}&client_secret=${CLIENT.secret}`,
        }),
      );
      plant("bearer token (form client)", viaForm.access_token);
      const auth = { authorization: `Bearer ${viaBasic.access_token}`, "content-type": "application/json" };
      const send = (method: string, path: string, body?: unknown) =>
        fetch(`${proxy.url}${path}`, {
          method,
          headers: { ...auth, "idempotency-key": crypto.randomUUID() },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });

      const session = await json<{ sessionToken: string }>(await send("POST", "/shop/v1/sessions", {}));
      plant("session token", session.sessionToken);
      const subscription = await json<{ id: string; secret: string }>(
        await send("POST", "/webhooks/v1/subscriptions", {
          url: "https://hooks.example.ch/entrada",
          eventTypes: ["cart.completed"],
        }),
      );
      plant("webhook secret", subscription.secret);
      const rotated = await json<{ secret: string }>(
        await send("POST", `/webhooks/v1/subscriptions/${subscription.id}/rotate-secret`, {
          overlapSeconds: 60,
        }),
      );
      plant("rotated webhook secret", rotated.secret);

      // A purchase: its answer carries signed ticket and receipt links.
      const events = await json<{ items: Array<{ id: string }> }>(
        await send("GET", "/shop/v1/discovery/events?limit=1"),
      );
      const event = await json<{
        slots: Array<{ id: string }>;
        pricingAssortments: Array<{ articles: Array<{ id: string }> }>;
      }>(await send("GET", `/shop/v1/discovery/events/${events.items[0]?.id}`));
      const cart = await json<{ id: string }>(await send("POST", "/shop/v1/cart", {}));
      await send("POST", `/shop/v1/cart/${cart.id}/items`, {
        articleId: event.pricingAssortments[0]?.articles[0]?.id,
        slotId: event.slots[0]?.id,
        quantity: 1,
      });
      await send("PUT", `/shop/v1/cart/${cart.id}/customer`, {
        firstName: "Anna",
        lastName: "Meier",
        email: "a@example.ch",
      });
      await send("PUT", `/shop/v1/cart/${cart.id}/payment-provider`, { paymentProviderId: "card" });
      const paid = await json<{
        order: { id: string; receiptUrl: string; tickets: Array<{ ticketUrl: string }> };
      }>(
        await send("POST", `/shop/v1/cart/${cart.id}/checkout`, {
          paymentMethod: { cardNumber: "4242424242424242" },
        }),
      );
      const signature = (link: string) => new URL(link).searchParams.get("signature") ?? undefined;
      plant("ticket link signature", signature(paid.order.tickets[0]?.ticketUrl ?? ""));
      plant("receipt link signature", signature(paid.order.receiptUrl));
      await send("GET", `/shop/v1/orders/${paid.order.id}`);
      // The link itself through the proxy (the signature in the request's query).
      await fetch(paid.order.receiptUrl.replace(mock.url, proxy.url));

      // The same kinds inside a drifting answer: it reaches the drift report, its page and the report file.
      echoed = JSON.stringify({
        ticketUrl: paid.order.tickets[0]?.ticketUrl,
        note: `rotate ${rotated.secret}, call with Bearer ${viaBasic.access_token} or Basic ${btoa(`${CLIENT.id}:${CLIENT.secret}`)}`,
        link: `${paid.order.receiptUrl}`,
        sessionToken: session.sessionToken,
      });
      const drifted = await fetch(`${drifting.url}/shop/v1/orders/${paid.order.id}`, { headers: auth });
      expect(drifted.status).toBe(299);
      const page = await (
        await fetch(`${drifting.url}/__mock/drift`, { headers: { accept: "text/html" } })
      ).text();
      const driftJson = await (await fetch(`${drifting.url}/__mock/drift`)).text();
      expect(driftJson).toContain("getOrder");
      await drifting.close();
      await proxy.close();
      const out: string[] = [];
      expect(seedMain(["--from", rec], { out: (l) => out.push(l), err: (l) => out.push(l) })).toBe(0);

      const written = filesUnder(dir);
      expect(written.some((f) => f.includes("checkoutCart"))).toBe(true);
      expect(written.some((f) => f.endsWith(join("examples", "checkoutCart.json")))).toBe(true);
      expect(written).toContain(report);
      const kept: Array<[string, string]> = [
        ["drift page", page],
        ["drift JSON", driftJson],
        ["log", lines.join("\n")],
        ["seed output", out.join("\n")],
        ...written.map((f): [string, string] => [f, readFileSync(f, "utf8")]),
      ];
      for (const [kind, secret] of planted)
        for (const [where, text] of kept)
          expect(text.includes(secret), `${kind} kept in ${where}`).toBe(false);
      // Links stay links (valid URIs in the examples), their signature redacted.
      const checkout = readFileSync(join(rec, "examples", "checkoutCart.json"), "utf8");
      expect(checkout).toMatch(/\.pdf\?[^"]*expires=\d+&signature=redacted/);
    } finally {
      await proxy.close();
      await drifting.close();
      await close(echo);
    }
  });

  it("refuses a recording directory holding foreign files, and writes nothing into it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "entrada-foreign-"));
    writeFileSync(join(dir, "notes.txt"), "mine");
    mkdirSync(join(dir, "getEvent"));
    writeFileSync(join(dir, "getEvent", "0001-200.json"), "{}");
    const err: string[] = [];
    const result = await proxyMain(["--upstream", mock.url, "--port", "0", "--record", dir, "--quiet"], {
      out: () => {},
      err: (l) => err.push(l),
    });
    expect(result).toBe(2);
    expect(err.join("\n")).toMatch(
      /--record .*holds files that are not recordings \(notes\.txt\).*Nothing was written/,
    );
    expect(readdirSync(dir).sort()).toEqual(["getEvent", "notes.txt"]);
    expect(readFileSync(join(dir, "notes.txt"), "utf8")).toBe("mine");

    // A directory an earlier --record wrote is continued after its last number, never over it.
    const ours = mkdtempSync(join(tmpdir(), "entrada-ours-"));
    mkdirSync(join(ours, "listVenues"));
    writeFileSync(join(ours, "listVenues", "0007-200.json"), '{"kept":true}');
    const proxy = await startProxyServer({ upstream: mock.url, port: 0, record: ours });
    try {
      const token = await json<{ access_token: string }>(
        await fetch(`${proxy.url}/connect/token`, {
          method: "POST",
          headers: {
            authorization: basic(CLIENT.id, CLIENT.secret),
            "content-type": "application/x-www-form-urlencoded",
          },
          body: "grant_type=client_credentials&scope=Shop",
        }),
      );
      await fetch(`${proxy.url}/shop/v1/discovery/venues`, {
        headers: { authorization: `Bearer ${token.access_token}` },
      });
    } finally {
      await proxy.close();
    }
    expect(readdirSync(join(ours, "listVenues")).sort()).toEqual(["0007-200.json", "0008-200.json"]);
    expect(readFileSync(join(ours, "listVenues", "0007-200.json"), "utf8")).toBe('{"kept":true}');
    expect(existsSync(join(ours, "createToken"))).toBe(true);
  });
});

describe("replays in the proxy", () => {
  it("flags a first write that says it was replayed, and a replay that answers another resource", async () => {
    const mock = await startMockServer({ port: 0, webhooks: false, docs: false, rateLimit: false });
    // An upstream that forgets idempotency keys (every write runs again) and says every answer was replayed.
    const forgetful = await startRewritingUpstream(mock.url, {
      request: (_path, headers) => headers.delete("idempotency-key"),
      add: { "idempotent-replayed": "true" },
    });
    const url = forgetful.url;
    const proxy = await startProxyServer({ upstream: url, port: 0 });
    try {
      const token = await json<{ access_token: string }>(
        await fetch(`${proxy.url}/connect/token`, {
          method: "POST",
          headers: {
            authorization: basic("entrada-demo", "demo-secret"),
            "content-type": "application/x-www-form-urlencoded",
          },
          body: "grant_type=client_credentials&scope=Shop",
        }),
      );
      const write = () =>
        fetch(`${proxy.url}/shop/v1/cart`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${token.access_token}`,
            "content-type": "application/json",
            "idempotency-key": "same-key-1",
          },
          body: "{}",
        });
      const first = await write();
      expect(first.status).toBe(201);
      expect(first.headers.get("x-entrada-contract")).toContain("replay /header/idempotent-replayed");
      const again = await write();
      const verdict = again.headers.get("x-entrada-contract") ?? "";
      expect(verdict).toContain("replay /body");
      expect(verdict).toContain("replay /header/x-log-id");
      const report = await json<{
        operations: Array<{
          operationId: string;
          drift: Array<{ rule: string; pointer: string; message: string }>;
        }>;
      }>(await fetch(`${proxy.url}/__mock/drift`));
      const drift = report.operations.find((o) => o.operationId === "createCart")?.drift ?? [];
      expect(drift.map((d) => `${d.rule} ${d.pointer}`).sort()).toEqual([
        "replay /body",
        "replay /header/idempotent-replayed",
        "replay /header/x-log-id",
      ]);
      expect(drift.find((d) => d.pointer === "/body")?.message).toMatch(
        /must answer what the first one did \(id crt_/,
      );
    } finally {
      await proxy.close();
      await forgetful.close();
      await mock.close();
    }
  });
});

describe("--fallback with real credentials", () => {
  it("accepts the upstream's tokens, session tokens and clients when the upstream is down; nothing else", async () => {
    const upstream = await startMockServer({
      port: 0,
      webhooks: false,
      docs: false,
      rateLimit: false,
      clients: [{ clientId: CLIENT.id, secrets: [CLIENT.secret], scopes: ["Shop"] }],
    });
    const proxy = await startProxyServer({ upstream: upstream.url, port: 0, fallback: true });
    try {
      const tokenRequest = () =>
        fetch(`${proxy.url}/connect/token`, {
          method: "POST",
          headers: {
            authorization: basic(CLIENT.id, CLIENT.secret),
            "content-type": "application/x-www-form-urlencoded",
          },
          body: "grant_type=client_credentials&scope=Shop",
        });
      const issued = await tokenRequest();
      expect(issued.headers.get("x-entrada-source")).toBeNull();
      const { access_token: token } = await json<{ access_token: string }>(issued);
      const session = await json<{ sessionToken: string }>(
        await fetch(`${proxy.url}/shop/v1/sessions`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: "{}",
        }),
      );
      await upstream.close();

      for (const bearer of [token, session.sessionToken]) {
        const venues = await fetch(`${proxy.url}/shop/v1/discovery/venues`, {
          headers: { authorization: `Bearer ${bearer}` },
        });
        expect(venues.status).toBe(200);
        expect(venues.headers.get("x-entrada-source")).toBe("local-fallback");
      }
      const again = await tokenRequest();
      expect(again.status).toBe(200);
      expect(again.headers.get("x-entrada-source")).toBe("local-fallback");
      // What the upstream never issued or authenticated is still refused.
      const forged = await fetch(`${proxy.url}/shop/v1/discovery/venues`, {
        headers: { authorization: "Bearer not-issued-by-anyone" },
      });
      expect(forged.status).toBe(401);
      const wrongSecret = await fetch(`${proxy.url}/connect/token`, {
        method: "POST",
        headers: {
          authorization: basic(CLIENT.id, "guessed"),
          "content-type": "application/x-www-form-urlencoded",
        },
        body: "grant_type=client_credentials&scope=Shop",
      });
      expect(wrongSecret.status).toBe(401);
    } finally {
      await proxy.close();
    }
  });
});

describe("small things", () => {
  it("every command's --help exits 0", async () => {
    const io = { out: () => {}, err: () => {} };
    expect(seedMain(["--help"], io)).toBe(0);
    expect(seedMain(["-h"], io)).toBe(0);
    expect(await proxyMain(["--help"], io)).toBe(0);
    expect(await verifyMain(["--help"], io, {})).toBe(0);
    expect(await triggerMain(["--help"], io, {})).toBe(0);
  });

  it("X-Entrada-Contract names each rule and pointer once", () => {
    const v = (rule: "schema" | "header", pointer: string) => ({ rule, pointer, message: "m" });
    expect(
      contractHeader([v("schema", "/body/name"), v("schema", "/body/name"), v("header", "/header/x-log-id")]),
    ).toBe("schema /body/name, header /header/x-log-id");
  });

  it("the drift report lists each unmatched route by method and path", () => {
    const store = new DriftStore("http://upstream.invalid");
    const route = { rule: "route" as const, pointer: "/path", message: "matches no operation" };
    for (const [method, path] of [
      ["GET", "/shop/v1/nope"],
      ["POST", "/shop/v1/nope"],
      ["GET", "/other?token=abc123secret"],
    ] as const)
      store.record(
        { operationId: "(no operation)", method, template: path, path, status: 404, headers: {}, body: null },
        [route],
      );
    const listed = store.report().operations.map((o) => `${o.method} ${o.template}`);
    expect(listed.sort()).toEqual(["GET /other?token=redacted", "GET /shop/v1/nope", "POST /shop/v1/nope"]);
  });
});
