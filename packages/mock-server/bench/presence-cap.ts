/**
 * Cost of admitting a new ticket once the entrance's presence table is at its cap (100 000 tickets): the FIFO
 * eviction of `setPresence` against the earlier rule (`for…in` to the first key, then delete), in one run.
 *   pnpm --filter @entrada/mock-server bench:presence
 */
import { initialEntranceState, setPresence } from "../src/sections/entrance/state.ts";

const CAP = 100_000;
const state = initialEntranceState({ maxScans: CAP });
for (let i = 0; i < CAP; i++) setPresence(state, `tkt_${i}`, { inside: true, lastAdmittedAt: null });

let start = performance.now();
const N = 5_000;
for (let i = CAP; i < CAP + N; i++) setPresence(state, `tkt_${i}`, { inside: true, lastAdmittedAt: null });
const fifo = (performance.now() - start) / N;

const old: Record<string, unknown> = { ...state.presence };
const M = 200;
start = performance.now();
for (let i = 0; i < M; i++) {
  for (const key in old) {
    delete old[key];
    break;
  }
  old[`new_${i}`] = 1;
}
const forIn = (performance.now() - start) / M;

console.log(`new ticket at a presence cap of ${CAP.toLocaleString("en")}:`);
console.log(`  FIFO (setPresence)        ${(fifo * 1000).toFixed(2)} µs`);
console.log(
  `  for…in to the first key   ${(forIn * 1000).toFixed(0)} µs  (${(forIn / fifo).toFixed(0)}× the FIFO)`,
);
