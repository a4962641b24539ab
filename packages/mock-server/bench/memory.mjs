// Retained memory of abandoned carts, in-process with forced GC (RSS of a loaded server mostly reflects V8's
// heap sizing under load, not what it keeps). Creates N carts with one item each, as the POST bench case does,
// then lets 49 h of mock time pass and keeps writing: with retention the abandoned carts are dropped.
//   node --expose-gc bench/memory.mjs [dist dir] [carts]
import { join } from "node:path";

const dist = process.argv[2] ?? join(import.meta.dirname, "../dist");
const carts = Number(process.argv[3] ?? 40_000);
const { createEntradaMock } = await import(join(dist, "index.js"));
const gc = globalThis.gc;
if (!gc) throw new Error("run with node --expose-gc");
const measure = () => {
  for (let i = 0; i < 3; i++) gc();
  return { heap: process.memoryUsage().heapUsed / 2 ** 20, rss: process.memoryUsage().rss / 2 ** 20 };
};

const core = createEntradaMock({
  rateLimit: false,
  tokenTtlSeconds: 30 * 86_400,
  seed: { shop: { slotCapacity: 100_000_000 } },
});
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
      body: encoder.encode("grant_type=client_credentials&scope=Shop"),
    })
  ).body,
).access_token;
const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
const get = (path) => core.handle({ method: "GET", url: `http://bench${path}`, headers, body: null });
const list = JSON.parse((await get("/shop/v1/discovery/events")).body);
const event = JSON.parse((await get(`/shop/v1/discovery/events/${list.items[0].id}`)).body);
const item = encoder.encode(
  JSON.stringify({
    articleId: event.pricingAssortments[0].articles[0].id,
    slotId: event.slots[0].id,
    quantity: 1,
  }),
);
const buy = async () => {
  const cart = JSON.parse(
    (await core.handle({ method: "POST", url: "http://bench/shop/v1/cart", headers, body: null })).body,
  );
  await core.handle({
    method: "POST",
    url: `http://bench/shop/v1/cart/${cart.id}/items`,
    headers,
    body: item,
  });
};

const idle = measure();
for (let i = 0; i < carts; i++) await buy();
const full = measure();
// 49 h later (past the 24 h cart TTL + 24 h retention), the same load goes on for a while.
await core.handle({
  method: "POST",
  url: "http://bench/__mock/clock",
  headers: { "content-type": "application/json" },
  body: encoder.encode(JSON.stringify({ advanceSeconds: 49 * 3600 })),
});
for (let i = 0; i < 2000; i++) await buy();
const later = measure();
const kept = Object.keys(core.session().world.shop.carts).length;
console.log(
  JSON.stringify({
    carts,
    idleHeapMb: +idle.heap.toFixed(1),
    heapAfterCartsMb: +full.heap.toFixed(1),
    heap49hLaterMb: +later.heap.toFixed(1),
    rssAfterCartsMb: +full.rss.toFixed(0),
    rss49hLaterMb: +later.rss.toFixed(0),
    cartsKept: kept,
  }),
);
