/**
 * What `include=slots,assortments` costs on the mock's discovery and what it saves a client, in one run (engine
 * `handle()`, no network; alternating batches so machine noise hits every case alike):
 *   A  one page of 20 light summaries                     (the baseline)
 *   B  the same page with every event's slots and assortments
 *   C  the light page plus one getEvent per event (21 requests: what a client needed before)
 *   pnpm --filter @entrada/mock-server bench:discovery
 */
import { createEntradaMock } from "../src/index.ts";

const core = createEntradaMock({ rateLimit: false });
const encoder = new TextEncoder();
const token = JSON.parse(
  (
    await core.handle({
      method: "POST",
      url: "http://bench/connect/token",
      headers: {
        authorization: `Basic ${btoa("entrada-demo:demo-secret")}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: encoder.encode("grant_type=client_credentials"),
    })
  ).body,
).access_token as string;
const headers = { authorization: `Bearer ${token}`, "accept-language": "en-GB" };
async function get(path: string): Promise<string> {
  const r = await core.handle({ method: "GET", url: `http://bench${path}`, headers, body: null });
  if (r.status !== 200) throw new Error(`${path}: ${r.status}`);
  return typeof r.body === "string" ? r.body : new TextDecoder().decode(r.body as Uint8Array);
}

const LIGHT = "/shop/v1/discovery/events?limit=20";
const RICH = "/shop/v1/discovery/events?limit=20&include=slots,assortments";
const cases: Record<string, () => Promise<number>> = {
  A: async () => (await get(LIGHT)).length,
  B: async () => (await get(RICH)).length,
  C: async () => {
    const page = await get(LIGHT);
    let bytes = page.length;
    for (const { id } of JSON.parse(page).items as { id: string }[])
      bytes += (await get(`/shop/v1/discovery/events/${id}`)).length;
    return bytes;
  },
};

const rounds = Number(process.env.BENCH_ROUNDS ?? 8);
const batch = Number(process.env.BENCH_BATCH ?? 200);
const time: Record<string, number> = { A: 0, B: 0, C: 0 };
const bytes: Record<string, number> = {};
for (const run of Object.values(cases)) for (let i = 0; i < 50; i++) await run(); // warm-up
for (let round = 0; round < rounds; round++) {
  for (const name of round % 2 === 0 ? ["A", "B", "C"] : ["C", "B", "A"]) {
    const run = cases[name] as () => Promise<number>;
    const start = performance.now();
    for (let i = 0; i < batch; i++) bytes[name] = await run();
    time[name] = (time[name] ?? 0) + performance.now() - start;
  }
}
const per = (name: string) => ((time[name] ?? 0) * 1000) / (rounds * batch);
const a = per("A");
const b = per("B");
const c = per("C");
console.log(`discovery, one page of 20 events (${rounds}×${batch} each, alternating):`);
console.log(`  A light summaries                    ${a.toFixed(0)} µs  ${bytes.A} bytes  (1 request)`);
console.log(
  `  B include=slots,assortments          ${b.toFixed(0)} µs  ${bytes.B} bytes  (1 request)  B/A ${(b / a).toFixed(2)}`,
);
console.log(
  `  C light + getEvent per event         ${c.toFixed(0)} µs  ${bytes.C} bytes  (21 requests) C/B ${(c / b).toFixed(2)}`,
);
