import { afterEach, describe, expect, it } from "vitest";
import { detectReturn, stripReturnParams } from "../../src/core/resume";
import {
  buildReturnUrl,
  claimOnce,
  clearResume,
  purchasedSet,
  RESUME_MAX_AGE_MS,
  readResume,
  saveResume,
} from "../../src/core/resume-store";

afterEach(() => {
  history.replaceState(null, "", "/");
});

describe("resume record", () => {
  it("stores only references, namespaced per instance", () => {
    saveResume("a", { cartId: "crt_1", paymentId: "pay_1" });
    expect(readResume("a")).toMatchObject({ v: 1, step: "payment", cartId: "crt_1", paymentId: "pay_1" });
    expect(readResume("b")).toBeUndefined();
    const raw = sessionStorage.getItem("entrada-shop:a:resume") ?? "";
    expect(Object.keys(JSON.parse(raw)).sort()).toEqual(["cartId", "paymentId", "savedAt", "step", "v"]);
    clearResume("a");
    expect(readResume("a")).toBeUndefined();
  });

  it("ignores stale or malformed records", () => {
    sessionStorage.setItem(
      "entrada-shop:a:resume",
      JSON.stringify({
        v: 1,
        step: "payment",
        cartId: "c",
        paymentId: "p",
        savedAt: Date.now() - RESUME_MAX_AGE_MS - 1,
      }),
    );
    expect(readResume("a")).toBeUndefined();
    sessionStorage.setItem("entrada-shop:a:resume", "{not json");
    expect(readResume("a")).toBeUndefined();
  });
});

describe("return URL", () => {
  it("is the host page plus this instance's marker, without old widget params or hash", () => {
    const url = buildReturnUrl("https://host.example/tickets?x=1&entrada_payment=old#top", "main");
    expect(url).toBe("https://host.example/tickets?x=1&entrada_shop=main");
  });

  it("is detected only by its own instance", () => {
    const back = "https://host.example/t?x=1&entrada_shop=main&entrada_payment=pay_9&entrada_result=success";
    expect(detectReturn(back, "main")).toEqual({ paymentId: "pay_9", result: "success" });
    expect(detectReturn(back, "other")).toBeUndefined();
    expect(detectReturn("https://host.example/t?entrada_shop=main", "main")).toBeUndefined();
    expect(detectReturn(`${back.replace("success", "weird")}`, "main")).toEqual({
      paymentId: "pay_9",
      result: undefined,
    });
  });

  it("is stripped from the address bar without a new history entry", () => {
    history.replaceState(
      { keep: 1 },
      "",
      "/page?x=1&entrada_shop=main&entrada_payment=pay_9&entrada_result=cancel#h",
    );
    const length = history.length;
    stripReturnParams();
    expect(location.pathname + location.search + location.hash).toBe("/page?x=1#h");
    expect(history.length).toBe(length);
    expect(history.state).toEqual({ keep: 1 });
  });
});

describe("exactly once", () => {
  it("shares one run between concurrent claims", async () => {
    let runs = 0;
    const run = async () => {
      runs += 1;
      return "done";
    };
    const [a, b] = await Promise.all([claimOnce("k1", run), claimOnce("k1", run)]);
    expect([a, b, runs]).toEqual(["done", "done", 1]);
  });

  it("remembers completed transactions across instances of the set", () => {
    purchasedSet("a").add("ord_1");
    expect(purchasedSet("a").has("ord_1")).toBe(true);
    expect(purchasedSet("b").has("ord_1")).toBe(false);
  });
});
