import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { open, type Db } from '../../src/index.js';
import { orderCompare } from '../../src/common/values/order.js';
import type { Value } from '../../src/common/values/value.js';
import { distanceTolerance } from '../../src/projections/search/vector-tolerance.js';
import { orderedRows, type Collected } from '../../src/query/execute/vector-order.js';
import { prng, testSeed } from '../support/prng.js';

/**
 * A vector search that orders its rows by the index's 32-bit distances must give exactly the order
 * an exact top-k by `vector_distance` (64-bit) gives: ties in arrival order, near-ties measured.
 */
describe('ordering rows by the index distances', () => {
  /** The exact top-k: a stable sort by exact distance (nulls last), cut at k. */
  const reference = (rows: readonly Collected[], k: number): Value[][] =>
    rows
      .slice()
      .sort((a, b) => orderCompare(a.row[0] as Value, b.row[0] as Value) || a.at - b.at)
      .slice(0, k)
      .map((c) => c.row);

  it('gives the exact top-k order for random rows with near-ties, exact ties and unbounded distances', () => {
    const seed = testSeed('vector order');
    const r = prng(seed);
    for (let trial = 0; trial < 400; trial++) {
      const n = 1 + Math.floor(r() * 40);
      const k = 1 + Math.floor(r() * 45);
      const unbounded = r() < 0.1;
      const rows: Collected[] = [];
      for (let i = 0; i < n; i++) {
        // Few distinct values, so exact ties and overlapping intervals are common.
        const exact = Math.floor(r() * 12) / 4 + (r() < 0.5 ? 0 : r() * 1e-7);
        const tolerance = unbounded && r() < 0.3 ? Infinity : r() < 0.5 ? 0 : r() * 0.2;
        // The index's distance: anywhere within its tolerance of the exact one.
        const distance = Number.isFinite(tolerance) ? exact + (r() * 2 - 1) * tolerance : exact + r();
        rows.push({ row: [exact, i], node: undefined, distance, tolerance, at: i });
      }
      const got = orderedRows(rows, k, (row) => row[0] as Value).map((c) => c.row);
      expect(got, `seed ${seed} trial ${trial}`).toEqual(reference(rows, k));
    }
  });

  it('measures only the rows whose intervals overlap, and none past the first k', () => {
    const rows: Collected[] = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => ({ row: [i, i], node: undefined, distance: i, tolerance: 0.1, at: 7 - i }));
    // Rows 2 and 3 are too close to tell apart by the index.
    rows[3] = { row: [3, 3], node: undefined, distance: 2.15, tolerance: 0.1, at: 4 };
    const measured: number[] = [];
    const got = orderedRows(rows, 4, (row) => (measured.push(row[1] as number), row[0] as Value));
    expect(got.map((c) => c.row[1])).toEqual([0, 1, 2, 3]);
    expect(measured.sort()).toEqual([2, 3]);
  });

  it('bounds HNSW\'s L2 distance: 32-bit sums of squares stay within the tolerance of the 64-bit distance', () => {
    const seed = testSeed('vector tolerance');
    const r = prng(seed);
    const dims = 128;
    for (let trial = 0; trial < 200; trial++) {
      const scale = 10 ** Math.floor(r() * 12 - 6);
      const a = Float32Array.from({ length: dims }, () => (r() * 2 - 1) * scale);
      const b = Float32Array.from({ length: dims }, () => (r() * 2 - 1) * scale);
      // A 32-bit evaluation (each step rounded), in one of the orders SIMD lanes may take.
      const lanes = new Float32Array(8);
      for (let i = 0; i < dims; i++) {
        const diff = Math.fround(a[i]! - b[i]!);
        lanes[i % 8] = Math.fround(lanes[i % 8]! + Math.fround(diff * diff));
      }
      let s32 = 0;
      for (const x of lanes) s32 = Math.fround(s32 + x);
      let s64 = 0;
      for (let i = 0; i < dims; i++) s64 += (a[i]! - b[i]!) ** 2;
      const index = Math.sqrt(s32);
      expect(Math.abs(index - Math.sqrt(s64)), `seed ${seed} trial ${trial}`).toBeLessThanOrEqual(distanceTolerance('L2', dims, index));
    }
    expect(distanceTolerance('COSINE', dims, 0.5)).toBe(Infinity);
    expect(distanceTolerance('L1', dims, 0.5)).toBe(0);
  });
});

