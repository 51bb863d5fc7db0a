import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { open, type Db } from '../../src/index.js';
import type { Value } from '../../src/common/values/value.js';
import { testSeed } from '../support/prng.js';
import { bruteForce, clusteredVectors } from './data.js';

/**
 * A filtered vector search returns k rows when k exist: a filter that 1% of the nodes pass, and a
 * filter on a property of a related node (through MATCH, EXISTS or a pattern predicate), under
 * CURRENT and SNAPSHOT, give the rows an exact search gives: the search over-fetches in rounds,
 * then scans the rest of the label exactly.
 */
const n = 3000;
const d = 8;
const seed = testSeed('vector filter');
const vectors = clusteredVectors(seed, n, d, 10);
const probes = clusteredVectors(seed + 1, 6, d, 10);
/** 1% of the nodes: every 100th from 3. */
const rare = (i: number): boolean => i % 100 === 3;
/** The topic each node is filed under: 'rare' for 1%, 'common' for the rest. */
const topicOf = (i: number): string => (rare(i) ? 'rare' : 'common');
const modes = ['current', 'snapshot'] as const;

let dir: string;
let db: Db;

async function ids(text: string, params: Record<string, Value>): Promise<number[]> {
  return (await db.query(text, params)).rows.map((r) => Number(r[0] as bigint));
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'weft-vector-filter-'));
  db = await open(dir);
  await db.query("CREATE (:Topic {name: 'rare'}), (:Topic {name: 'common'})");
  const rows = vectors.map((v, i) => new Map<string, Value>([['id', BigInt(i)], ['emb', v], ['kind', topicOf(i)]]));
  await db.query('UNWIND $rows AS r MATCH (t:Topic {name: r.kind}) CREATE (:Doc {id: r.id, emb: r.emb, kind: r.kind})-[:IN]->(t)', { rows });
  await db.query("CREATE VECTOR INDEX doc_emb FOR (d:Doc) ON (d.emb) OPTIONS {indexConfig: {`vector.dimensions`: 8, `vector.similarity_function`: 'euclidean'}}");
});

afterAll(async () => {
  await db?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('filtered vector search returns k rows when k exist', () => {
  it('a filter 1% of the nodes pass: the vector index plans the search, and every probe gets the exact top 10 of the 30 that pass', async () => {
    const text = "MATCH (d:Doc) WHERE d.kind = 'rare' RETURN d.id ORDER BY vector_distance(d.emb, $q, 'euclidean') LIMIT 10";
    expect(db.explain(text).details.explain).toContain('index: doc_emb');
    for (const mode of modes) {
      for (const q of probes) {
        const got = await ids(`/*+ vector_consistency('${mode}') */ ${text}`, { q });
        expect(got, `${mode}, seed ${seed}`).toEqual(bruteForce(vectors, q, 10, rare));
      }
    }
  });

  it('a filter on a property of a related node, as a pattern in MATCH, EXISTS or a pattern predicate: the top 10 of the docs filed under the rare topic', async () => {
    const order = "RETURN d.id ORDER BY vector_distance(d.emb, $q, 'euclidean') LIMIT 10";
    // MATCH through the relationship starts from the topic (the smaller label) and expands: an
    // exact top-k over the docs reached. EXISTS and the pattern predicate filter the docs the
    // vector search offers: the search plans it, over-fetching, then scanning the rest.
    const forms = [
      `MATCH (d:Doc)-[:IN]->(t:Topic) WHERE t.name = 'rare' ${order}`,
      `MATCH (d:Doc) WHERE EXISTS { (d)-[:IN]->(:Topic {name: 'rare'}) } ${order}`,
      `MATCH (d:Doc) WHERE (d)-[:IN]->(:Topic {name: 'rare'}) ${order}`,
    ];
    expect(db.explain(forms[1]!).details.explain).toContain('index: doc_emb');
    expect(db.explain(forms[2]!).details.explain).toContain('index: doc_emb');
    for (const text of forms) {
      for (const mode of modes) {
        for (const q of probes) {
          const got = await ids(`/*+ vector_consistency('${mode}') */ ${text}`, { q });
          expect(got, `${text}, ${mode}, seed ${seed}`).toEqual(bruteForce(vectors, q, 10, rare));
        }
      }
    }
    // The common topic passes 99%: the first round's candidates give the rows, near the exact ones
    // (recall over all probes: one probe of an approximate search may miss more than the rest).
    const common = `MATCH (d:Doc) WHERE EXISTS { (d)-[:IN]->(:Topic {name: 'common'}) } ${order}`;
    let found = 0;
    for (const q of probes) {
      const got = await ids(common, { q });
      expect(got).toHaveLength(10);
      const exact = bruteForce(vectors, q, 10, (i) => !rare(i));
      found += got.filter((id) => exact.includes(id)).length;
    }
    expect(found / (10 * probes.length), `seed ${seed}`).toBeGreaterThanOrEqual(0.8);
  });

  it('exactly k pass, and fewer than k: all of them, in the exact order', async () => {
    const q = probes[0]!;
    const exactlyTen = "MATCH (d:Doc) WHERE d.kind = 'rare' AND d.id < 1000 RETURN d.id ORDER BY vector_distance(d.emb, $q, 'euclidean') LIMIT 10";
    expect(await ids(exactlyTen, { q })).toEqual(bruteForce(vectors, q, 10, (i) => rare(i) && i < 1000));
    const three = "MATCH (d:Doc)-[:IN]->(t:Topic {name: 'rare'}) WHERE d.id < 300 RETURN d.id ORDER BY vector_distance(d.emb, $q, 'euclidean') LIMIT 10";
    const got = await ids(three, { q });
    expect(got).toHaveLength(3);
    expect(got).toEqual(bruteForce(vectors, q, 10, (i) => rare(i) && i < 300));
  });
});
