import { describe, expect, it } from "vitest";
import { describeFailure } from "../../src/core/network-cause.ts";

describe("describeFailure", () => {
  it("adds undici's cause (code and address) to 'fetch failed'", () => {
    const cause = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" });
    expect(describeFailure(new TypeError("fetch failed", { cause }))).toBe(
      "fetch failed (connect ECONNREFUSED 127.0.0.1:1)",
    );
  });

  it("lists each address an AggregateError tried, once, and follows nested causes", () => {
    const v4 = new Error("connect ECONNREFUSED 127.0.0.1:8080");
    const v6 = new Error("connect ECONNREFUSED ::1:8080");
    const error = new TypeError("fetch failed", { cause: new AggregateError([v4, v6, v4], "") });
    expect(describeFailure(error)).toBe(
      "fetch failed (connect ECONNREFUSED 127.0.0.1:8080; connect ECONNREFUSED ::1:8080)",
    );
    const dns = new TypeError("fetch failed", {
      cause: new Error("getaddrinfo ENOTFOUND api.example", { cause: new Error("ENOTFOUND") }),
    });
    expect(describeFailure(dns)).toBe("fetch failed (getaddrinfo ENOTFOUND api.example; ENOTFOUND)");
  });

  it("keeps a plain message, a thrown value and a cause that repeats the message as they are", () => {
    expect(describeFailure(new Error("socket hang up"))).toBe("socket hang up");
    expect(describeFailure("offline")).toBe("offline");
    expect(describeFailure(new Error("x", { cause: new Error("x") }))).toBe("x");
  });
});
