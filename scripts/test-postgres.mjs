// A real PostgreSQL for tests and benchmarks. With ENTRADA_TEST_DATABASE_URL (a server you run, e.g.
// postgres://postgres:secret@127.0.0.1:5432/postgres) each caller gets a fresh database on it, dropped afterwards.
// Without it, a private server is started from Debian's binaries (PG_BIN, else the newest /usr/lib/postgresql/*/bin)
// on a temporary data directory and a free port; as root it runs as the `postgres` user, since PostgreSQL refuses
// to run as root. `node scripts/test-postgres.mjs --check` exits 0 when one can be started.
import { execFileSync, spawn } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export function postgresBin() {
  if (process.env.PG_BIN)
    return existsSync(join(process.env.PG_BIN, "initdb")) ? process.env.PG_BIN : undefined;
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], "bin") : undefined;
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

function run(command, args, asUser) {
  return new Promise((resolve, reject) => {
    const [cmd, argv] = asUser ? ["runuser", ["-u", asUser, "--", command, ...args]] : [command, args];
    const child = spawn(cmd, argv, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${command} exited with ${code}: ${output}`)),
    );
  });
}

async function onExisting(url) {
  const { default: pg } = await import("pg");
  const name = `entrada_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const own = new URL(url);
  own.pathname = `/${name}`;
  return {
    url: own.toString(),
    async stop() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).finally(() => client.end());
    },
  };
}

/**
 * Starts (or borrows) a PostgreSQL server. `durable: false` (the default) turns fsync off, for tests; benchmarks
 * pass `durable: true` so commits cost what they cost in production.
 * @returns {Promise<{ url: string, stop(): Promise<void>, restart?(): Promise<void> }>}
 */
export async function startTestPostgres({ durable = false } = {}) {
  if (process.env.ENTRADA_TEST_DATABASE_URL) return onExisting(process.env.ENTRADA_TEST_DATABASE_URL);
  const bin = postgresBin();
  if (!bin)
    throw new Error("PostgreSQL not found: run scripts/ensure-postgres.sh or set ENTRADA_TEST_DATABASE_URL");
  const dir = mkdtempSync(join(tmpdir(), "entrada-pg-"));
  const user = process.getuid?.() === 0 ? "postgres" : undefined;
  if (user) {
    const uid = Number(execFileSync("id", ["-u", user]).toString().trim());
    const gid = Number(execFileSync("id", ["-g", user]).toString().trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, "data");
  await run(
    join(bin, "initdb"),
    ["-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync"],
    user,
  );
  const port = await freePort();
  const settings = [`-p ${port}`, `-k ${dir}`, "-c listen_addresses=127.0.0.1", "-c max_connections=200"];
  if (!durable) settings.push("-c fsync=off", "-c full_page_writes=off");
  const pgCtl = (...args) => run(join(bin, "pg_ctl"), ["-D", data, ...args], user);
  const start = () => pgCtl("-l", join(dir, "log"), "-w", "-t", "60", "-o", settings.join(" "), "start");
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    /** Stops at once (connections are cut) and starts again on the same port and data. */
    async restart() {
      await pgCtl("-m", "immediate", "-w", "stop");
      await start();
    },
    async stop() {
      await pgCtl("-m", "immediate", "-w", "stop").catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

if (process.argv[2] === "--check") process.exit(postgresBin() ? 0 : 1);
