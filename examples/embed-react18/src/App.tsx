import type { Cart, Order } from "@entrada/shop-widget";
import { EntradaShop, type FetchSessionToken, type Locale } from "@entrada/shop-widget/react";
import { useState } from "react";
import { fetchShopSession } from "./session";

/**
 * A React 18 host page: its own language switcher drives the widget's `locale` prop, and the widget asks
 * the host's backend for session tokens (`fetchShopSession`: renewed under the same shop session on expiry).
 */
export function App({
  apiUrl,
  fetchSessionToken = fetchShopSession,
  onCartChange,
}: {
  apiUrl: string;
  fetchSessionToken?: FetchSessionToken;
  onCartChange?: (cart: Cart | null) => void;
}) {
  const [locale, setLocale] = useState<Locale>("de-CH");
  const [order, setOrder] = useState<Order | undefined>();
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
      <EntradaShop
        baseUrl={apiUrl}
        fetchSessionToken={fetchSessionToken}
        locale={locale}
        onCartChange={onCartChange}
        onCheckoutComplete={setOrder}
      />
      {order && <p>{`Order ${order.id} (cart ${order.cartId}) confirmed`}</p>}
    </main>
  );
}
