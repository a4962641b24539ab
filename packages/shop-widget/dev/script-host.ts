/** The host code of `script.html`: only the global the classic script defines, no imports from the widget. */
import { fetchDevSessionToken } from "./session-token";

interface ScriptApi {
  mount(container: string, config: Record<string, unknown>): unknown;
  version: string;
}

const entrada = (window as unknown as { EntradaShop?: ScriptApi }).EntradaShop;
if (entrada === undefined) throw new Error("the script-tag build did not load");
const nonce = document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce || undefined;
const apiUrl = document.querySelector<HTMLMetaElement>('meta[name="entrada-api"]')?.content ?? "";

entrada.mount("#tickets", {
  baseUrl: apiUrl,
  locale: new URLSearchParams(location.search).get("lang") ?? "de-CH",
  ...(nonce ? { nonce } : {}),
  fetchSessionToken: fetchDevSessionToken,
});
document.body.dataset.widgetVersion = entrada.version;
