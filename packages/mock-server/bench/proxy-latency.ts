/**
 * The contract proxy's added latency: the same requests sent straight to a mock and through `entrada-mock proxy`
 * in front of it, interleaved one by one in the same run (so machine noise hits both alike), sequentially (latency,
 * not throughput). Prints p50 and p90 per route and the proxied/direct ratio.
 *   pnpm --filter @entrada/mock-server bench:proxy          (PROXY_BENCH_REQUESTS=1500 per route and path)
 */
import { startMockServer } from "../src/node/index.ts";
import { startProxyServer } from "../src/proxy/server.ts";

const requests = Number(process.env.PROXY_BENCH_REQUESTS ?? 1500);
const mock = await startMockServer({ port: 0, webhooks: false, docs: false, rateLimit: false });
const proxy = await startProxyServer({ upstream: mock.url, port: 0 });

async function token(base: string): Promise<string> {
  const response = await fetch(`${base}/connect/token`, {
    method: "POST",
    headers: {
      authorization: `Basic ${btoa("entrada-demo:demo-secret")}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: "grant_type=client_credentials&scope=Shop",
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

const auth = { authorization: `Bearer ${await token(mock.url)}` };
const list = (await (
  await fetch(`${mock.url}/shop/v1/discovery/events?limit=1`, { headers: auth })
).json()) as {
  items: Array<{ id: string }>;
};
const eventPath = `/shop/v1/discovery/events/${list.items[0]?.id}`;

const routes: Array<{ name: string; send: (base: string) => Promise<Response> }> = [
  { name: `GET getEvent`, send: (base) => fetch(`${base}${eventPath}`, { headers: auth }) },
  {
    name: "POST createCart",
    send: (base) =>
      fetch(`${base}/shop/v1/cart`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: '{"currency":"CHF"}',
      }),
  },
];

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

console.log(`Contract proxy latency: ${requests} requests per route and path, interleaved, sequential\n`);
for (const route of routes) {
  const direct: number[] = [];
  const proxied: number[] = [];
  for (let i = 0; i < 100; i++) {
    await (await route.send(mock.url)).arrayBuffer();
    await (await route.send(proxy.url)).arrayBuffer();
  }
  for (let i = 0; i < requests; i++) {
    for (const [base, into] of (i % 2 === 0
      ? [
          [mock.url, direct],
          [proxy.url, proxied],
        ]
      : [
          [proxy.url, proxied],
          [mock.url, direct],
        ]) as Array<[string, number[]]>) {
      const started = performance.now();
      const response = await route.send(base);
      await response.arrayBuffer();
      into.push(performance.now() - started);
      if (response.status >= 300) throw new Error(`${route.name} via ${base}: ${response.status}`);
    }
  }
  direct.sort((a, b) => a - b);
  proxied.sort((a, b) => a - b);
  const d50 = quantile(direct, 0.5);
  const p50 = quantile(proxied, 0.5);
  console.log(
    `${route.name.padEnd(18)} direct p50 ${d50.toFixed(2)} ms p90 ${quantile(direct, 0.9).toFixed(2)} ms | ` +
      `proxied p50 ${p50.toFixed(2)} ms p90 ${quantile(proxied, 0.9).toFixed(2)} ms | ` +
      `added p50 ${(p50 - d50).toFixed(2)} ms, ratio ${(p50 / d50).toFixed(2)}×`,
  );
}
const report = proxy.drift.report();
console.log(`\n(${report.checked} answers checked by the proxy, ${report.conforming} conforming)`);
await proxy.close();
await mock.close();
