import { createContext, useContext } from "react";
import type { Locale, ShopConfig } from "../config";
import type { ShopApi } from "../core/shop-api";
import type { Money } from "../core/types";
import type { Controller } from "./controller";
import type { Journey } from "./journey-state";

export interface ShopContextValue {
  controller: Controller;
  api: ShopApi;
  config: ShopConfig;
  /** The culture currently applied (texts loaded): drives Accept-Language, query keys and Intl. */
  locale: Locale;
  timeZone: string;
  money(money: Money): string;
  /** A date formatted for the culture and time zone: date and time (default), day, time or month. */
  dateTime(iso: string, shape?: "dateTime" | "day" | "time" | "month"): string;
  /** Say something in the polite live region (cart changes, progress). */
  announce(text: string): void;
  journey: Journey;
}

export const ShopContext = createContext<ShopContextValue | null>(null);

export function useShop(): ShopContextValue {
  const value = useContext(ShopContext);
  if (value === null) throw new Error("EntradaShop: outside the shop");
  return value;
}
