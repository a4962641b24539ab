#!/usr/bin/env node
// The walk of one request: which source files a steady-state `POST /shop/v1/cart/{id}/items` enters, in order, from
// the node:http entry to the answer, and whether it ever comes back into a file it left. The architecture's contract
// (issue 18) is a one-visit walk: entry → engine → dispatcher → stages in order → handler (with its domain modules)
// → response, where
//   - no call returns into a file that is still on the stack below (A → B → A: a callback up into the engine, a
//     stage, the context …), and
//   - every file is entered from one place only (one calling file), so a reader reads it once, where it is used.
// Measured with V8's own instrumentation: precise coverage with call counts gives the functions the request runs;
// a breakpoint on the first statement of each of them gives the order and the logical (async) stack of every call.
//   pnpm --filter @entrada/mock-server walk            (a readable report)
//   pnpm --filter @entrada/mock-server walk -- --json  (the figures as JSON; test/core/walk.test.ts reads them)
// Needs Node's TypeScript transform and the `source` condition (the package script passes them): it runs src/.
import { readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { isMainThread, parentPort, Worker } from "node:worker_threads";

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, "../../..");
const sources = `${pathToFileURL(join(repo, "packages")).href}/`;

/** A workspace source file (any package's src/, not a dependency). */
const isSource = (url) => url.startsWith(sources) && url.includes("/src/") && !url.includes("/node_modules/");
const short = (url) => relative(join(repo, "packages/mock-server/src"), fileURLToPath(url));

/** Starts the mock, warms the path up, and measures one request through the tracer thread. */
async function main() {
  const json = process.argv.includes("--json");
  const { startMockServer } = await import("../src/node/index.ts");
  // As the CLI serves it: the docs and the BI assistant mounted (loaded only on their paths), no webhook worker.
  const mock = await startMockServer({ port: 0, webhooks: false });
  const worker = new Worker(fileURLToPath(import.meta.url));
  const replies = [];
  worker.on("message", (m) => replies.shift()?.(m));
  const ask = (command) =>
    new Promise((resolve) => {
      replies.push(resolve);
      worker.postMessage(command);
    });
  try {
    await ask("start");
    const addItem = await prepare(mock.url);
    for (let i = 0; i < 3; i++) await addItem(); // warm: sessions, lazy compilation, caches
    await ask("reset");
    await addItem();
    await ask("arm"); // breakpoints on the functions that request ran
    await addItem();
    const report = analyse(await ask("collect"));
    if (json) console.log(JSON.stringify(report, null, 2));
    else print(report);
    const oneVisit = report.reentered.length === 0 && report.returns.length === 0 && report.stagesInOrder;
    process.exitCode = oneVisit ? 0 : 1;
  } finally {
    await worker.terminate();
    await mock.close();
  }
}

