import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";

/**
 * The young generation (MB) of the thread that runs an export: kept small, so a long export's memory stays bounded
 * however many rows pass through it (why and the figures: docs/bi.md, "Memory").
 */
export const YOUNG_GENERATION_MB = 6;

/** Marks the worker started here (any other worker runs `main` as it is). */
const MARK = "entrada-bounded-heap";

interface BoundedWorkerData {
  [MARK]: true;
  stderrIsTTY: boolean;
}

const isBoundedWorker = (): boolean =>
  !isMainThread && (workerData as Partial<BoundedWorkerData> | null)?.[MARK] === true;

/**
 * Runs a command line's `main` in a worker thread of this same process whose young generation is capped at
 * `YOUNG_GENERATION_MB`: the memory bound holds whatever flags Node was started with, without the user passing any
 * (`resourceLimits`, not `--max-semi-space-size`). The worker gets the arguments, standard streams (a TTY stays one
 * for the progress bar) and Ctrl-C (forwarded as its `SIGINT`; a second one stops it at once); its exit code is the
 * process's. Without a module URL (the CommonJS build) `main` runs on the main thread.
 */
export function runWithBoundedHeap(
  moduleUrl: string | undefined,
  main: () => Promise<number>,
  report: (error: unknown) => number,
): void {
  if (isMainThread && moduleUrl) {
    startWorker(moduleUrl);
    return;
  }
  if (isBoundedWorker()) {
    // Signals reach the main thread only: it forwards Ctrl-C, which the command handles as `SIGINT` as usual.
    parentPort?.on("message", (message) => {
      if (message === "SIGINT") process.emit("SIGINT" as never);
    });
    parentPort?.unref();
    if ((workerData as BoundedWorkerData).stderrIsTTY) (process.stderr as { isTTY?: boolean }).isTTY = true;
  }
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.exitCode = report(error);
    },
  );
}

function startWorker(moduleUrl: string): void {
  const data: BoundedWorkerData = { [MARK]: true, stderrIsTTY: process.stderr.isTTY === true };
  const worker = new Worker(new URL(moduleUrl), {
    argv: process.argv.slice(2),
    workerData: data,
    resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
  });
  let interrupted = false;
  const onSignal = () => {
    if (interrupted) {
      void worker.terminate();
      process.exitCode = 130;
      return;
    }
    interrupted = true;
    worker.postMessage("SIGINT");
  };
  process.on("SIGINT", onSignal);
  worker.on("error", (error) => {
    console.error(`${error.message}`);
    process.exitCode = 1;
  });
  worker.on("exit", (code) => {
    process.off("SIGINT", onSignal);
    process.exitCode ||= code;
  });
}
