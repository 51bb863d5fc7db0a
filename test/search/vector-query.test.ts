import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { open, type Db } from '../../src/index.js';
import type { Value } from '../../src/common/values/value.js';
import { testSeed } from '../support/prng.js';
import { bruteForce, clusteredVectors } from './data.js';

/**
 * Vector search through Cypher on the embedded API: the pushdown under ORDER BY vector_distance LIMIT k,
 * filters that still give k rows, the three consistency modes and their precedence, and the same
 * answers after a reopen (replay) and after a checkpoint load.
 */
const n = 600;
const d = 8;
const seed = testSeed('vector query');
const vectors = clusteredVectors(seed, n, d, 6);
const queries = clusteredVectors(seed + 1, 12, d, 6);
// One node in 50 is 'rare': a selective filter.
const kindOf = (i: number): string => (i % 50 === 7 ? 'rare' : 'common');
const topByIndex = "MATCH (d:Doc) RETURN d.id AS id ORDER BY vector_distance(d.emb, $q, 'euclidean') LIMIT $k";

let dir: string;
let db: Db;

async function ids(text: string, params: Record<string, Value>, on: Db = db): Promise<number[]> {
  return (await on.query(text, params)).rows.map((r) => Number(r[0] as bigint));
}

function recall(got: readonly number[], want: readonly number[]): number {
  const w = new Set(want);
  return got.filter((x) => w.has(x)).length / want.length;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'weft-vector-query-'));
  db = await open(dir);
  const rows = vectors.map((v, i) => new Map<string, Value>([['id', BigInt(i)], ['emb', v], ['kind', kindOf(i)]]));
  await db.query('UNWIND $rows AS r CREATE (:Doc {id: r.id, emb: r.emb, kind: r.kind})', { rows });
  await db.query("CREATE VECTOR INDEX doc_emb FOR (d:Doc) ON (d.emb) OPTIONS {indexConfig: {`vector.dimensions`: 8, `vector.similarity_function`: 'euclidean'}}");
});

