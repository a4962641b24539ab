// Run by bounded-heap.test.ts: reports where and under which limits `main` runs, then ends as its argument says.
import { isMainThread, resourceLimits } from "node:worker_threads";
import { runWithBoundedHeap } from "../../src/cli/bounded-heap.ts";

runWithBoundedHeap(
  import.meta.url,
  async () => {
    const [mode = "0"] = process.argv.slice(2);
    process.stdout.write(
      `${JSON.stringify({ isMainThread, resourceLimits, argv: process.argv.slice(2), stderrIsTTY: process.stderr.isTTY === true })}\n`,
    );
    if (mode === "fail") throw new Error("boom");
    if (mode === "wait") {
      // (An export has its requests keeping it alive; here a timer does, until Ctrl-C arrives.)
      const alive = setInterval(() => {}, 60_000);
      await new Promise((resolve) => process.once("SIGINT", resolve));
      clearInterval(alive);
      return 130;
    }
    return Number(mode);
  },
  (error) => {
    console.error(`reported: ${(error as Error).message}`);
    return 9;
  },
);
