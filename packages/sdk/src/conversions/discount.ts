/**
 * An order-level discount (a voucher code) spread over the order's lines, the way GA4 wants discounted items: an
 * item's `price` is its discounted unit price and `discount` the unit discount, so Σ price × quantity is the `value`
 * that was charged. The shop widget's browser `purchase` and `ga4FromWebhook`'s server `purchase` both use this, so
 * the two events of one order carry the same prices, `coupon` and `value`.
 */

/** One line: its unit price in minor units and its quantity. */
export interface PricedLine {
  unit: number;
  quantity: number;
}

/** A line's unit price after the discount and the unit discount, in minor units (fractions of a minor unit kept). */
export interface DiscountedUnit {
  price: number;
  discount: number;
}

const round4 = (value: number) => Math.round(value * 10_000) / 10_000;

/**
 * Spreads `discount` (minor units) over the lines pro rata to their totals, by largest remainder so the shares add up
 * exactly, then per unit.
 * @example
 * spreadDiscount([{ unit: 4500, quantity: 2 }, { unit: 2000, quantity: 1 }], 1100)
 * // → [{ price: 4050, discount: 450 }, { price: 1800, discount: 200 }]
 */
export function spreadDiscount(lines: readonly PricedLine[], discount: number): DiscountedUnit[] {
  const totals = lines.map((l) => l.unit * l.quantity);
  const subtotal = totals.reduce((a, b) => a + b, 0);
  const off = Math.max(0, Math.min(discount, subtotal));
  if (off === 0 || subtotal === 0) return lines.map((l) => ({ price: l.unit, discount: 0 }));
  const exact = totals.map((t) => (off * t) / subtotal);
  const shares = exact.map(Math.floor);
  let left = off - shares.reduce((a, b) => a + b, 0);
  const byRemainder = exact
    .map((e, i) => ({ i, r: e - Math.floor(e) }))
    .sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of byRemainder) {
    if (left <= 0) break;
    shares[i] = (shares[i] ?? 0) + 1;
    left -= 1;
  }
  return lines.map((l, i) => {
    const unitDiscount = round4((shares[i] ?? 0) / l.quantity);
    return { price: round4(l.unit - unitDiscount), discount: unitDiscount };
  });
}
