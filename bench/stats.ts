/** The p-th percentile (0-100) of values sorted ascending; 0 when there are none. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
