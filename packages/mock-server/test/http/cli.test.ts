import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";

const root = join(import.meta.dirname, "../..");

it("entrada-mock: prints URL, demo credentials and test cards, honours its options, stops cleanly on SIGTERM", async () => {
  const dir = mkdtempSync(join(tmpdir(), "entrada-cli-"));
  const seed = join(dir, "seed.json");
  writeFileSync(seed, JSON.stringify({ shop: { slotCapacity: 3 } }));
  const child = spawn(
    process.execPath,
    [
      "--conditions=source",
      "--experimental-transform-types",
      "--disable-warning=ExperimentalWarning",
      "src/node/cli.ts",
      "--port",
      "0",
      "--seed",
      seed,
      "--token-ttl",
      "120",
      "--client",
      "ci-client:ci-secret-123:Shop",
      "--no-webhooks",
    ],
    { cwd: root, stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const deadline = Date.now() + 20_000;
  while (!/Ctrl-C stops the server/.test(output) && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 50));
  const url = /Entrada mock server {2}(http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
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
  expect(output).toContain("SIGTERM: stopping");
});
