/**
 * The dev page's host code: what a web team writes to embed the shop. It asks its own backend for a shop
 * session token (never client credentials), mounts the widget and wires a few live settings.
 */
import type { Locale, SessionTokenGrant, SessionTokenRequest, ShopConfig, ShopHandle } from "../src/index";

const params = new URLSearchParams(location.search);
// `?build=script`: the script-tag build as shipped (dist/script, Preact bundled) instead of the sources with
// the page's React, so the browser tests run the same journeys on both. Build it first (`pnpm build`).
const { mount } = (
  params.get("build") === "script"
    ? await import(/* @vite-ignore */ `${"/dist/script/"}shop-widget.js`)
    : await import("../src/index")
) as { mount: typeof import("../src/index").mount };
document.documentElement.dataset.build = params.get("build") ?? "npm";
// `?hostile=max`: the harshest host rules (dev/hostile.css) on top of the page's own aggressive CSS.
if (params.get("hostile") === "max") document.documentElement.classList.add("hostile-max");

const apiUrl =
  document.querySelector<HTMLMetaElement>('meta[name="entrada-api"]')?.content ?? "http://127.0.0.1:4010";
const log = document.querySelector<HTMLOListElement>("#log");
const note = (what: string, detail?: unknown) => {
  const item = document.createElement("li");
  item.textContent = `${new Date().toLocaleTimeString()} ${what}${detail === undefined ? "" : ` ${JSON.stringify(detail)}`}`;
  log?.prepend(item);
};

/**
 * Asks the host backend for a session token. `request` is `{}` at start and `{ rejectedToken, sessionId }` after a
 * 401: the backend renews the visitor's shop session, so the cart survives an expired token. Returning the
 * backend's `{ sessionToken, sessionId }` lets the widget name the session when it asks again.
 */
async function fetchSessionToken(request: SessionTokenRequest): Promise<SessionTokenGrant> {
  const response = await fetch("/backend/shop-session", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(request),
  });
  if (!response.ok) throw new Error(`shop session: HTTP ${response.status}`);
  return (await response.json()) as SessionTokenGrant;
}

const localeSelect = document.querySelector<HTMLSelectElement>("#locale");
const themeSelect = document.querySelector<HTMLSelectElement>("#theme");
const primary = document.querySelector<HTMLInputElement>("#primary");
const wanted = params.get("lang");
if (localeSelect && wanted) localeSelect.value = wanted;

// The page's CSP nonce (Vite's `html.cspNonce` puts it on a meta element): the widget's stylesheet needs it.
// `?nonce=off` leaves it out, to see what a host that forgets it gets (an unstyled widget and a console error).
const nonce =
  params.get("nonce") === "off"
    ? undefined
    : document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce || undefined;

const config: ShopConfig = {
  baseUrl: apiUrl,
  ...(nonce ? { nonce } : {}),
  fetchSessionToken,
  locale: (localeSelect?.value ?? "de-CH") as Locale,
  theme: (themeSelect?.value ?? "auto") as "auto",
  analytics: {
    dataLayer: true,
    onEvent: (event) => note(`analytics ${event.name}`, event.params.value),
    // `?ga4=G-…` stands in for a consent banner's "analytics: yes": the checkout then passes the visitor's GA4 ids.
    ...(params.get("ga4") ? { measurementId: params.get("ga4") ?? "" } : {}),
  },
  // `?member=1`: a signed-in member (stands in for the host's login): the buyer's details prefilled, the address locked.
  ...(params.get("member") === "1"
    ? {
        buyer: { firstName: "Anna", lastName: "Muster", email: "anna.member@example.ch" },
        lockBuyer: ["email" as const],
      }
    : {}),
  onReady: () => note("onReady"),
  onStepChange: (step) => note("onStepChange", step),
  onCartChange: (cart) =>
    note("onCartChange", cart && { items: cart.items.length, total: cart.total.amount }),
  onCheckoutComplete: (order) =>
    note("onCheckoutComplete", {
      order: order.id,
      tickets: order.tickets.length,
      analytics: order.analytics,
    }),
  onError: (error) =>
    note("onError", {
      kind: error.kind,
      // (a type-only import of the widget here: the page loads the npm or the script-tag build)
      ...("slug" in error ? { slug: error.slug } : {}),
      status: error.status,
      logId: error.logId,
    }),
  onLocaleChange: (locale) => note("onLocaleChange", locale),
  beforeRedirect: ({ url }) => {
    note("beforeRedirect", url);
    return true;
  },
};

let shop: ShopHandle = mount("#tickets", config);
// For the browser tests that mount and unmount by themselves (remount leaks, misuse): the build's `mount`, the
// page's config, and the same without the callbacks that write to the page's log (which would grow the page).
const { onReady, onStepChange, onCartChange, onCheckoutComplete, onLocaleChange, analytics, ...quiet } =
  config;
Object.assign(window, { entradaDev: { mount, config, quietConfig: (): ShopConfig => ({ ...quiet }) } });

// `?second=1`: a second, independent widget below the first (two widgets on one page share no state and no ids).
if (params.get("second") === "1") {
  const second = document.createElement("div");
  second.id = "tickets-2";
  document.querySelector("#tickets")?.after(second);
  mount(second, config);
}

localeSelect?.addEventListener("change", () => shop.update({ locale: localeSelect.value as Locale }));
themeSelect?.addEventListener("change", () =>
  shop.update({ theme: themeSelect.value as "auto" | "light" | "dark" }),
);
primary?.addEventListener("input", () => shop.update({ appearance: { colorPrimary: primary.value } }));
document.querySelector("#remount")?.addEventListener("click", () => {
  shop.unmount();
  shop = mount("#tickets", { ...config, locale: (localeSelect?.value ?? "de-CH") as Locale });
  note("remounted");
});