describe('an ordered vector search through Cypher', () => {
  const d = 4;
  let dir: string;
  let db: Db;
  const q = new Float32Array([0, 0, 0, 0]);
  // Squared distances 1 and 1 + 2^-26 round to the same 32-bit float: the index cannot tell the two
  // apart, vector_distance can. The farther one has the lower id and is written first.
  const near = [new Float32Array([1, 2 ** -13, 0, 0]), new Float32Array([1, 0, 0, 0]), new Float32Array([0, 1, 2 ** -12, 0])];
  // Far from q and from each other, at distinct distances (a fixed seed: no ties to order).
  const fill = prng(7);
  const far = (): Float32Array => Float32Array.from({ length: d }, () => 20 + fill() * 20);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'weft-vector-order-'));
    db = await open(dir);
    const rows = [...near, ...Array.from({ length: 300 }, far)].map((v, i) => new Map<string, Value>([['id', BigInt(i)], ['emb', v], ['odd', i % 2 === 1]]));
    await db.query('UNWIND $rows AS r CREATE (:Doc {id: r.id, emb: r.emb, odd: r.odd})', { rows });
    await db.query("CREATE VECTOR INDEX doc_emb FOR (d:Doc) ON (d.emb) OPTIONS {indexConfig: {`vector.dimensions`: 4, `vector.similarity_function`: 'euclidean'}}");
  });

  afterAll(async () => {
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The same rows (values included) under CURRENT and SNAPSHOT, through the index, as under EXACT. */
  const both = async (text: string): Promise<void> => {
    const exact = await db.query(`/*+ vector_consistency('exact') */ ${text}`, { q });
    for (const mode of ['current', 'snapshot']) {
      expect((await db.query(`/*+ vector_consistency('${mode}') */ ${text}`, { q })).rows, `${mode}: ${text}`).toEqual(exact.rows);
    }
  };

  it('orders near-ties the index cannot tell apart by their exact distances, as EXACT does', async () => {
    const text = "MATCH (d:Doc) RETURN d.id, vector_distance(d.emb, $q, 'euclidean') AS dist ORDER BY dist LIMIT 3";
    const exact = await db.query(`/*+ vector_consistency('exact') */ ${text}`, { q });
    expect(exact.rows.map((r) => r[0])).toEqual([1n, 0n, 2n]);
    expect(exact.rows[1]![1]).toBeGreaterThan(1);
    await both(text);
  });

  // The index offers its k nearest by 32-bit distances, so k covers the near-ties here: which rows
  // an approximate search offers is the index's recall, not the order (LIMIT 1 could give id 0).
  it('with filters, SKIP, other limits and a pattern after the search, gives EXACT\'s rows', async () => {
    await both("MATCH (d:Doc) RETURN d.id ORDER BY vector_distance(d.emb, $q, 'euclidean') SKIP 1 LIMIT 2");
    await both("MATCH (d:Doc) WHERE d.odd RETURN d.id ORDER BY vector_distance(d.emb, $q, 'euclidean') LIMIT 5");
    await both("MATCH (d:Doc) WHERE NOT d.odd RETURN d.id, vector_distance(d.emb, $q, 'euclidean') ORDER BY vector_distance(d.emb, $q, 'euclidean') LIMIT 40");
    await both("MATCH (d:Doc) WITH d ORDER BY vector_distance(d.emb, $q, 'euclidean') LIMIT 3 MATCH (e:Doc {id: d.id + 1}) RETURN d.id, e.id");
  });

  it('vector_ef(n) sets the HNSW beam of the search: a beam as wide as the index searches all of it', async () => {
    await both("/*+ vector_ef(400) */ MATCH (d:Doc) WHERE d.odd RETURN d.id ORDER BY vector_distance(d.emb, $q, 'euclidean') LIMIT 30");
    await both("/*+ vector_ef(400) */ MATCH (d:Doc) RETURN d.id ORDER BY vector_distance(d.emb, $q, 'euclidean') LIMIT 60");
    for (const bad of ['0', '4097', "'wide'"]) {
      await expect(db.query(`/*+ vector_ef(${bad}) */ MATCH (d:Doc) RETURN d.id ORDER BY vector_distance(d.emb, $q) LIMIT 3`, { q })).rejects.toMatchObject({
        detail: 'InvalidArgumentValue',
      });
    }
  });
});

