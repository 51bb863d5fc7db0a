import { describe, expect, it } from 'vitest';
import { TypeAdjacency, type AdjacencyRows } from '../../src/projections/graph/adjacency.js';
import { DEGREE_QUANTILES, degreeSummary, meanDegreeOf } from '../../src/projections/graph/degree-summary.js';
import type { SnapshotView } from '../../src/projections/graph/view.js';
import { find, withDb } from '../query/engine/support.js';
import { prng, testSeed } from '../support/prng.js';

/**
 * Degree summaries of a relationship type per direction, made from its CSR: counts, nodes with any, quantiles
 * and the mean over a label's nodes, checked against a count of the same edges made by hand; then the planner's
 * expand estimate, which reads the summary once the snapshot keeps the type's CSR instead of sampling a label's
 * first nodes.
 */

/** A CSR from (source, target) pairs over node ids [0, nodes). */
function csrOf(pairs: readonly (readonly [number, number])[], nodes: number): TypeAdjacency {
  const side = (from: (p: readonly [number, number]) => number, to: (p: readonly [number, number]) => number): AdjacencyRows => {
    const offsets = new Int32Array(nodes + 1);
    for (const p of pairs) offsets[from(p) + 1]!++;
    for (let n = 0; n < nodes; n++) offsets[n + 1] = offsets[n + 1]! + offsets[n]!;
    const fill = offsets.slice(0, nodes);
    const ends = new Int32Array(pairs.length);
    const edges = new Int32Array(pairs.length);
    pairs.forEach((p, e) => {
      const at = fill[from(p)]!++;
      ends[at] = to(p);
      edges[at] = e;
    });
    return { offsets, ends, edges };
  };
  return new TypeAdjacency(0, side((p) => p[0], (p) => p[1]), side((p) => p[1], (p) => p[0]), [], 0);
}

/** The nearest-rank quantile of `xs` (sorted ascending). */
function quantile(xs: readonly number[], q: number): number {
  return xs[Math.max(0, Math.ceil(q * xs.length) - 1)] ?? 0;
}

describe('degree summaries from a CSR', () => {
  it('count relationships, nodes with any, quantiles and label means as a hand count does, skewed or not', () => {
    const seed = testSeed('degree-summary');
    const r = prng(seed);
    for (let round = 0; round < 20; round++) {
      const nodes = 1 + Math.floor(r() * 300);
      // A few hubs take most edges in some rounds: the quantiles must show it.
      const hubs = round % 2 === 0 ? 0 : 1 + Math.floor(r() * 3);
      const pairs: (readonly [number, number])[] = [];
      const n = Math.floor(r() * 2000);
      for (let e = 0; e < n; e++) {
        const source = hubs > 0 && r() < 0.7 ? Math.floor(r() * hubs) : Math.floor(r() * nodes);
        pairs.push([source % nodes, Math.floor(r() * nodes)]);
      }
      const csr = csrOf(pairs, nodes);
      for (const direction of ['out', 'in', 'both'] as const) {
        const degree = new Array<number>(nodes).fill(0);
        for (const [s, t] of pairs) {
          if (direction !== 'in') degree[s]!++;
          if (direction !== 'out') degree[t]!++;
        }
        const withAny = degree.filter((d) => d > 0).sort((a, b) => a - b);
        const summary = degreeSummary(csr, direction);
        const label = `seed ${seed}, round ${round}, ${direction}`;
        expect(summary.relationships, label).toBe((direction === 'both' ? 2 : 1) * pairs.length);
        expect(summary.nodes_with_any, label).toBe(withAny.length);
        expect(summary.nodes, label).toBe(nodes);
        expect(summary.max, label).toBe(withAny[withAny.length - 1] ?? 0);
        expect(summary.quantiles, label).toEqual(DEGREE_QUANTILES.map((q) => quantile(withAny, q)));
        // The mean over a subset of ids (a label's list), ids past the CSR counting as none.
        const ids = Int32Array.from([...Array(nodes + 3).keys()].filter(() => r() < 0.3));
        const want = ids.length === 0 ? 0 : [...ids].reduce((t, id) => t + (degree[id] ?? 0), 0) / ids.length;
        expect(meanDegreeOf(csr, direction, ids), label).toBeCloseTo(want, 9);
      }
    }
  });

  it('steer the expand estimate once the CSR is kept, where the first nodes of a label have no relationships', async () => {
    await withDb(async (db) => {
      // The first 200 members have no KNOWS; the next 200 have 5 each: a sample of the first 64 sees none.
      await db.query('UNWIND range(1, 400) AS i CREATE (:P {i: i})');
      await db.query('MATCH (a:P), (b:P) WHERE a.i > 200 AND (b.i - a.i) % 80 = 0 AND b.i <> a.i AND b.i > a.i - 400 CREATE (a)-[:KNOWS]->(b)');
      const text = 'MATCH (a:P)-[:KNOWS]->(b) RETURN b.i';
      const counted = (await db.query('MATCH (a:P)-[:KNOWS]->() RETURN count(*) AS n')).rows[0]![0] as bigint;
      expect(counted).toBeGreaterThan(0n);
      const sampled = find(db.explain(text), 'Expand(All)')!.estimated_rows;
      expect(sampled).toBe(0);
      // Whole-graph reads make the store keep the label's list and the type's CSR.
      for (let i = 0; i < 4; i++) await db.query('MATCH (a:P)-[:KNOWS]->(b) RETURN count(b.i)');
      const view = db.database.latestCommitted() as SnapshotView;
      expect(view.keptAdjacency('KNOWS')).toBeDefined();
      expect(view.keptMembers('P')).toBeDefined();
      const summarized = find(db.explain(`${text} LIMIT 7`), 'Expand(All)')!.estimated_rows;
      expect(summarized).toBeCloseTo(Number(counted), 0);
    });
  });
});
