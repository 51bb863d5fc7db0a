/**
 * The rows of a column that can be among a top-k by it: every position whose value sorts at least as
 * well as the k-th best value of the whole column (ties with it included, since later keys decide
 * between them), in position order. `sign` is 1 for ascending, -1 for descending.
 *
 * A top-k over a whole label whose first key is an exact-integer column asks for these first, in one
 * tight loop over doubles, and then runs the usual top-k over them alone: the answer is the same
 * (a row not in this set has k rows that sort strictly before it), and the per-row path, which needs
 * several runs before the JIT has optimized it for the query, sees a few dozen rows instead of the
 * whole label. With `admit`, only the positions it marks 1 count (the nodes that pass the scan's filters).
 */
export function topCandidates(values: Float64Array, k: number, sign: number, admit?: Uint8Array): Int32Array | undefined {
  const n = values.length;
  if (admit !== undefined) {
    // Among the admitted positions only (the rest fail the scan's filters): at most k of them are all candidates.
    let admitted = 0;
    for (let i = 0; i < n; i++) admitted += admit[i] as number;
    if (admitted <= k) {
      const all = new Int32Array(admitted);
      let w = 0;
      for (let i = 0; i < n; i++) if (admit[i] === 1) all[w++] = i;
      return all;
    }
  } else if (k >= n) return undefined;
  // The k best values seen so far, best first (k is small: LIMIT plus SKIP, bounded by the caller).
  const best = new Float64Array(k);
  let kept = 0;
  for (let i = 0; i < n; i++) {
    if (admit !== undefined && admit[i] === 0) continue;
    const x = (values[i] as number) * sign;
    if (kept === k && x >= (best[k - 1] as number)) continue;
    let j = kept < k ? kept++ : k - 1;
    while (j > 0 && (best[j - 1] as number) > x) {
      best[j] = best[j - 1] as number;
      j--;
    }
    best[j] = x;
  }
  const threshold = best[k - 1] as number;
  const candidate = (i: number): boolean => (admit === undefined || admit[i] === 1) && (values[i] as number) * sign <= threshold;
  let count = 0;
  for (let i = 0; i < n; i++) if (candidate(i)) count++;
  const out = new Int32Array(count);
  let w = 0;
  for (let i = 0; i < n; i++) if (candidate(i)) out[w++] = i;
  return out;
}

/** Above this LIMIT + SKIP a top-k reads the whole label as before: the insertion above is O(n k). */
export const TOP_CANDIDATES_K_MAX = 256;
