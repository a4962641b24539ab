/**
 * The local analytics store: one JSON line per conversion and entrance, appended to a file (load it into DuckDB with
 * `SELECT * FROM read_json_auto('activation.ndjson')`). Bounded on disk: past `maxBytes` the file is rotated to
 * `<file>.1` (one generation kept).
 */
import { appendFile, rename, stat } from "node:fs/promises";

export interface StoredRecord {
  /** When the receiver stored it. */
  storedAt: string;
  /** The delivery's `webhook-id`. */
  webhookId: string;
  kind: string;
  /** When it happened (the event's own time). */
  occurredAt: string;
  /** `conversion` (a purchase), `entrance` (an admission) or `skipped` (not convertible, with the reason). */
  record: "conversion" | "entrance" | "skipped";
  /** Order or ticket id (the dedup id on the analytics side). */
  id?: string;
  /** What was charged (after a voucher code's discount). */
  value?: number;
  currency?: string;
  /** The voucher code the order redeemed, if any. */
  coupon?: string;
  reason?: string;
  /** Per destination: delivered, rejected or gave_up, with the attempts made. */
  forwarded: Record<string, { outcome: string; attempts: number; skipped?: string }>;
}

export interface AnalyticsStore {
  append(record: StoredRecord): Promise<void>;
}

export function fileStore(path: string, maxBytes = 64 * 1024 * 1024): AnalyticsStore {
  let chain: Promise<void> = Promise.resolve();
  return {
    append(record) {
      // Serialised, so lines never interleave and rotation never races an append.
      chain = chain.then(async () => {
        const size = await stat(path).then(
          (s) => s.size,
          () => 0,
        );
        if (size > maxBytes) await rename(path, `${path}.1`);
        await appendFile(path, `${JSON.stringify(record)}\n`);
      });
      return chain;
    },
  };
}