describe('ordered searches under the other metrics', () => {
  let dir: string;
  let db: Db;
  const d = 6;
  const r = prng(11);
  // Rounded components: many equal distances under L1, so ties are ordered too.
  const vectors = Array.from({ length: 260 }, () => Float32Array.from({ length: d }, () => Math.round(r() * 8) / 4));
  const q = Float32Array.from({ length: d }, () => Math.round(r() * 8) / 4);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'weft-vector-order-metrics-'));
    db = await open(dir);
    const rows = vectors.map((v, i) => new Map<string, Value>([['id', BigInt(i)], ['emb', v]]));
    await db.query('UNWIND $rows AS r CREATE (:Pt {id: r.id, emb: r.emb}), (:Img {id: r.id, emb: r.emb})', { rows });
    await db.query("CREATE VECTOR INDEX pt_emb FOR (p:Pt) ON (p.emb) OPTIONS {indexConfig: {`vector.dimensions`: 6, `vector.similarity_function`: 'manhattan'}}");
    await db.query("CREATE VECTOR INDEX img_emb FOR (i:Img) ON (i.emb) OPTIONS {indexConfig: {`vector.dimensions`: 6, `vector.similarity_function`: 'cosine'}}");
  });

  afterAll(async () => {
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('L1 (answered exactly, ties included) and COSINE (placed by its bound) give EXACT\'s rows', async () => {
    const l1 = "MATCH (p:Pt) RETURN p.id, vector_distance(p.emb, $q, 'manhattan') ORDER BY vector_distance(p.emb, $q, 'manhattan') LIMIT 25";
    const exactL1 = await db.query(`/*+ vector_consistency('exact') */ ${l1}`, { q });
    expect(new Set(exactL1.rows.map((row) => row[1])).size, 'the rows hold equal distances').toBeLessThan(exactL1.rows.length);
    expect((await db.query(l1, { q })).rows).toEqual(exactL1.rows);
    // Cosine ties (parallel vectors) would come in the index's order, not the scan's: none here.
    const cosine = "MATCH (i:Img) RETURN i.id, vector_distance(i.emb, $q) ORDER BY vector_distance(i.emb, $q) LIMIT 8";
    const exactCosine = await db.query(`/*+ vector_consistency('exact') */ ${cosine}`, { q });
    expect((await db.query(cosine, { q })).rows).toEqual(exactCosine.rows);
  });
});