afterAll(async () => {
  await db?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('vector search through Cypher', () => {
  it('EXPLAIN names the vector index under the top-k', () => {
    const plan = db.explain(topByIndex).details.explain ?? '';
    expect(plan).toContain('VectorSearch');
    expect(plan).toContain('index: doc_emb');
    expect(db.explain("MATCH (d:Doc) RETURN d.id ORDER BY vector_distance(d.emb, $q) LIMIT 3").details.explain).toContain('doc_emb orders by euclidean, the query by cosine');
  });

  it('the index answers like brute force (recall@10 >= 0.9), and EXACT equals brute force', async () => {
    let total = 0;
    for (const q of queries) {
      const want = bruteForce(vectors, q, 10);
      total += recall(await ids(topByIndex, { q, k: 10n }), want);
      expect(await ids(`/*+ vector_consistency('exact') */ ${topByIndex}`, { q, k: 10n })).toEqual(want);
    }
    expect(total / queries.length).toBeGreaterThanOrEqual(0.9);
  });

  it('a selective filter still returns k rows when k exist, the same as an exact search', async () => {
    const q = queries[0]!;
    const filtered = "MATCH (d:Doc) WHERE d.kind = 'rare' RETURN d.id ORDER BY vector_distance(d.emb, $q, 'euclidean') LIMIT 10";
    const got = await ids(filtered, { q });
    expect(got).toHaveLength(10);
    expect(got).toEqual(bruteForce(vectors, q, 10, (i) => kindOf(i) === 'rare'));
    // Fewer than k exist: all of them.
    const few = "MATCH (d:Doc) WHERE d.kind = 'rare' AND d.id < 100 RETURN d.id ORDER BY vector_distance(d.emb, $q, 'euclidean') LIMIT 10";
    expect(await ids(few, { q })).toEqual(bruteForce(vectors, q, 10, (i) => kindOf(i) === 'rare' && i < 100));
  });

  it('SKIP and LIMIT: the search fetches limit + skip', async () => {
    const q = queries[1]!;
    const page = await ids("MATCH (d:Doc) RETURN d.id ORDER BY vector_distance(d.emb, $q, 'euclidean') SKIP 5 LIMIT 5", { q });
    expect(page).toEqual(bruteForce(vectors, q, 10).slice(5));
  });

  it('CURRENT sees a write after the snapshot, SNAPSHOT and EXACT do not; hint > session > default', async () => {
    const q = queries[2]!;
    const ts = db.database.lastCommittedTs;
    await db.query('CREATE (:Doc {id: 9999, emb: $q, kind: "new"})', { q });
    const asOf = (hint: string) => `${hint} AS OF TIMESTAMP $ts MATCH (d:Doc) RETURN d.id ORDER BY vector_distance(d.emb, $q, 'euclidean') LIMIT 3`;
    const params = { q, ts: BigInt(ts) };
    expect((await ids(asOf("/*+ vector_consistency('current') */"), params))[0]).toBe(9999);
    expect(await ids(asOf("/*+ vector_consistency('snapshot') */"), params)).not.toContain(9999);
    expect(await ids(asOf("/*+ vector_consistency('exact') */"), params)).toEqual(bruteForce(vectors, q, 3));
    // The session's setting applies when no hint is given; a hint still wins over it.
    await db.query("SET vector_consistency = 'current'");
    expect((await ids(asOf(''), params))[0]).toBe(9999);
    expect(await ids(asOf("/*+ vector_consistency('snapshot') */"), params)).not.toContain(9999);
    // A property of the newer node reads in its current state.
    const kinds = await db.query(`${asOf('')}`.replace('RETURN d.id', 'RETURN d.kind'), params);
    expect(kinds.rows[0]).toEqual(['new']);
    await db.query("SET vector_consistency = 'snapshot'");
    await db.query('MATCH (d:Doc {id: 9999}) DELETE d');
    expect(await ids(topByIndex, { q, k: 3n })).not.toContain(9999);
  });

  it('updates move a node in the index', async () => {
    const q = queries[3]!;
    const far = Float32Array.from({ length: d }, () => 50);
    const nearest = bruteForce(vectors, q, 1)[0]!;
    await db.query('MATCH (d:Doc {id: $id}) SET d.emb = $far', { id: BigInt(nearest), far });
    expect(await ids(topByIndex, { q, k: 1n })).not.toContain(nearest);
    await db.query('MATCH (d:Doc {id: $id}) SET d.emb = $v', { id: BigInt(nearest), v: vectors[nearest]! });
    expect(await ids(topByIndex, { q, k: 1n })).toEqual([nearest]);
  });

  it('a node that loses the label leaves every answer, even of a snapshot from before; given it back, it returns', async () => {
    const q = queries[4]!;
    const nearest = bruteForce(vectors, q, 1)[0]!;
    const ts = db.database.lastCommittedTs;
    await db.query('MATCH (d:Doc {id: $id}) REMOVE d:Doc SET d:Gone', { id: BigInt(nearest) });
    const asOf = (mode: string) => `/*+ vector_consistency('${mode}') */ AS OF TIMESTAMP $ts ${topByIndex}`;
    for (const mode of ['current', 'snapshot']) {
      // A beam as wide as the index: the search is exhaustive, so the answers are brute force's.
      expect(await ids(`/*+ vector_consistency('${mode}') */ /*+ vector_ef(600) */ ${topByIndex}`, { q, k: 5n }), mode).toEqual(bruteForce(vectors, q, 6).slice(1));
      // The index holds the latest state only: an older snapshot's node is no longer offered (section 5).
      expect(await ids(asOf(mode), { q, k: 5n, ts: BigInt(ts) }), mode).not.toContain(nearest);
    }
    await db.query('MATCH (d:Gone {id: $id}) REMOVE d:Gone SET d:Doc', { id: BigInt(nearest) });
    for (const mode of ['current', 'snapshot']) {
      expect(await ids(`/*+ vector_consistency('${mode}') */ /*+ vector_ef(600) */ ${topByIndex}`, { q, k: 5n }), mode).toEqual(bruteForce(vectors, q, 5));
    }
  });

  it('a reopen (log replay) and a checkpoint load rebuild the same answers', async () => {
    const before = await Promise.all(queries.map((q) => ids(topByIndex, { q, k: 10n })));
    await db.close();
    db = await open(dir);
    const replayed = await Promise.all(queries.map((q) => ids(topByIndex, { q, k: 10n })));
    expect(replayed).toEqual(before);
    await db.close();
    // A small checkpoint interval: the next open loads a checkpoint and rebuilds the index from the graph.
    db = await open(dir, { checkpoint_interval_entries: 1 });
    await db.query('CREATE (:Other)');
    await db.close();
    db = await open(dir, { checkpoint_interval_entries: 1 });
    const loaded = await Promise.all(queries.map((q) => ids(topByIndex, { q, k: 10n })));
    expect(loaded.map((r, i) => recall(r, before[i]!))).toEqual(loaded.map(() => 1));
  });
});

describe('vector DDL and values', () => {
  it('refuses bad OPTIONS and a second vector index of the same property', async () => {
    await expect(db.query('CREATE VECTOR INDEX bad FOR (d:Doc) ON (d.emb)')).rejects.toMatchObject({ message: expect.stringContaining('vector.dimensions') });
    await expect(
      db.query("CREATE VECTOR INDEX bad FOR (d:Doc) ON (d.emb) OPTIONS {indexConfig: {`vector.dimensions`: 8, `vector.similarity_function`: 'hamming'}}"),
    ).rejects.toMatchObject({ message: expect.stringContaining('similarity_function') });
    await expect(db.query('CREATE VECTOR INDEX bad FOR (d:Doc) ON (d.emb) OPTIONS {indexConfig: {`vector.dimensions`: 70000}}')).rejects.toMatchObject({
      message: expect.stringContaining('65536'),
    });
    await expect(db.query('CREATE VECTOR INDEX bad FOR (d:Doc) ON (d.emb) OPTIONS {indexConfig: {`vector.dimension`: 8}}')).rejects.toMatchObject({
      message: expect.stringContaining("unknown index setting 'vector.dimension'"),
    });
    await expect(db.query('CREATE SPARSE INDEX bad FOR (d:Doc) ON (d.emb)')).rejects.toMatchObject({ message: expect.stringContaining('VECTOR and FULLTEXT') });
    await expect(
      db.query('CREATE VECTOR INDEX doc_emb FOR (d:Doc) ON (d.emb) OPTIONS {indexConfig: {`vector.dimensions`: 8}}'),
    ).rejects.toMatchObject({ code: 'ALREADY_EXISTS' });
    await db.query('CREATE VECTOR INDEX doc_emb IF NOT EXISTS FOR (d:Doc) ON (d.emb) OPTIONS {indexConfig: {`vector.dimensions`: 8}}');
  });

  it('DROP INDEX removes a vector index; searches then scan exactly, with the same answers', async () => {
    const q = queries[4]!;
    const cosine = 'MATCH (d:Doc) RETURN d.id ORDER BY vector_distance(d.emb, $q) LIMIT 5';
    await db.query('DROP INDEX doc_emb');
    expect(db.explain(cosine).details.explain).toContain('none: exact scan of the label');
    const exact = await ids(cosine, { q });
    await db.query("CREATE VECTOR INDEX doc_cos FOR (d:Doc) ON (d.emb) OPTIONS {indexConfig: {`vector.dimensions`: 8, `vector.similarity_function`: 'cosine'}}");
    expect(db.explain(cosine).details.explain).toContain('index: doc_cos');
    expect(recall(await ids(cosine, { q }), exact)).toBeGreaterThanOrEqual(0.8);
  });
});
