/**
 * Stable LSD radix sort of row numbers by a numeric column: `order` (row numbers) ends up ordered by
 * `value[row]`, rows with equal values keeping their relative order. Values must be integers below 2⁵³.
 *
 * The history index sorts millions of rows by keys and stamps; a comparator sort boxes a number per comparison,
 * this takes 16 bits per pass, a few passes of O(n), and one scratch array.
 */
export function radixSortBy(order: Uint32Array, value: ArrayLike<number>): void {
  const n = order.length;
  if (n < 2) return;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    const v = value[order[i] as number] as number;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const span = max - min;
  if (span === 0) return;
  const RADIX = 65536;
  const counts = new Uint32Array(RADIX);
  let from: Uint32Array = order;
  let to: Uint32Array = new Uint32Array(n);
  for (let shift = 1; shift <= span; shift *= RADIX) {
    counts.fill(0);
    for (let i = 0; i < n; i++) {
      const digit = Math.floor(((value[from[i] as number] as number) - min) / shift) % RADIX;
      counts[digit] = (counts[digit] as number) + 1;
    }
    let sum = 0;
    for (let d = 0; d < RADIX; d++) {
      const c = counts[d] as number;
      counts[d] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const row = from[i] as number;
      const digit = Math.floor(((value[row] as number) - min) / shift) % RADIX;
      to[counts[digit] as number] = row;
      counts[digit] = (counts[digit] as number) + 1;
    }
    [from, to] = [to, from];
  }
  if (from !== order) order.set(from);
}
