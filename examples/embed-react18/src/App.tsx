import { EntradaShop, type Locale } from "@entrada/shop-widget/react";
import { useState } from "react";

/**
 * A React 18 host page: its own language switcher drives the widget's `locale` prop, and the widget asks
 * the host's backend for session tokens.
 */
export function App({
  apiUrl,
  fetchSessionToken,
}: {
  apiUrl: string;
  fetchSessionToken: () => Promise<string>;
}) {
  const [locale, setLocale] = useState<Locale>("de-CH");
  return (
    <main>
      <label>
        Site language
        <select value={locale} onChange={(e) => setLocale(e.currentTarget.value as Locale)}>
          <option value="de-CH">Deutsch</option>
          <option value="fr-CH">Français</option>
          <option value="en-GB">English</option>
        </select>
      </label>
      <EntradaShop baseUrl={apiUrl} fetchSessionToken={fetchSessionToken} locale={locale} />
    </main>
  );
}
