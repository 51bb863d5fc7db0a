import { meanDegreeOf } from '../../../projections/graph/degree-summary.js';
import { SnapshotView, type GraphReader } from '../../../projections/graph/view.js';
import { memberIds } from './scan-candidates.js';

/**
 * Degrees for the planner from the degree summaries of the snapshot's CSRs (projections/graph/degree-summary.ts):
 * the mean number of relationships of `types` in `direction` over the nodes of `label`, exact over the label's
 * kept list where the snapshot keeps one, else over up to DEGREE_CSR_SAMPLE_NODES of the label's first nodes
 * (reading only each one's offsets). Undefined when a type has no kept CSR, or for any type (`types` empty):
 * then the engine samples the records of the label's first nodes.
 */

/** Nodes of a label without a kept list whose CSR offsets are read for the mean. */
export const DEGREE_CSR_SAMPLE_NODES = 4096;

export function snapshotDegree(graph: GraphReader, label: string, types: readonly string[], direction: 'out' | 'in' | 'both'): number | undefined {
  if (!(graph instanceof SnapshotView) || types.length === 0) return undefined;
  const csrs = types.map((t) => graph.keptAdjacency(t));
  if (csrs.some((c) => c === undefined)) return undefined;
  const members = graph.keptMembers(label);
  let ids: Int32Array;
  if (members !== undefined) ids = memberIds(members);
  else {
    const first: number[] = [];
    for (const n of graph.nodesWithLabel(label)) if (first.push(n.id) >= DEGREE_CSR_SAMPLE_NODES) break;
    ids = Int32Array.from(first);
  }
  // Relationships of distinct types are distinct: the means add up.
  let mean = 0;
  for (const csr of csrs) if (csr !== undefined) mean += meanDegreeOf(csr, direction, ids);
  return mean;
}
