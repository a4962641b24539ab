/** Voucher codes as data: what a seed gives, what the shop keeps per code, what an order keeps per discount line. */

import type { LocalizedText } from "../../core/types.ts";
import { type Currency, localize, type SeedText } from "./catalogue.ts";
import builtIn from "./vouchers.seed.json" with { type: "json" };

export type VoucherKind = "percentage" | "fixed-amount" | "free-ticket";

/** A code as a seed gives it (`seed.shop.vouchers`; the built-in list is `vouchers.seed.json`). */
export interface VoucherSeed {
  code: string;
  kind: VoucherKind;
  /** Texts by culture, or one text for all cultures. */
  name: SeedText;
  /** `percentage`: the share of the qualifying lines, 1–100. */
  percent?: number;
  /** `fixed-amount`: minor units per currency; a currency without one makes the code not applicable. */
  amount?: Partial<Record<Currency, number>>;
  /** RFC 3339; the code is refused as expired outside [validFrom, validUntil]. */
  validFrom?: string;
  validUntil?: string;
  /** Only items of these article slugs (or events) qualify; absent: every item. */
  articleSlugs?: string[];
  eventIds?: string[];
  /** How often the code may be redeemed; absent: without limit. */
  maxUses?: number;
}

export interface VoucherRecord extends VoucherSeed {
  name: LocalizedText;
  /** Orders that redeemed it. */
  redeemed: number;
  /** Uses held by open or locked carts. */
  held: number;
}

/** Codes are matched case-insensitively and shown upper-case. */
export function normalizeCode(code: string): string {
  return code.toUpperCase();
}

export function seedVouchers(seed: unknown): Record<string, VoucherRecord> {
  const list = Array.isArray(seed) ? (seed as VoucherSeed[]) : (builtIn as VoucherSeed[]);
  const vouchers: Record<string, VoucherRecord> = {};
  for (const voucher of list) {
    const code = normalizeCode(voucher.code);
    // A plain string is one text for all cultures (as for catalogue texts), never a record of its characters.
    vouchers[code] = { ...voucher, code, name: localize(voucher.name), redeemed: 0, held: 0 };
  }
  return vouchers;
}

/** A discount line's record: what the order keeps (the name in every culture, for views and webhooks). */
export interface DiscountRecord {
  code: string;
  kind: VoucherKind;
  name: LocalizedText;
  amount: number;
}
