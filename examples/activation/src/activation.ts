/**
 * From a verified webhook event to conversions: GA4 (purchase, entrance) and Meta (Purchase) bodies from
 * `@entrada/sdk/conversions`, checked against the destinations' published rules, forwarded with retries, and one
 * record per conversion or entrance in the local store. Anything not convertible is skipped with a logged reason
 * and never forwarded half-built.
 */
import {
  type ConversionResult,
  GA4_LIMITS,
  type Ga4MeasurementPayload,
  type Ga4Options,
  ga4FromWebhook,
  type MetaConversionsPayload,
  type MetaOptions,
  metaFromWebhook,
  validateGa4Payload,
  validateMetaPayload,
} from "@entrada/sdk/conversions";
import { DEFAULT_RETRY, type Destination, type ForwardDeps, forward, type RetryPolicy } from "./forward.ts";
import type { AnalyticsStore, StoredRecord } from "./store.ts";

export interface ActivationOptions {
  /** GA4 Measurement Protocol endpoint, if configured. */
  ga4?: Destination;
  /** Meta Conversions API endpoint, if configured. */
  meta?: Destination;
  store: AnalyticsStore;
  retry?: RetryPolicy;
  deps?: ForwardDeps;
  ga4Options?: Ga4Options;
  metaOptions?: MetaOptions;
  log?: (line: string) => void;
  now?: () => number;
}

const CONVERTED = new Set(["cart.completed", "entrance.admitted"]);

/**
 * GA4 takes events dated up to 72 hours back: an older (or clock-skewed) one is sent without `timestamp_micros`, so
 * GA4 dates it on receipt instead of dropping it.
 */
function withinWindow(
  payload: Ga4MeasurementPayload,
  now: number,
  log: (l: string) => void,
): Ga4MeasurementPayload {
  const at = payload.timestamp_micros / 1000;
  if (at >= now - GA4_LIMITS.maxAgeMs + 60_000 && at <= now + 60_000) return payload;
  log(`ga4: event time ${new Date(at).toISOString()} is outside GA4's 72-hour window: sent undated`);
  const { timestamp_micros: _, ...rest } = payload;
  return rest as Ga4MeasurementPayload;
}

async function send<P>(
  destination: Destination | undefined,
  result: ConversionResult<P> | undefined,
  check: (payload: P) => string[],
  options: ActivationOptions,
  forwarded: StoredRecord["forwarded"],
): Promise<void> {
  if (!destination || !result) return;
  const log = options.log ?? console.log;
  if (!result.ok) {
    forwarded[destination.name] = { outcome: "skipped", attempts: 0, skipped: result.reason };
    return;
  }
  for (const warning of result.warnings) log(`${destination.name}: ${warning}`);
  const problems = check(result.payload);
  if (problems.length) {
    log(`${destination.name}: not forwarded, the payload breaks the published rules: ${problems.join("; ")}`);
    forwarded[destination.name] = { outcome: "skipped", attempts: 0, skipped: problems.join("; ") };
    return;
  }
  const sent = await forward(destination, result.payload, options.retry ?? DEFAULT_RETRY, options.deps);
  const last = sent.attempts.at(-1);
  log(
    `${destination.name}: ${sent.outcome} after ${sent.attempts.length} attempt(s)${
      last ? ` (${last.status ?? last.error})` : ""
    }`,
  );
  forwarded[destination.name] = { outcome: sent.outcome, attempts: sent.attempts.length };
}

/**
 * Handles one verified event; resolves with what was stored (undefined for kinds that are not conversions). Rejects
 * when a destination still fails after its retries, so the inbox retries the event (a destination that took it
 * already gets it again: GA4's `transaction_id` and Meta's `event_id` make that a duplicate they drop).
 */
export async function activate(
  event: unknown,
  webhookId: string,
  options: ActivationOptions,
): Promise<StoredRecord | undefined> {
  const log = options.log ?? console.log;
  const now = options.now ?? Date.now;
  const kind =
    typeof (event as { type?: unknown })?.type === "string" ? (event as { type: string }).type : "";
  if (!CONVERTED.has(kind)) {
    log(`${webhookId} ${kind || "(no type)"}: skipped, not a conversion or an entrance`);
    return undefined;
  }
  const ga4 = await ga4FromWebhook(event, options.ga4Options);
  const meta = kind === "cart.completed" ? await metaFromWebhook(event, options.metaOptions) : undefined;
  const record: StoredRecord = {
    storedAt: new Date(now()).toISOString(),
    webhookId,
    kind,
    occurredAt: (event as { timestamp?: string }).timestamp ?? "",
    record: kind === "cart.completed" ? "conversion" : "entrance",
    forwarded: {},
  };
  if (!ga4.ok) {
    // The same fields feed both conversions: one that is incomplete for GA4 is never half-sent to Meta either.
    log(`${webhookId} ${kind}: skipped, ${ga4.reason}`);
    await options.store.append({ ...record, record: "skipped", reason: ga4.reason });
    return { ...record, record: "skipped", reason: ga4.reason };
  }
  const params = ga4.payload.events[0]?.params ?? {};
  record.id = String(params.transaction_id ?? params.ticket_id ?? "");
  if (typeof params.value === "number") record.value = params.value;
  if (typeof params.currency === "string") record.currency = params.currency;
  if (typeof params.coupon === "string") record.coupon = params.coupon;
  const dated = { ...ga4, payload: withinWindow(ga4.payload, now(), log) };
  await Promise.all([
    send(options.ga4, dated, (p) => validateGa4Payload(p, now()), options, record.forwarded),
    send(
      options.meta,
      meta,
      (p: MetaConversionsPayload) => validateMetaPayload(p, now()),
      options,
      record.forwarded,
    ),
  ]);
  const gaveUp = Object.entries(record.forwarded).filter(([, f]) => f.outcome === "gave_up");
  if (gaveUp.length) {
    // Thrown to the inbox, which tries the event again later (also after a restart); stored once it went through.
    throw new Error(`${gaveUp.map(([name]) => name).join(" and ")} still failing after retries`);
  }
  await options.store.append(record);
  return record;
}
