/**
 * Runs `steps` to its end, giving the event loop back (one setImmediate) whenever `slice_ms` has
 * passed since the last time it did: for work after a statement (turning a large write set into ops)
 * that would otherwise hold the loop in one go. Each step must be short (a few thousand items).
 */
export async function runStepped<T>(steps: Generator<undefined, T, undefined>, slice_ms: number): Promise<T> {
  let slice_end = performance.now() + slice_ms;
  for (;;) {
    const r = steps.next();
    if (r.done === true) return r.value;
    if (performance.now() < slice_end) continue;
    await new Promise<void>((resolve) => setImmediate(resolve));
    slice_end = performance.now() + slice_ms;
  }
}
