import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { open, type Db } from '../../src/index.js';
import type { Value } from '../../src/common/values/value.js';
import { prng, testSeed } from '../support/prng.js';
import { bruteForce, clusteredVectors } from './data.js';

/**
 * Full-text search through Cypher, and hybrid queries: text_match as a filter answered from the text
 * index (compared with a plain scan of the texts), text_score as BM25, phrases and prefixes, then
 * text_match with vector_distance in one query, and both with a graph pattern.
 */
const words = ['graph', 'vector', 'search', 'index', 'node', 'edge', 'query', 'log', 'raft', 'replay', 'snapshot', 'cluster'];
const n = 400;
const seed = testSeed('text query');
const r = prng(seed);
const bodies = [...Array(n).keys()].map(() => [...Array(4 + Math.floor(r() * 8)).keys()].map(() => words[Math.floor(r() * words.length)]!).join(' '));
const vectors = clusteredVectors(seed, n, 4, 5);

let dir: string;
let db: Db;

async function ids(text: string, params: Record<string, Value> = {}): Promise<number[]> {
  return (await db.query(text, params)).rows.map((row) => Number(row[0] as bigint));
}

const hasWord = (i: number, w: string): boolean => bodies[i]!.split(' ').includes(w);
const hasPhrase = (i: number, p: string): boolean => ` ${bodies[i]!} `.includes(` ${p} `);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'weft-text-query-'));
  db = await open(dir);
  const rows = bodies.map((body, i) => new Map<string, Value>([['id', BigInt(i)], ['body', body], ['emb', vectors[i]!], ['author', `a${i % 4}`]]));
  await db.query('UNWIND $rows AS r CREATE (d:Doc {id: r.id, body: r.body, emb: r.emb}) MERGE (a:Author {name: r.author}) CREATE (d)-[:BY]->(a)', { rows });
});

