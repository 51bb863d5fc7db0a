import type { Row } from '../context.js';
import type { OpEnv } from '../read-ops.js';
import { Batch, BATCH_ROWS } from './batch.js';
import { expandsOf, formsFor, type BatchPlan, type Forms } from './batch-plan.js';
import { BatchScope } from './pipeline.js';
import { compileVector } from './vector-expressions.js';

/**
 * A run of a plan whose filters on an expand's end node were folded into the expand
 * (batch-plan.ts, `foldEndFilters`): each such expand's filters become one bitmap by node id, 1
 * where the node passes every filter and has every end label, which the expand (or its count) tests
 * in place of the label bitmaps. A filter is folded only when it compiles to a typed condition over
 * the node's columns: typed conditions cannot fail, so evaluating one on a node no row reaches changes
 * nothing, and the rows that pass are exactly those the filter would have kept. Every node id is
 * evaluated once per run, a batch of ids at a time.
 */
/** Runs that took a folded plan (tests check that the shapes they mean to cover do). */
export const foldedRuns = { count: 0 };

export function foldedForms(plan: BatchPlan, env: OpEnv, arg: Row): Forms | undefined {
  const filters = plan.end_filters;
  if (filters === undefined) return undefined;
  const forms = formsFor(plan, env, arg);
  if (forms === undefined) return undefined;
  const bitmaps = forms.bitmaps.slice();
  const expands = expandsOf(plan);
  for (let k = 0; k < expands.length; k++) {
    const e = expands[k] as (typeof expands)[number];
    const folded = filters.get(e);
    if (folded === undefined) continue;
    // The node's own columns only: a one-column layout holding the end node's ids.
    const scope = new BatchScope({ ...plan, layout: [{ slot: e.to, entity: 'node' }] }, env, arg, forms.members.nodes.length);
    const tests = folded.map((f) => compileVector(f.predicate, scope));
    const labels = bitmaps[k] as readonly Uint8Array[];
    // Every end an expand of this type reaches is below the CSR's id bound.
    const bound = (forms.csrs[k] as Forms['csrs'][number]).refs.length;
    const bits = new Uint8Array(bound);
    const batch = new Batch(1);
    const ids = batch.columns[0] as Int32Array;
    for (let from = 0; from < bound; from += BATCH_ROWS) {
      const n = Math.min(BATCH_ROWS, bound - from);
      for (let i = 0; i < n; i++) ids[i] = from + i;
      batch.length = n;
      for (let i = 0; i < n; i++) bits[from + i] = 1;
      for (const t of tests) {
        if (t.kind !== 'bool') return undefined;
        const pass = t.run(batch).values;
        for (let i = 0; i < n; i++) if (pass[i] !== 1) bits[from + i] = 0;
      }
      for (const l of labels) for (let i = 0; i < n; i++) if (l[from + i] !== 1) bits[from + i] = 0;
    }
    bitmaps[k] = [bits];
  }
  foldedRuns.count++;
  return { ...forms, bitmaps };
}
