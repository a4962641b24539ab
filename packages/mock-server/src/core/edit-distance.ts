/**
 * Levenshtein edit distance (insertions, deletions, substitutions each cost 1), for "did you mean" suggestions
 * (the BI feed's unknown properties, the documentation server's unknown endpoints and sections). O(|a|·|b|)
 * time, O(|b|) memory.
 * @example editDistance("OrderIdd", "OrderId") // 1
 */
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j] as number;
      row[j] = Math.min(
        (row[j] as number) + 1,
        (row[j - 1] as number) + 1,
        prev + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      prev = tmp;
    }
  }
  return row[b.length] as number;
}
