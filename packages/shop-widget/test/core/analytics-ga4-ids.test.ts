import { afterEach, describe, expect, it, vi } from "vitest";
import { GTAG_WAIT_MS, ga4IdsFromCookies, readGa4Ids } from "../../src/core/analytics-ga4-ids";

const MID = "G-ABC123XYZ";
const COOKIES =
  "theme=dark; _ga=GA1.1.1187324961.1764583200; _ga_ABC123XYZ=GS2.1.s1764582815$o3$g1$t1764583300$j0$l0$h0";

/** A gtag that answers `get` like gtag.js once loaded (asynchronously), or never (library blocked). */
function gtag(values: Record<string, unknown> | "never") {
  const calls: unknown[][] = [];
  const fn = (...args: unknown[]) => {
    calls.push(args);
    const [command, target, field, callback] = args as [string, string, string, (v: unknown) => void];
    if (values === "never" || command !== "get" || target !== MID) return;
    queueMicrotask(() => callback(values[field]));
  };
  return Object.assign(fn, { calls });
}

afterEach(() => {
  vi.useRealTimers();
});

describe("GA4 ids from cookies", () => {
  it("reads the client id from _ga and the session id from _ga_<container> (GS2 and GS1 formats)", () => {
    expect(ga4IdsFromCookies(COOKIES, MID)).toEqual({
      ga4ClientId: "1187324961.1764583200",
      ga4SessionId: "1764582815",
    });
    expect(
      ga4IdsFromCookies("_ga=GA1.2.42.1700000000; _ga_ABC123XYZ=GS1.1.1700000100.3.1.1700000200.0.0.0", MID),
    ).toEqual({ ga4ClientId: "42.1700000000", ga4SessionId: "1700000100" });
  });

  it("takes only the container's session cookie, and a client id without a session", () => {
    expect(ga4IdsFromCookies("_ga=GA1.1.42.1700000000; _ga_OTHER=GS2.1.s1700000100$o1", MID)).toEqual({
      ga4ClientId: "42.1700000000",
    });
  });

  it("gives nothing without a well-formed _ga cookie (no session id alone)", () => {
    expect(ga4IdsFromCookies("", MID)).toBeUndefined();
    expect(ga4IdsFromCookies("_ga_ABC123XYZ=GS2.1.s1700000100$o1", MID)).toBeUndefined();
    expect(ga4IdsFromCookies("_ga=GA1.1.not-a-number.17", MID)).toBeUndefined();
    expect(ga4IdsFromCookies(`_ga=GA1.1.${"9".repeat(21)}.1700000000`, MID)).toBeUndefined();
    expect(ga4IdsFromCookies("x_ga=GA1.1.42.1700000000", MID)).toBeUndefined();
  });
});

describe("readGa4Ids", () => {
  it("reads nothing without a (valid) measurement id: no gtag call, no cookie", async () => {
    const tag = gtag({ client_id: "1.2" });
    const doc = {
      get cookie(): string {
        throw new Error("read");
      },
    };
    expect(await readGa4Ids(undefined, { gtag: tag, document: doc })).toBeUndefined();
    expect(await readGa4Ids("UA-1234-1", { gtag: tag, document: doc })).toBeUndefined();
    expect(tag.calls).toEqual([]);
  });

  it("asks gtag for client_id and session_id when gtag is on the page", async () => {
    const tag = gtag({ client_id: "555.1764000000", session_id: 1764582815 });
    const ids = await readGa4Ids(MID, { gtag: tag, document: { cookie: COOKIES } });
    expect(ids).toEqual({ ga4ClientId: "555.1764000000", ga4SessionId: "1764582815" });
    expect(tag.calls.map((c) => c.slice(0, 3))).toEqual([
      ["get", MID, "client_id"],
      ["get", MID, "session_id"],
    ]);
  });

  it("falls back to the cookies when gtag never answers, after a bounded wait", async () => {
    vi.useFakeTimers();
    let result: unknown = "pending";
    readGa4Ids(MID, { gtag: gtag("never"), document: { cookie: COOKIES } }).then((r) => {
      result = r;
    });
    await vi.advanceTimersByTimeAsync(GTAG_WAIT_MS - 1);
    expect(result).toBe("pending");
    await vi.advanceTimersByTimeAsync(1);
    expect(result).toEqual({ ga4ClientId: "1187324961.1764583200", ga4SessionId: "1764582815" });
  });

  it("falls back to the cookies when gtag throws or answers an id the API would refuse", async () => {
    const throwing = () => {
      throw new Error("gtag broke");
    };
    expect(await readGa4Ids(MID, { gtag: throwing, document: { cookie: COOKIES } })).toMatchObject({
      ga4ClientId: "1187324961.1764583200",
    });
    const custom = gtag({ client_id: "b3f1c2d4-uuid", session_id: "x" });
    expect(await readGa4Ids(MID, { gtag: custom, document: { cookie: COOKIES } })).toMatchObject({
      ga4ClientId: "1187324961.1764583200",
    });
    expect(await readGa4Ids(MID, { gtag: custom, document: { cookie: "" } })).toBeUndefined();
  });

  it("never rejects, even when the cookie cannot be read (sandboxed frame)", async () => {
    const doc = {
      get cookie(): string {
        throw new DOMException("denied", "SecurityError");
      },
    };
    await expect(readGa4Ids(MID, { document: doc })).resolves.toBeUndefined();
  });
});
