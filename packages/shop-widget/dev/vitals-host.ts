/**
 * vitals.html's host code: the script-tag ES module build as shipped (dist/script), mounted the way script-host.ts
 * mounts the classic script, with a session token from the dev backend.
 */
import { fetchDevSessionToken } from "./session-token";

const { mount } = (await import(/* @vite-ignore */ `${"/dist/script/"}shop-widget.js`)) as {
  mount(container: string, config: Record<string, unknown>): unknown;
};
const nonce = document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce || undefined;
const apiUrl = document.querySelector<HTMLMetaElement>('meta[name="entrada-api"]')?.content ?? "";

mount("#tickets", {
  baseUrl: apiUrl,
  locale: "en-GB",
  ...(nonce ? { nonce } : {}),
  fetchSessionToken: fetchDevSessionToken,
});