/** A token, a cart and an article to add: returns the measured request (it must answer 201). */
async function prepare(url) {
  const tokenResponse = await fetch(`${url}/connect/token`, {
    method: "POST",
    headers: {
      authorization: `Basic ${btoa("entrada-demo:demo-secret")}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: "grant_type=client_credentials&scope=Shop",
  });
  const headers = {
    authorization: `Bearer ${(await tokenResponse.json()).access_token}`,
    "accept-language": "de-CH",
    "content-type": "application/json",
  };
  const list = await (await fetch(`${url}/shop/v1/discovery/events?limit=1`, { headers })).json();
  const event = await (
    await fetch(`${url}/shop/v1/discovery/events/${list.items[0].id}`, { headers })
  ).json();
  const item = {
    articleId: event.pricingAssortments[0].articles[0].id,
    slotId: event.slots[0].id,
    quantity: 1,
  };
  // A new cart for each request (created before it), so each takes the same branch: a new line in an open cart.
  const carts = [];
  for (let i = 0; i < 5; i++)
    carts.push(
      (await (await fetch(`${url}/shop/v1/cart`, { method: "POST", headers, body: "{}" })).json()).id,
    );
  return async () => {
    const response = await fetch(`${url}/shop/v1/cart/${carts.shift()}/items`, {
      method: "POST",
      headers,
      body: JSON.stringify(item),
    });
    if (response.status !== 201)
      throw new Error(`addCartItem answered ${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
  };
}

/**
 * The tracer, on its own thread (a breakpoint pauses the main thread): coverage with call counts, then breakpoints
 * on the first statement of every function the request ran, recording the logical stack at each.
 */
async function tracer() {
  const { Session } = await import("node:inspector");
  const session = new Session();
  session.connectToMainThread();
  const post = (method, params = {}) =>
    new Promise((resolve, reject) =>
      session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
    );
  const scripts = new Map(); // scriptId → url
  session.on("Debugger.scriptParsed", ({ params }) => scripts.set(params.scriptId, params.url));
  const calls = []; // { file, name, stack: files from the caller outwards }
  const armed = new Map(); // breakpointId → { file, name }
  let covered = [];
  session.on("Debugger.paused", ({ params }) => {
    const hit = params.hitBreakpoints?.map((id) => armed.get(id)).find(Boolean);
    if (hit) {
      const frames = [...params.callFrames];
      for (let trace = params.asyncStackTrace; trace; trace = trace.parent) frames.push(...trace.callFrames);
      const stack = frames
        .slice(1)
        .map((f) => f.url || scripts.get(f.location?.scriptId ?? f.scriptId) || "")
        .filter(isSource)
        .map(short);
      calls.push({ file: hit.file, name: hit.name, stack });
    }
    session.post("Debugger.resume");
  });
  /** The workspace functions coverage saw called since the last take, with their call counts. */
  const take = async () => {
    const { result } = await post("Profiler.takePreciseCoverage");
    const functions = [];
    for (const script of result) {
      if (!isSource(script.url)) continue;
      for (const fn of script.functions) {
        const [range] = fn.ranges;
        // Every function but the module's own top level (offset 0), which ran when the module was loaded.
        if (range && range.count > 0 && range.startOffset > 0)
          functions.push({ scriptId: script.scriptId, url: script.url, name: fn.functionName, range });
      }
    }
    return functions;
  };
  const commands = {
    async start() {
      await post("Profiler.enable");
      await post("Profiler.startPreciseCoverage", { callCount: true, detailed: false });
      await post("Debugger.enable");
      await post("Debugger.setAsyncCallStackDepth", { maxDepth: 64 });
    },
    async reset() {
      await take();
    },
    async arm() {
      covered = await take();
      for (const fn of covered) {
        const { scriptSource } = await post("Debugger.getScriptSource", { scriptId: fn.scriptId });
        const at = (offset) => {
          const before = scriptSource.slice(0, offset);
          const line = before.split("\n").length - 1;
          return {
            scriptId: fn.scriptId,
            lineNumber: line,
            columnNumber: offset - (before.lastIndexOf("\n") + 1),
          };
        };
        const { locations } = await post("Debugger.getPossibleBreakpoints", {
          start: at(fn.range.startOffset),
          end: at(fn.range.endOffset),
          restrictToFunction: true,
        });
        if (!locations[0]) continue;
        const { breakpointId } = await post("Debugger.setBreakpoint", { location: locations[0] });
        armed.set(breakpointId, { file: short(fn.url), name: fn.name });
      }
    },
    async collect() {
      await post("Debugger.disable");
      const counted = await take();
      return {
        calls,
        functions: counted.map((f) => ({ file: short(f.url), name: f.name, count: f.range.count })),
        unarmed: counted.filter((f) => !covered.some((c) => c.url === f.url && c.name === f.name)).length,
      };
    },
  };
  parentPort.on("message", async (command) => parentPort.postMessage(await commands[command]()));
}

/**
 * The stations of the walk: the entry, the engine, the dispatcher, the stages, the handler's context and the
 * request target, and the handler. Each is entered from one place only (domain modules and small helpers below a
 * station may serve several); no file at all is entered again while it is still on the stack.
 */
const STATION =
  /^(?:node\/index\.ts|core\/engine\.ts|core\/context\.ts|core\/target\.ts|core\/pipeline\/(?!exchange)[^/]+|sections\/shop\/cart\.ts)$/;

/**
 * The stage files in the order `core/pipeline/index.ts` lists their stages: its imports name each stage's file, its
 * `return [ … ]` the order (the list is the one place the order is written).
 */
function listedStages() {
  const text = readFileSync(join(here, "../src/core/pipeline/index.ts"), "utf8");
  const fileOf = new Map();
  for (const [, names, file] of text.matchAll(/import \{([^}]*)\} from "\.\/([\w-]+\.ts)"/g))
    for (const name of names.split(","))
      fileOf.set(name.replace("type ", "").trim(), `core/pipeline/${file}`);
  const files = [];
  for (const [, name] of text.slice(text.indexOf("return [")).matchAll(/\b(\w+)\(/g)) {
    const file = fileOf.get(name);
    if (file && !files.includes(file)) files.push(file);
  }
  return files;
}

/**
 * The walk from the recorded calls: files in the order first entered (with the file that entered them), the calls
 * that come back into a file still on the stack (returns), the files entered from more than one calling file, and
 * the stations among them (re-entered after the walk left them).
 */
function analyse({ calls, functions, unarmed }) {
  const order = [];
  const callers = new Map(); // file → Set of calling files
  const returns = [];
  let crossings = 0;
  for (const call of calls) {
    const caller = call.stack[0];
    if (caller === call.file) continue; // a call within the file
    crossings++;
    if (!callers.has(call.file)) order.push({ file: call.file, from: caller ?? "node:http" });
    const from = callers.get(call.file) ?? new Set();
    from.add(caller ?? "node:http");
    callers.set(call.file, from);
    if (call.stack.includes(call.file)) {
      const path = [call.file, ...call.stack.slice(0, call.stack.indexOf(call.file) + 1)].reverse();
      returns.push({ file: call.file, function: call.name, path: dedupe(path) });
    }
  }
  const shared = [...callers]
    .filter(([, from]) => from.size > 1)
    .map(([file, from]) => ({ file, from: [...from], station: STATION.test(file) }));
  const listed = listedStages();
  const stages = order.map((o) => o.file).filter((f) => listed.includes(f));
  return {
    request: "POST /shop/v1/cart/{cartId}/items (steady state, node:http entry)",
    files: order.length,
    functionCalls: functions.reduce((n, f) => n + f.count, 0),
    fileCrossings: crossings,
    order,
    returns,
    reentered: shared.filter((s) => s.station),
    sharedHelpers: shared.filter((s) => !s.station),
    stagesInOrder: stages.every((f, i) => i === 0 || listed.indexOf(stages[i - 1]) < listed.indexOf(f)),
    unarmed,
  };
}

/** Drops repeats of the same file next to each other in a path. */
function dedupe(path) {
  return path.filter((file, i) => file !== path[i - 1]);
}

function print(report) {
  console.log(`${report.request}\n`);
  report.order.forEach(({ file, from }, i) => {
    const mark = STATION.test(file) ? "*" : " ";
    console.log(`${String(i + 1).padStart(3)}. ${mark} ${file.padEnd(38)} ← ${from}`);
  });
  console.log("(* a station of the walk)\n");
  console.log(`files entered: ${report.files}`);
  console.log(`function calls: ${report.functionCalls}; calls into another file: ${report.fileCrossings}`);
  console.log(`calls that leave a file and come back into it: ${report.returns.length}`);
  for (const r of report.returns) console.log(`  ${r.function} in ${r.file}: ${r.path.join(" → ")}`);
  console.log(`stations entered from more than one place: ${report.reentered.length}`);
  for (const r of report.reentered) console.log(`  ${r.file} ← ${r.from.join(", ")}`);
  console.log(`stages in order: ${report.stagesInOrder ? "yes" : "NO"}`);
  console.log(`helpers shared by several files (leaves, allowed): ${report.sharedHelpers.length}`);
  for (const r of report.sharedHelpers) console.log(`  ${r.file} ← ${r.from.join(", ")}`);
  if (report.unarmed > 0)
    console.log(`(${report.unarmed} functions ran only in the traced request: not in the order)`);
}

if (isMainThread) await main();
else await tracer();
