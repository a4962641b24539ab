import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { sqliteInboxStore } from "../../src/stores/sqlite.ts";
import type { InboxStore } from "../../src/webhooks/index.ts";
import { inboxBehaviour } from "./inbox-behaviour.ts";
import { inboxStoreConformance } from "./inbox-conformance.ts";

const dir = mkdtempSync(join(tmpdir(), "entrada-inbox-"));
const opened: Array<{ close(): Promise<void> }> = [];
let n = 0;
afterAll(async () => {
  for (const store of opened) await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A fresh file per test. */
const open = async (): Promise<InboxStore> => {
  const store = sqliteInboxStore(join(dir, `inbox-${n++}.sqlite`));
  opened.push(store);
  return store;
};

inboxStoreConformance("SQLite", open);
inboxBehaviour("SQLite", open);
