import { createWriteStream, existsSync } from "node:fs";
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { Writable } from "node:stream";
import type { BiFeed } from "../bi/feed.ts";
import {
  type BiIncrementalState,
  BiStateError,
  exportIncremental,
  readIncrementalState,
} from "../bi/incremental.ts";
import type { BiEntitySet } from "../bi/metadata.ts";
import type { ODataQuery } from "../bi/query.ts";
import type { BiExportOptions, BiExportProgress } from "../bi/types.ts";

/**
 * `entrada-bi-export --state FILE`: one incremental run into one output file, crash-safe in two phases.
 *
 * 1. The rows after the watermark are written to `<out>.partial`; the state records that file as `writing` first
 *    (and nothing else: a stop here repeats the run, nothing is lost or doubled). The next run removes that file,
 *    whatever name its own output has, so a killed run leaves nothing behind for long.
 * 2. The state records the finished file as `pending`, the file is renamed into place, then the state commits the
 *    new watermark. A stop between those steps is rolled forward by the next run before it starts.
 */

/** Writes the state next to itself and renames it over the old one, so a reader never sees half a file. */
export async function saveState(path: string, state: BiIncrementalState): Promise<void> {
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(state, null, 2)}\n`);
  await rename(temp, path);
}

export async function loadState(
  path: string,
  identity: { feed: BiFeed; dataset: BiEntitySet; filter: string | null },
): Promise<BiIncrementalState> {
  let text: string | undefined;
  try {
    text = await readFile(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
  return readIncrementalState(text, identity);
}

/** Finishes a run that stopped after its output was complete; returns the state to start from. */
export async function rollForward(path: string, state: BiIncrementalState): Promise<BiIncrementalState> {
  const pending = state.pending;
  if (!pending) return state;
  if (existsSync(pending.partial)) await rename(pending.partial, pending.out);
  const next: BiIncrementalState = existsSync(pending.out)
    ? {
        ...state,
        watermark: pending.watermark,
        rows: state.rows + pending.rows,
        runs: state.runs + 1,
        updatedAt: new Date().toISOString(),
        pending: null,
      }
    : // The finished file is gone (deleted by hand): its rows were never committed, so they are exported again.
      { ...state, pending: null };
  await saveState(path, next);
  return next;
}

/** `pid` runs on this machine (a signal 0 probe: EPERM means it runs under another user). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes the output a stopped run left half-written (`state.writing`); refuses while that run is still going on
 * this machine. Returns the state without it and the path removed, if the file was still there.
 */
export async function clearInterrupted(
  path: string,
  state: BiIncrementalState,
): Promise<{ state: BiIncrementalState; removed: string | null }> {
  const writing = state.writing;
  if (!writing) return { state, removed: null };
  if (writing.host === hostname() && writing.pid !== process.pid && isRunning(writing.pid)) {
    throw new BiStateError(
      "busy",
      `Another run (pid ${writing.pid}) has been writing ${writing.partial} with this state file since ${writing.startedAt}: wait for it to finish, or stop it first`,
    );
  }
  const removed = existsSync(writing.partial) ? writing.partial : null;
  await rm(writing.partial, { force: true });
  const next = { ...state, writing: null };
  await saveState(path, next);
  return { state: next, removed };
}

export interface IncrementalFileRun {
  feed: BiFeed;
  query: ODataQuery<BiEntitySet, never>;
  out: string;
  statePath: string;
  options: BiExportOptions;
  /** Compress the file (an `--out` ending in `.gz`). */
  gzip: boolean;
  /** Test hook: called between the phases (`written`, `renamed`), where a crash would hurt most. */
  step?: (phase: "written" | "renamed") => void | Promise<void>;
}

export async function runIncrementalToFile(run: IncrementalFileRun): Promise<{
  progress: BiExportProgress;
  state: BiIncrementalState;
  rolledForward: boolean;
  /** The half-written output of an earlier, stopped run that was removed first. */
  removedPartial: string | null;
}> {
  const filter = run.query.params().$filter ?? null;
  const loaded = await loadState(run.statePath, { feed: run.feed, dataset: run.query.entitySet, filter });
  const cleared = await clearInterrupted(run.statePath, await rollForward(run.statePath, loaded));
  const hadState = existsSync(run.statePath);
  const partial = `${run.out}.partial`;
  const state: BiIncrementalState = {
    ...cleared.state,
    writing: { partial, pid: process.pid, host: hostname(), startedAt: new Date().toISOString() },
  };
  await saveState(run.statePath, state);
  const file = Writable.toWeb(createWriteStream(partial)) as WritableStream<Uint8Array>;
  let destination: WritableStream<Uint8Array> = file;
  let piped: Promise<void> | undefined;
  if (run.gzip) {
    const gzip = new CompressionStream("gzip");
    piped = gzip.readable.pipeTo(file);
    destination = gzip.writable as WritableStream<Uint8Array>;
  }
  let result: Awaited<ReturnType<typeof exportIncremental>>;
  try {
    result = await exportIncremental(run.feed, run.query, destination, { ...run.options, state });
    await piped;
  } catch (e) {
    await piped?.catch(() => undefined);
    await rm(partial, { force: true });
    // Back to what was there before: the old state, or none.
    if (hadState) await saveState(run.statePath, cleared.state);
    else await rm(run.statePath, { force: true });
    throw e;
  }
  await run.step?.("written");
  await saveState(run.statePath, {
    ...state,
    writing: null,
    pending: { partial, out: run.out, watermark: result.state.watermark, rows: result.progress.rows },
  });
  await rename(partial, run.out);
  await run.step?.("renamed");
  await saveState(run.statePath, result.state);
  return { ...result, rolledForward: loaded.pending != null, removedPartial: cleared.removed };
}
