import { afterEach, describe, expect, it, vi } from "vitest";
import type { ShopConfig, ShopHandle } from "../src/config";
import { startEarly } from "../src/early";
import { mountWith, type RenderShop } from "../src/mount-shell";
import { renderShop } from "../src/ui/render";
import { container, screen, within } from "./support/dom";
import { failure } from "./support/errors";
import { API, setupMockApi } from "./support/mock";
import { tx } from "./support/texts";

/**
 * The script tag's `mount` (src/script.ts): the session token, the catalogue and the texts start at once, while the
 * shop's code is still loading; the shop takes them over when it arrives. Here the code's arrival is held back by hand.
 */
const api = setupMockApi();
const handles: ShopHandle[] = [];
afterEach(() => {
  for (const h of handles.splice(0)) h.unmount();
  document.body.innerHTML = "";
  vi.restoreAllMocks();
});

/** A renderer that arrives when the test says so. */
function heldBack() {
  let arrive: (render: RenderShop) => void = () => {};
  const code = new Promise<RenderShop>((resolve) => {
    arrive = resolve;
  });
  return { source: { load: () => code, early: startEarly }, arrive: () => arrive(renderShop), code };
}

/** The catalogue requests the API answered, by path. */
function catalogueRequests() {
  const paths: string[] = [];
  api.server.events.on("request:start", ({ request }) => {
    const path = new URL(request.url).pathname;
    if (path.startsWith("/shop/v1/discovery/")) paths.push(path);
  });
  return paths;
}

const base = (fetchSessionToken: ShopConfig["fetchSessionToken"] = api.fetchSessionToken): ShopConfig => ({
  baseUrl: API,
  fetchSessionToken,
  locale: "en-GB",
});

describe("the script tag's mount, before the shop's code has arrived", () => {
  it("asks for the session token and the catalogue at once; the shop takes them over, each sent once", async () => {
    const requests = catalogueRequests();
    const token = vi.fn(api.fetchSessionToken);
    const { source, arrive } = heldBack();
    handles.push(mountWith(container(), base(token), source));

    await vi.waitFor(() =>
      expect(requests.sort()).toEqual(["/shop/v1/discovery/events", "/shop/v1/discovery/venues"]),
    );
    expect(token).toHaveBeenCalledTimes(1);
    expect(document.querySelector(".entrada-shop")).toBeNull(); // no code yet, nothing rendered

    arrive();
    await screen.findAllByRole("heading", { level: 3, name: "Family Theatre" }, { timeout: 5000 });
    // The list's queries took the reads under way: no second request, no second token.
    expect(requests).toHaveLength(2);
    expect(token).toHaveBeenCalledTimes(1);
  });

  it("the first card's picture loads at once with high priority, the others lazily, with no React warning", async () => {
    const warnings = [vi.spyOn(console, "error"), vi.spyOn(console, "warn")];
    const { source, arrive } = heldBack();
    handles.push(mountWith(container(), base(), source));
    arrive();
    await screen.findAllByRole("heading", { level: 3, name: "Family Theatre" }, { timeout: 5000 });
    const [first, ...others] = [...document.querySelectorAll<HTMLImageElement>(".entrada-shop__card img")];
    expect(first?.getAttribute("loading")).toBe("eager");
    expect(first?.getAttribute("fetchpriority")).toBe("high");
    expect(others.length).toBeGreaterThan(0);
    for (const image of others) {
      expect(image.getAttribute("loading")).toBe("lazy");
      expect(image.hasAttribute("fetchpriority")).toBe(false);
    }
    for (const spy of warnings) expect(spy).not.toHaveBeenCalled();
  });

  it("unmounted before the code arrives: nothing renders, nothing is thrown, the container is free", async () => {
    const errors = vi.spyOn(console, "error");
    let grant: () => Promise<unknown> = async () => {};
    // The host's backend answers only after the unmount.
    const token = vi.fn(
      (request: Parameters<typeof api.fetchSessionToken>[0]) =>
        new Promise<Awaited<ReturnType<typeof api.fetchSessionToken>>>((resolve, reject) => {
          grant = () => api.fetchSessionToken(request).then(resolve, reject);
        }),
    );
    const element = container();
    const { source, arrive, code } = heldBack();
    const shop = mountWith(element, base(token), source);
    await vi.waitFor(() => expect(token).toHaveBeenCalledTimes(1));

    shop.unmount();
    expect(element.innerHTML).toBe("");
    await grant();
    arrive();
    await code;
    expect(element.innerHTML).toBe("");
    expect(errors).not.toHaveBeenCalled();
    // A new shop mounts on the same container.
    handles.push(mountWith(element, base(), heldBack().source));
    expect(element.querySelectorAll(".entrada-shop-host")).toHaveLength(1);
  });

  it("aborted: the reads settle as cancelled without reaching the API, even once the token arrives", async () => {
    const requests = catalogueRequests();
    let grant: () => Promise<unknown> = async () => {};
    const token = (request: Parameters<typeof api.fetchSessionToken>[0]) =>
      new Promise<Awaited<ReturnType<typeof api.fetchSessionToken>>>((resolve, reject) => {
        grant = () => api.fetchSessionToken(request).then(resolve, reject);
      });
    const early = startEarly(base(token), "tickets");
    expect(early.reads.size).toBe(2);
    early.abort();
    await grant();
    const outcomes = await Promise.allSettled(early.reads.values());
    expect(outcomes.map((o) => o.status)).toEqual(["rejected", "rejected"]);
    expect(requests).toEqual([]);
  });

  it("a session-token function that fails early: the same translated message as without the early start", async () => {
    const reported: Parameters<NonNullable<ShopConfig["onError"]>>[0][] = [];
    const { source, arrive } = heldBack();
    const failing = vi.fn(async () => {
      throw new Error("the host's backend is down");
    });
    const config: ShopConfig = { ...base(failing), onError: (error) => reported.push(error) };
    handles.push(mountWith(container(), config, source));
    // The host's backend refused before the shop's code arrived.
    await vi.waitFor(() => expect(failing).toHaveBeenCalledTimes(1));
    arrive();
    const alert = await screen.findByRole("alert", {}, { timeout: 5000 });
    expect(alert.textContent).toContain(tx("errors.session-expired"));
    expect(within(alert).getByRole("button", { name: tx("errors.retry") })).toBeTruthy();
    expect(reported.map(failure)).toContain("oauth");
  });
});