describe('ordered COSINE and DOT searches: near-ties and nulls', () => {
  let dir: string;
  let db: Db;
  const d = 6;
  const r = prng(23);
  // No two of these are parallel (real-valued components), so no exact cosine ties.
  const random = (): Float32Array => Float32Array.from({ length: d }, () => 0.5 + r() * 1.5);
  const qc = new Float32Array([1, 0, 0, 0, 0, 0]);
  // Cosine distances 2^-25 and 2^-25 (1 + 2^-19) (nearly): 32-bit floats give both the same
  // distance (1 - S rounds where S is within 2^-24 of 1); vector_distance tells them apart.
  const cosineFar = new Float32Array([1, 0, 2 ** -12 * (1 + 2 ** -20), 0, 0, 0]);
  const cosineNear = new Float32Array([1, 2 ** -12, 0, 0, 0, 0]);
  const qd = new Float32Array([3, 5, 0, 0, 0, 0]);
  // Inner products 76 + 5 2^-20 and 76 + 6 2^-20: one 32-bit value, two 64-bit ones.
  const dotFar = new Float32Array([7, 11 + 2 ** -20, 0, 0, 0, 0]);
  const dotNear = new Float32Array([7 + 2 ** -19, 11, 0, 0, 0, 0]);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'weft-vector-order-cosine-dot-'));
    db = await open(dir);
    // The farther of each pair has the lower id; every 100th node is in group 'x', and five nodes of
    // group 'x' have no vector (their distance is null: they sort last).
    const vectors = [cosineFar, cosineNear, dotFar, dotNear, ...Array.from({ length: 300 }, random)];
    const rows = vectors.map((v, i) => new Map<string, Value>([['id', BigInt(i)], ['emb', v], ['grp', i % 100 === 5 ? 'x' : 'y']]));
    await db.query('UNWIND $rows AS r CREATE (:Cos {id: r.id, emb: r.emb, grp: r.grp}), (:Dot {id: r.id, emb: r.emb, grp: r.grp})', { rows });
    await db.query("UNWIND range(1000, 1004) AS i CREATE (:Cos {id: i, grp: 'x'}), (:Dot {id: i, grp: 'x'})");
    await db.query("CREATE VECTOR INDEX cos_emb FOR (c:Cos) ON (c.emb) OPTIONS {indexConfig: {`vector.dimensions`: 6, `vector.similarity_function`: 'cosine'}}");
    await db.query("CREATE VECTOR INDEX dot_emb FOR (c:Dot) ON (c.emb) OPTIONS {indexConfig: {`vector.dimensions`: 6, `vector.similarity_function`: 'dot'}}");
  });

  afterAll(async () => {
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const both = async (text: string, q: Float32Array): Promise<Value[][]> => {
    const exact = await db.query(`/*+ vector_consistency('exact') */ ${text}`, { q });
    for (const mode of ['current', 'snapshot']) {
      expect((await db.query(`/*+ vector_consistency('${mode}') */ ${text}`, { q })).rows, `${mode}: ${text}`).toEqual(exact.rows);
    }
    return exact.rows as Value[][];
  };

  it('orders near-ties the index cannot tell apart by their exact distances, as EXACT does', async () => {
    const cosine = await both("MATCH (c:Cos) RETURN c.id, vector_distance(c.emb, $q, 'cosine') AS dist ORDER BY dist LIMIT 4", qc);
    expect(cosine.slice(0, 2).map((row) => row[0])).toEqual([1n, 0n]);
    expect(cosine[0]![1]).not.toEqual(cosine[1]![1]);
    const dot = await both("MATCH (c:Dot) RETURN c.id, vector_distance(c.emb, $q, 'dot') AS dist ORDER BY dist LIMIT 4", qd);
    expect(dot.slice(0, 2).map((row) => row[0])).toEqual([3n, 2n]);
    await both("MATCH (c:Dot) RETURN c.id ORDER BY vector_distance(c.emb, $q, 'dot') SKIP 1 LIMIT 3", qd);
    await both("MATCH (c:Cos) WHERE c.grp = 'y' RETURN c.id ORDER BY vector_distance(c.emb, $q, 'cosine') LIMIT 12", qc);
  });

  it('a filter that leaves fewer rows with vectors than the limit ends with the null distances, as EXACT does', async () => {
    for (const [label, metric, q] of [
      ['Cos', 'cosine', qc],
      ['Dot', 'dot', qd],
    ] as const) {
      const rows = await both(`MATCH (c:${label}) WHERE c.grp = 'x' RETURN c.id, vector_distance(c.emb, $q, '${metric}') AS dist ORDER BY dist LIMIT 6`, q);
      expect(rows.map((row) => row[1] === null)).toEqual([false, false, false, true, true, true]);
    }
  });
});
