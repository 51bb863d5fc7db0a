import type { Value } from '../../../src/common/values/value.js';
import type { Db } from '../../../src/index.js';
import type { SnapshotView } from '../../../src/projections/graph/view.js';

/**
 * The random graph the value join tests run on: nodes :P whose key properties are typed columns (integers `a`
 * and `k`, floats `f` with -0.0 and 2^53, strings `s`, booleans `b`), each absent on some nodes, with many
 * duplicate keys, a few lists `l`, and about five relationships :R {w} out of each node.
 */
const STRINGS = ['0', '1', '2', '3', 'x', ''];

export async function load(db: Db, r: () => number, n: number): Promise<void> {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const rows: Value[] = [];
  for (let i = 0; i < n; i++) {
    const m = new Map<string, Value>([['a', BigInt(Math.floor(r() * 6))]]);
    if (r() < 0.85) m.set('k', BigInt(Math.floor(r() * 9) - 4));
    if (r() < 0.8) m.set('f', pick([1.5, 2.0, -0.0, 0.0, 3.25, 2 ** 53]));
    if (r() < 0.85) m.set('s', pick(STRINGS));
    if (r() < 0.7) m.set('b', r() < 0.5);
    if (r() < 0.3) m.set('l', pick([[1n], [1.0], [2n, 3n], ['x']]));
    rows.push(m);
  }
  await db.query('UNWIND $rows AS row CREATE (n:P) SET n = row', { rows });
  // About five relationships out of each node, between nodes picked by the seed (rand() would not replay).
  const ids = (await db.query('MATCH (n:P) RETURN id(n)')).rows.map((row) => row[0] as bigint);
  const pairs: Value[] = [];
  for (let e = 0; e < ids.length * 5; e++) pairs.push([pick(ids), pick(ids), BigInt(Math.floor(r() * 4))]);
  await db.query('UNWIND $pairs AS p MATCH (a), (b) WHERE id(a) = p[0] AND id(b) = p[1] CREATE (a)-[:R {w: p[2]}]->(b)', { pairs });
}

/** Asks for the label's list and columns a batched run reads, as repeated whole-graph queries would. */
export async function warm(db: Db): Promise<SnapshotView> {
  for (let i = 0; i < 3; i++) await db.query('MATCH (n:P) RETURN count(*)');
  const view = db.database.latestCommitted() as SnapshotView;
  for (const k of ['k', 'f', 's', 'b', 'a']) view.nodeColumn(k, 1e9);
  view.adjacency('R', 1e9);
  return view;
}

