/** The door: a scanner with a `TERP` client reads a Quicode at an entry gate of the event. */

import type { components, EntradaClient } from "@entrada/sdk";

export type ScanResult = components["schemas"]["ScanResult"];

/** An open gate of the event that admits visitors (`entry` or `both`). */
export async function findEntryGate(
  terp: EntradaClient,
  eventId: string,
): Promise<components["schemas"]["Gate"]> {
  const { data } = await terp.entrance.listGates.orThrow({ params: { query: { eventId } } });
  const gate = data.items.find((g) => g.status === "open" && g.direction !== "exit");
  if (!gate) throw new Error(`No open entry gate for event ${eventId}`);
  return gate;
}

/**
 * One scan. A denial is a logged result (`201` with `result: "denied"` and a `reason`), not an error. Every scan is
 * its own write with its own idempotency key; a scanner that retries one scan after a network failure should
 * reuse that scan's key, so it gets the original decision back instead of a false `already_used`.
 */
export async function scan(
  terp: EntradaClient,
  gateId: string,
  quicode: string,
  deviceId: string,
): Promise<ScanResult> {
  const { data } = await terp.entrance.scanQuicode.orThrow({
    params: { path: { gateId } },
    body: { quicode, deviceId },
  });
  return data;
}

/**
 * Developer control of the mock only: sets its clock (`{set}`) or returns it to real time (`{reset: true}`).
 * The real service has no such thing; there you scan on the day of the event.
 */
export async function setMockClock(
  baseUrl: string,
  body: { set: string } | { reset: true },
  fetchImpl: (request: Request) => Promise<Response> = fetch,
): Promise<void> {
  const response = await fetchImpl(
    new Request(`${baseUrl}/__mock/clock`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
  );
  if (!response.ok) {
    throw new Error(
      `Moving the mock clock failed (${response.status}); is ${baseUrl} the Entrada mock server?`,
    );
  }
  await response.body?.cancel();
}
