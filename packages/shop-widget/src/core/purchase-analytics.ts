import { spreadDiscount } from "@entrada/sdk/shop";
import type { AnalyticsItem, AnalyticsParams } from "./analytics";
import { moneyValue } from "./format";
import type { Order } from "./types";

/**
 * The GA4 `purchase` of a paid order, exactly as the SDK's `ga4FromWebhook` builds the server's from
 * `cart.completed`: `value` is what was charged, `coupon` the redeemed voucher code, and each item's `price` its
 * discounted unit price with the unit `discount` (GA4's rule for discounted items, by the same `spreadDiscount`).
 */
export function purchaseParams(order: Order): AnalyticsParams {
  const voucher = order.discounts[0];
  const units = spreadDiscount(
    order.items.map((item) => ({ unit: item.unitPrice.amount, quantity: item.quantity })),
    voucher?.amount.amount ?? 0,
  );
  const currency = order.total.currency;
  const items: AnalyticsItem[] = order.items.map((item, i) => {
    const unit = units[i] ?? { price: item.unitPrice.amount, discount: 0 };
    return {
      item_id: item.articleId,
      item_name: item.name,
      item_variant: item.slotId,
      price: moneyValue({ amount: unit.price, currency }),
      ...(unit.discount ? { discount: moneyValue({ amount: unit.discount, currency }) } : {}),
      quantity: item.quantity,
    };
  });
  return {
    transaction_id: order.id,
    currency,
    value: moneyValue(order.total),
    ...(voucher ? { coupon: voucher.code } : {}),
    items,
  };
}
