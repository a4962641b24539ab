import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { bodyOf, type SuccessBody, startCli } from "../helpers.ts";

it("entrada-mock: prints URL, demo credentials and test cards, honours its options, stops cleanly on SIGTERM", async () => {
  const dir = mkdtempSync(join(tmpdir(), "entrada-cli-"));
  const seed = join(dir, "seed.json");
  writeFileSync(seed, JSON.stringify({ shop: { slotCapacity: 3 } }));
  const { child, state, exited, url } = await startCli([
    "--port",
    "0",
    "--seed",
    seed,
    "--token-ttl",
    "120",
    "--client",
    "ci-client:ci-secret-123:Shop",
    "--no-webhooks",
  ]);
  const output = state.output;
  expect(url, output).toBeDefined();
  expect(output).toContain("ci-client");
  expect(output).toContain("ci-secret-123");
  expect(output).toContain("4242424242424242");
  expect(output).toContain("4000000000000002");
  expect(output).toContain(`${url}/__mock`);

  const token = await fetch(`${url}/connect/token`, {
    method: "POST",
    headers: {
      authorization: `Basic ${btoa("ci-client:ci-secret-123")}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: "grant_type=client_credentials",
  });
  const body = await token.json();
  expect(body.expires_in).toBe(120);
  const demo = await fetch(`${url}/connect/token`, {
    method: "POST",
    headers: {
      authorization: `Basic ${btoa("entrada-demo:demo-secret")}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: "grant_type=client_credentials",
  });
  expect(demo.status).toBe(401);
  const event = await (
    await fetch(`${url}/shop/v1/discovery/events?limit=1`, {
      headers: { authorization: `Bearer ${body.access_token}` },
    })
  ).json();
  const detail = await (
    await fetch(`${url}/shop/v1/discovery/events/${event.items[0].id}`, {
      headers: { authorization: `Bearer ${body.access_token}` },
    })
  ).json();
  expect(detail.slots[0].capacity).toBe(3);

  child.kill("SIGTERM");
  expect(await exited).toBe(0);
  expect(state.output).toContain("SIGTERM: stopping");
});

it("entrada-mock: a leading `--` (what `pnpm mock -- --port 0` passes through) is ignored, the options after it apply", async () => {
  const { child, state, exited, url } = await startCli(["--", "--port", "0", "--no-webhooks", "--no-docs"]);
  expect(url, state.output).toBeDefined();
  // --port 0 was honoured (not the default 4010), so the options after `--` were read as options.
  expect(url).not.toMatch(/:4010$/);
  const index = await fetch(`${url}/__mock`, { headers: { accept: "application/json" } });
  expect(index.status).toBe(200);
  // --no-docs after the `--` took effect too.
  expect((await fetch(`${url}/api/mcp`, { method: "POST" })).status).toBe(404);
  child.kill("SIGTERM");
  expect(await exited).toBe(0);
});

it("entrada-mock: after a leading `--`, unknown options still fail with exit code 2 and the help", async () => {
  const bad = await startCli(["--", "--no-such-option"]);
  expect(await bad.exited).toBe(2);
  expect(bad.state.output).toContain("--no-such-option");
  expect(bad.state.output).toContain("Options:");
});

it("entrada-mock --history-orders: sizes the BI feed's seeded history, indexes it at startup, serves it over HTTP", async () => {
  const { child, state, exited, url } = await startCli([
    "--port",
    "0",
    "--history-orders",
    "2000",
    "--no-webhooks",
    "--no-docs",
  ]);
  expect(url, state.output).toBeDefined();
  expect(state.output).toMatch(/BI feed history: [\d,]+ rows \([\d,]+ tickets\) indexed in [\d.]+ s/);
  const token = await bodyOf(
    await fetch(`${url}/connect/token`, {
      method: "POST",
      headers: {
        authorization: `Basic ${btoa("entrada-demo:demo-secret")}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: "grant_type=client_credentials&scope=Shop",
    }),
    "createToken",
  );
  const get = async (path: string) => {
    const res = await fetch(`${url}/bi/v1/odata/${path}`, {
      headers: { authorization: `Bearer ${token.access_token}`, prefer: "odata.maxpagesize=5000" },
    });
    expect(res.status, path).toBe(200);
    return res;
  };
  // The seeded orders are the ones drawn before today's start (UTC; live ones are stamped now).
  const before = new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000).toISOString();
  expect(await (await get(`Orders/$count?$filter=ModifiedAt lt ${before}`)).text()).toBe("2000");
  // The paging an incremental export does, answered from the index: every ticket once, in (ModifiedAt, key) order.
  let next: string | undefined =
    "Tickets?$orderby=ModifiedAt,TicketId&$select=TicketId,ModifiedAt&$count=true";
  const seen: { TicketId: string; ModifiedAt: string }[] = [];
  let count = 0;
  while (next) {
    const page: SuccessBody<"listBiTickets"> = await bodyOf(await get(next), "listBiTickets");
    count = page["@odata.count"] ?? 0;
    seen.push(
      ...page.value.map((t: (typeof page.value)[number]) => ({
        TicketId: String(t.TicketId),
        ModifiedAt: String(t.ModifiedAt),
      })),
    );
    next = page["@odata.nextLink"]?.replace(/^.*\/bi\/v1\/odata\//, "");
  }
  expect(seen.length).toBe(count);
  expect(new Set(seen.map((t) => t.TicketId)).size).toBe(count);
  for (let i = 1; i < seen.length; i++) {
    const [a, b] = [seen[i - 1], seen[i]] as [(typeof seen)[0], (typeof seen)[0]];
    expect(Date.parse(a.ModifiedAt) < Date.parse(b.ModifiedAt) || a.TicketId < b.TicketId).toBe(true);
  }
  child.kill("SIGTERM");
  expect(await exited).toBe(0);

  for (const wrong of ["many", "2.5", "1000001"]) {
    const bad = await startCli(["--port", "0", "--history-orders", wrong]);
    expect(await bad.exited).toBe(2);
    expect(bad.state.output).toContain(`--history-orders must be an integer from 0 to 1000000, got ${wrong}`);
  }
});
