/**
 * Loaded into a benchmarked server process (`--import bench/loop-monitor.ts`): every `report_ms` it
 * writes to stderr the longest event-loop delay and the longest garbage-collection pauses seen since
 * its last line, so a benchmark can tell what held the server in a window of its own. Both survive a
 * busy machine better than a client's latency percentiles: a pause is the process's own, not the
 * scheduler's.
 *
 *   weft-loop t=<epoch ms> delay_max_ms=<n> scavenge_max_ms=<n> scavenge_ms=<n> gc_max_ms=<n>
 */
import { constants, monitorEventLoopDelay, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';

/** How often a line is written, in ms. */
const report_ms = 250;
/** The delay histogram's sampling step, in ms (its own timer; a block longer than it shows in full). */
const resolution_ms = 5;

const delay = monitorEventLoopDelay({ resolution: resolution_ms });
delay.enable();
let scavenge_max_ms = 0;
let scavenge_ms = 0;
let gc_max_ms = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    gc_max_ms = Math.max(gc_max_ms, entry.duration);
    const kind = (entry as PerformanceEntry & { readonly detail?: { readonly kind?: number } }).detail?.kind;
    if (kind === constants.NODE_PERFORMANCE_GC_MINOR) {
      scavenge_max_ms = Math.max(scavenge_max_ms, entry.duration);
      scavenge_ms += entry.duration;
    }
  }
}).observe({ entryTypes: ['gc'] });

setInterval(() => {
  const max_ms = delay.count > 0 ? delay.max / 1e6 : 0;
  process.stderr.write(
    `weft-loop t=${Date.now()} delay_max_ms=${max_ms.toFixed(1)} scavenge_max_ms=${scavenge_max_ms.toFixed(1)} scavenge_ms=${scavenge_ms.toFixed(1)} gc_max_ms=${gc_max_ms.toFixed(1)}\n`,
  );
  delay.reset();
  scavenge_max_ms = 0;
  scavenge_ms = 0;
  gc_max_ms = 0;
}, report_ms).unref();
