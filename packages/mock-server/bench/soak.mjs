#!/usr/bin/env node
// Soak: the built CLI under sustained full-speed cart creation (each cart also emits `cart.created` to a webhook
// receiver that accepts connections and never answers), RSS sampled every few seconds, then SIGTERM under load and
// the time to exit. Phase "one session" loads the default session; phase "many sessions" spreads the same load over
// 400 mock sessions (X-Mock-Session; the default cap keeps 500), which is what the engine-wide cap (maxRetainedRecords) bounds.
// Loopback only; not part of the test suite.
//   node bench/soak.mjs                 (SOAK_SECONDS=60 per phase, SOAK_CONNECTIONS=20, SOAK_SAMPLE_SECONDS=5)
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { ensureFreshDist } from "./fresh-dist.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..");
const seconds = Number(process.env.SOAK_SECONDS ?? 60);
const connections = Number(process.env.SOAK_CONNECTIONS ?? 20);
const sampleSeconds = Number(process.env.SOAK_SAMPLE_SECONDS ?? 5);
const port = Number(process.env.SOAK_PORT ?? 4290);

ensureFreshDist(root);

function rssMb(pid) {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
  } catch {
    return Number.NaN;
  }
}

// The receiver that never answers: it reads the request and holds the connection.
let held = 0;
const receiver = createServer(() => {
  held++;
});
await new Promise((resolve) => receiver.listen(0, "127.0.0.1", resolve));
const hookUrl = `http://127.0.0.1:${receiver.address().port}/hooks`;

async function phase(name, sessions) {
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(
    process.execPath,
    [join(root, "dist/cli.js"), "--port", String(port), "--rate-limit", "off", "--no-docs"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout.on("data", (c) => {
    output += c;
  });
  child.stderr.on("data", (c) => {
    output += c;
  });
  const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  while (!/Ctrl-C stops the server/.test(output)) await new Promise((r) => setTimeout(r, 50));

  const tokenFor = async (session) => {
    const res = await fetch(`${url}/connect/token`, {
      method: "POST",
      headers: {
        authorization: `Basic ${btoa("entrada-demo:demo-secret")}`,
        "content-type": "application/x-www-form-urlencoded",
        ...(session ? { "x-mock-session": session } : {}),
      },
      body: "grant_type=client_credentials",
    });
    return `Bearer ${(await res.json()).access_token}`;
  };
  // One token and one webhook subscription per session used (the default session in phase one).
  const names = sessions === 0 ? [undefined] : Array.from({ length: sessions }, (_, i) => `soak-${i}`);
  const tokens = [];
  for (const session of names) {
    const authorization = await tokenFor(session);
    tokens.push({ session, authorization });
    await fetch(`${url}/webhooks/v1/subscriptions`, {
      method: "POST",
      headers: {
        authorization,
        "content-type": "application/json",
        ...(session ? { "x-mock-session": session } : {}),
      },
      body: JSON.stringify({ url: hookUrl, eventTypes: ["cart.created"] }),
    });
  }

  const samples = [{ t: 0, rssMb: +rssMb(child.pid).toFixed(0) }];
  const started = Date.now();
  const timer = setInterval(() => {
    samples.push({ t: Math.round((Date.now() - started) / 1000), rssMb: +rssMb(child.pid).toFixed(0) });
  }, sampleSeconds * 1000);
  let next = 0;
  const result = await new Promise((resolve, reject) =>
    autocannon(
      {
        url,
        connections,
        duration: seconds,
        requests: [
          {
            method: "POST",
            path: "/shop/v1/cart",
            setupRequest: (request) => {
              const { session, authorization } = tokens[next++ % tokens.length];
              return {
                ...request,
                headers: { authorization, ...(session ? { "x-mock-session": session } : {}) },
              };
            },
          },
        ],
      },
      (error, r) => (error ? reject(error) : resolve(r)),
    ),
  );
  clearInterval(timer);
  samples.push({ t: Math.round((Date.now() - started) / 1000), rssMb: +rssMb(child.pid).toFixed(0) });

  // SIGTERM while a second load is running and the receiver still holds its connections.
  const tail = autocannon({ url, connections, duration: 5, method: "POST", path: "/shop/v1/cart" });
  await new Promise((r) => setTimeout(r, 1000));
  const termAt = performance.now();
  child.kill("SIGTERM");
  const exit = await exited;
  const exitMs = performance.now() - termAt;
  tail.stop();
  const non2xx = result.non2xx;
  const errors5xx = result["5xx"] ?? 0;
  return {
    phase: name,
    seconds,
    connections,
    requests: result.requests.total,
    reqPerSec: Math.round(result.requests.average),
    non2xx,
    errors5xx,
    rssStartMb: samples[0].rssMb,
    rssMaxMb: Math.max(...samples.map((s) => s.rssMb)),
    rssEndMb: samples.at(-1).rssMb,
    samples,
    sigtermExitMs: Math.round(exitMs),
    exitCode: exit.code,
  };
}

const phases = [await phase("one session", 0), await phase("many sessions", 400)];
receiver.closeAllConnections();
receiver.close();
for (const p of phases) {
  console.log(
    `\n${p.phase}: ${p.requests} cart creations in ${p.seconds} s (${p.reqPerSec}/s, ${p.connections} connections), ` +
      `${p.errors5xx} 5xx; RSS ${p.rssStartMb} → max ${p.rssMaxMb} → ${p.rssEndMb} MB; SIGTERM under load: exit ${p.exitCode} after ${p.sigtermExitMs} ms`,
  );
  console.log(`  RSS over time (s: MB): ${p.samples.map((s) => `${s.t}: ${s.rssMb}`).join(", ")}`);
}
console.log(`\nhanging receiver: ${held} connections accepted and never answered`);
console.log(JSON.stringify(phases.map(({ samples, ...rest }) => rest)));
