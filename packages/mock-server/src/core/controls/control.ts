/** What a developer control is, and the helpers every control file shares (JSON answers, 400s, the clock). */
import { ProblemError } from "../problems.ts";
import type { MockSession } from "../session.ts";
import type { Culture, MockRequest, MockResponse } from "../types.ts";
import type { ControlServices } from "./services.ts";

export interface Control {
  method: string;
  path: string;
  description: string;
  run(input: ControlInput): MockResponse | Promise<MockResponse>;
}

export interface ControlInput {
  core: ControlServices;
  session: MockSession;
  body: unknown;
  url: URL;
  params: Record<string, string>;
  logId: string;
  culture: Culture;
  request: MockRequest;
}

export function json(status: number, body: unknown, logId: string): MockResponse {
  return {
    status,
    headers: { "content-type": "application/json", "x-log-id": logId, "cache-control": "no-store" },
    body: JSON.stringify(body),
  };
}

export function bad(detail: string, pointer = "/body"): never {
  throw new ProblemError("validation-error", detail, { errors: [{ pointer, detail }] });
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

export function clockState(session: MockSession) {
  const now = session.clock.now();
  return { now: new Date(now).toISOString(), epochMs: now, frozen: session.clock.frozen };
}