afterAll(async () => {
  await db?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('full-text search through Cypher', () => {
  it('text_match needs a text index', async () => {
    await expect(db.query("MATCH (d:Doc) WHERE text_match(d.body, 'graph') RETURN d.id")).rejects.toMatchObject({ code: 'FAILED_PRECONDITION' });
  });

  it('the planner starts from the text index, and text_match answers as a scan of the texts would', async () => {
    await db.query("CREATE FULLTEXT INDEX doc_body FOR (d:Doc) ON EACH [d.body] OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard'}}");
    const q = "MATCH (d:Doc) WHERE text_match(d.body, $q) RETURN d.id ORDER BY d.id";
    expect(db.explain(q).details.explain).toContain('NodeIndexTextSearch');
    expect(db.explain(q).details.explain).toContain('index: doc_body');
    const all = [...Array(n).keys()];
    expect(await ids(q, { q: 'raft' })).toEqual(all.filter((i) => hasWord(i, 'raft')));
    expect(await ids(q, { q: 'raft snapshot' })).toEqual(all.filter((i) => hasWord(i, 'raft') && hasWord(i, 'snapshot')));
    expect(await ids(q, { q: '"vector search"' })).toEqual(all.filter((i) => hasPhrase(i, 'vector search')));
    expect(await ids(q, { q: 'rep*' })).toEqual(all.filter((i) => hasWord(i, 'replay')));
    expect(await ids(q, { q: 'Cluster' })).toEqual(all.filter((i) => hasWord(i, 'cluster')));
  });

  it('text_score is BM25 (k1 1.2, b 0.75) over the indexed documents, as computed here from the texts', async () => {
    const rows = (await db.query("MATCH (d:Doc) WHERE text_match(d.body, 'log') RETURN d.id, text_score(d.body, 'log') AS s ORDER BY s DESC, d.id LIMIT 5")).rows;
    const lengths = bodies.map((b) => b.split(' ').length);
    const avg = lengths.reduce((a, b) => a + b, 0) / n;
    const df = bodies.filter((_, i) => hasWord(i, 'log')).length;
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    const bm25 = (i: number) => {
      const tf = bodies[i]!.split(' ').filter((w) => w === 'log').length;
      return (idf * tf * 2.2) / (tf + 1.2 * (1 - 0.75 + (0.75 * lengths[i]!) / avg));
    };
    const want = [...Array(n).keys()]
      .filter((i) => hasWord(i, 'log'))
      .map((i) => ({ i, s: bm25(i) }))
      .sort((a, b) => b.s - a.s || a.i - b.i)
      .slice(0, 5);
    expect(rows.map((row) => Number(row[0] as bigint))).toEqual(want.map((w) => w.i));
    rows.forEach((row, k) => expect(row[1] as number).toBeCloseTo(want[k]!.s, 9));
  });

  it('writes keep the index current; a reopen rebuilds the same answers', async () => {
    await db.query("CREATE (:Doc {id: 5000, body: 'zebra crossing'})");
    expect(await ids("MATCH (d:Doc) WHERE text_match(d.body, 'zebra') RETURN d.id")).toEqual([5000]);
    await db.query("MATCH (d:Doc {id: 5000}) SET d.body = 'horse crossing'");
    expect(await ids("MATCH (d:Doc) WHERE text_match(d.body, 'zebra') RETURN d.id")).toEqual([]);
    const before = await ids("MATCH (d:Doc) WHERE text_match(d.body, 'crossing') RETURN d.id ORDER BY d.id");
    await db.close();
    db = await open(dir);
    expect(await ids("MATCH (d:Doc) WHERE text_match(d.body, 'crossing') RETURN d.id ORDER BY d.id")).toEqual(before);
    await db.query('MATCH (d:Doc {id: 5000}) DELETE d');
    expect(await ids("MATCH (d:Doc) WHERE text_match(d.body, 'horse') RETURN d.id")).toEqual([]);
  });

  it('the english analyzer stems query and documents alike', async () => {
    await db.query("CREATE (:Note {text: 'The indexes were replayed'})");
    await db.query("CREATE FULLTEXT INDEX note_text FOR (n:Note) ON EACH [n.text] OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}}");
    expect((await db.query("MATCH (n:Note) WHERE text_match(n.text, 'indexing replay') RETURN count(n)")).rows).toEqual([[1n]]);
    await expect(db.query("CREATE FULLTEXT INDEX bad FOR (n:Note) ON EACH [n.text] OPTIONS {indexConfig: {`fulltext.analyzer`: 'klingon'}}")).rejects.toMatchObject({
      message: expect.stringContaining('fulltext.analyzer'),
    });
  });
});

describe('hybrid queries', () => {
  it('text_match and vector_distance in one query: the text filter, then the nearest', async () => {
    await db.query("CREATE VECTOR INDEX doc_emb FOR (d:Doc) ON (d.emb) OPTIONS {indexConfig: {`vector.dimensions`: 4, `vector.similarity_function`: 'euclidean'}}");
    const q = clusteredVectors(seed + 9, 1, 4, 5)[0]!;
    const text = "MATCH (d:Doc) WHERE text_match(d.body, 'edge') RETURN d.id ORDER BY vector_distance(d.emb, $q, 'euclidean') LIMIT 5";
    expect(db.explain(text).details.explain).toContain('VectorSearch');
    expect(await ids(text, { q })).toEqual(bruteForce(vectors, q, 5, (i) => hasWord(i, 'edge')));
  });

  it('with a graph pattern: documents of one author matching a text, nearest first', async () => {
    const q = clusteredVectors(seed + 10, 1, 4, 5)[0]!;
    const text =
      "MATCH (d:Doc)-[:BY]->(a:Author {name: 'a1'}) WHERE text_match(d.body, 'query') RETURN d.id, text_score(d.body, 'query') > 0 AS scored ORDER BY vector_distance(d.emb, $q, 'euclidean') LIMIT 4";
    const rows = (await db.query(text, { q })).rows;
    expect(rows.map((row) => Number(row[0] as bigint))).toEqual(bruteForce(vectors, q, 4, (i) => i % 4 === 1 && hasWord(i, 'query')));
    expect(rows.every((row) => row[1] === true)).toBe(true);
    // From the author's side, expanding to documents, then the vector order.
    const fromAuthor =
      "MATCH (a:Author {name: 'a2'})<-[:BY]-(d:Doc) WHERE text_match(d.body, 'graph') WITH d ORDER BY vector_distance(d.emb, $q, 'euclidean') LIMIT 3 RETURN d.id";
    expect(await ids(fromAuthor, { q })).toEqual(bruteForce(vectors, q, 3, (i) => i % 4 === 2 && hasWord(i, 'graph')));
  });
});
