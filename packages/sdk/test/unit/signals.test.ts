import { describe, expect, it } from "vitest";
import { raceSignal, sleep } from "../../src/core/signals.ts";
import { deferred } from "../helpers.ts";

describe("signal helpers", () => {
  it("sleep resolves after the delay and rejects with the abort reason", async () => {
    await expect(sleep(1)).resolves.toBeUndefined();
    const controller = new AbortController();
    const pending = sleep(10_000, controller.signal);
    controller.abort(new Error("stop"));
    await expect(pending).rejects.toThrow("stop");
    await expect(sleep(1, AbortSignal.abort(new Error("already")))).rejects.toThrow("already");
  });

  it("raceSignal ends one waiter without cancelling the shared promise", async () => {
    const shared = deferred<string>();
    const controller = new AbortController();
    const impatient = raceSignal(shared.promise, controller.signal);
    const patient = raceSignal(shared.promise, undefined);
    controller.abort(new Error("gave up"));
    await expect(impatient).rejects.toThrow("gave up");
    shared.resolve("token");
    await expect(patient).resolves.toBe("token");
    await expect(raceSignal(Promise.resolve(1), new AbortController().signal)).resolves.toBe(1);
  });
});
