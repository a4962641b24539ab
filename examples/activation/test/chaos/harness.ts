/**
 * The chaos test's cast: seeded randomness, flaky GA4/Meta collectors, a round-robin balancer and activation
 * replicas as real processes that can be SIGKILLed and restarted.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";

/** A small seeded PRNG (mulberry32): the same seed, the same faults and kills. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const listen = async (server: Server) => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

export interface Collector {
  url: string;
  /** How many times each id was accepted (answered 2xx). */
  accepted: Map<string, number>;
  faults: { failed: number; hung: number };
  close(): void;
}

/**
 * A stand-in for GA4's or Meta's collection endpoint that fails `failRate` of requests with 503 and leaves
 * `hangRate` unanswered (until the client gives up). `idOf` reads the deduplication id from a body.
 */
export async function collector(
  random: () => number,
  idOf: (body: Record<string, unknown>) => string | undefined,
  failRate = 0.15,
  hangRate = 0.02,
): Promise<Collector> {
  const accepted = new Map<string, number>();
  const faults = { failed: 0, hung: 0 };
  const server = createServer(async (req, res) => {
    let text = "";
    for await (const chunk of req) text += chunk;
    const roll = random();
    if (roll < hangRate) {
      faults.hung++;
      return; // never answered: the client's timeout ends it
    }
    if (roll < hangRate + failRate) {
      faults.failed++;
      return res.writeHead(503).end();
    }
    const id = idOf(JSON.parse(text) as Record<string, unknown>);
    if (id) accepted.set(id, (accepted.get(id) ?? 0) + 1);
    res.writeHead(204).end();
  });
  const url = await listen(server);
  return {
    url,
    accepted,
    faults,
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}

export interface Balancer {
  url: string;
  /** The replicas' addresses by slot; `undefined` while a replica is down. */
  targets: (string | undefined)[];
  close(): void;
}

/**
 * A round-robin HTTP balancer. A replica that refuses the connection is skipped (nothing was sent); one that dies
 * mid-request makes a 502, which the sender retries, as with a real load balancer.
 */
export async function balancer(size: number): Promise<Balancer> {
  const targets: (string | undefined)[] = Array.from({ length: size }, () => undefined);
  let next = 0;
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    for (let tried = 0; tried < size; tried++) {
      const target = targets[next++ % size];
      if (!target) continue;
      const outcome = await new Promise<"sent" | "refused">((resolve) => {
        const upstream = request(
          `${target}${req.url}`,
          { method: req.method, headers: { ...req.headers, connection: "close" } },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
            answer.once("error", () => res.destroy());
            resolve("sent");
          },
        );
        upstream.once("error", (error: NodeJS.ErrnoException) => {
          if (error.code === "ECONNREFUSED") return resolve("refused");
          if (!res.headersSent) res.writeHead(502).end();
          else res.destroy();
          resolve("sent");
        });
        upstream.end(body);
      });
      if (outcome === "sent") return;
    }
    res.writeHead(502).end();
  });
  const url = await listen(server);
  return {
    url,
    targets,
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}

const MAIN = fileURLToPath(new URL("../../src/main.ts", import.meta.url));

export interface Replica {
  /** Starts (again) and resolves with its address once it listens. */
  start(): Promise<string>;
  /** SIGKILL: no shutdown, no drain; resolves once the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM: the graceful stop (drain); resolves once the process exited. */
  stop(): Promise<void>;
  output(): string;
}

export function replica(env: Record<string, string>): Replica {
  let child: ChildProcess | undefined;
  let output = "";
  const exited = () =>
    new Promise<void>((resolve) => {
      if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
    });
  return {
    start() {
      const proc = spawn(process.execPath, ["--conditions=source", MAIN], {
        env: { ...process.env, PORT: "0", HOST: "127.0.0.1", ...env },
        stdio: ["ignore", "pipe", "pipe"],
      });
      child = proc;
      return new Promise((resolve, reject) => {
        let seen = "";
        proc.stdout?.on("data", (d: Buffer) => {
          seen += d;
          output = (output + d).slice(-20_000);
          const match = /Listening on (http:\/\/[^/\s]+)/.exec(seen);
          if (match?.[1]) {
            proc.off("exit", early);
            resolve(match[1]);
          }
        });
        proc.stderr?.on("data", (d: Buffer) => {
          output = (output + d).slice(-20_000);
        });
        const early = (code: number | null, signal: string | null) =>
          reject(new Error(`replica exited before it listened (${code ?? signal}): ${output}`));
        proc.once("exit", early);
      });
    },
    async kill() {
      child?.kill("SIGKILL");
      await exited();
    },
    async stop() {
      child?.kill("SIGTERM");
      await exited();
    },
    output: () => output,
  };
}
