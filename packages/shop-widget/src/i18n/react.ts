import type { i18n as I18n, TFunction } from "i18next";
import {
  createContext,
  createElement,
  type ReactNode,
  useContext,
  useMemo,
  useSyncExternalStore,
} from "react";
import type { Namespace } from "./index";

/**
 * The few lines of React binding the widget needs (instead of react-i18next, kept out of the first load): a
 * provider, and a hook that re-renders in place when the language changes or a namespace arrives.
 * No Suspense: switching language never unmounts anything, so focus and form contents stay.
 */
const Context = createContext<I18n | null>(null);
const versions = new WeakMap<I18n, number>();

export function I18nProvider({ i18n, children }: { i18n: I18n; children: ReactNode }) {
  return createElement(Context.Provider, { value: i18n }, children);
}

function subscribe(i18n: I18n, onChange: () => void): () => void {
  const bump = () => {
    versions.set(i18n, (versions.get(i18n) ?? 0) + 1);
    onChange();
  };
  i18n.on("languageChanged", bump);
  i18n.on("loaded", bump);
  return () => {
    i18n.off("languageChanged", bump);
    i18n.off("loaded", bump);
  };
}

export function useTranslation(namespace: Namespace = "core"): { t: TFunction; i18n: I18n } {
  const i18n = useContext(Context);
  if (i18n === null) throw new Error("EntradaShop: outside the shop");
  const subscribeTo = useMemo(() => (onChange: () => void) => subscribe(i18n, onChange), [i18n]);
  const version = useSyncExternalStore(subscribeTo, () => `${i18n.language}|${versions.get(i18n) ?? 0}`);
  // A new `t` whenever the language or the loaded texts change, so memoized children re-render too.
  const t = useMemo(
    () => i18n.getFixedT(version.slice(0, version.indexOf("|")), namespace),
    [i18n, namespace, version],
  );
  return { t, i18n };
}
