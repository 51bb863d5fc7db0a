import { copyFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { open, type Db } from '../../src/index.js';
import { decodeState, encodeState } from '../../src/log/codec.js';
import { loadCheckpoint } from '../../src/projections/checkpoint.js';
import type { StateMachine } from '../../src/projections/state-machine.js';
import type { VectorIndex } from '../../src/projections/search/vector-index.js';
import { testSeed } from '../support/prng.js';
import { bruteForce, clusteredVectors } from './data.js';

/**
 * The HNSW graph of a ready vector index is saved beside each checkpoint and read back at open
 * instead of being rebuilt. A restart answers as before; a damaged, mismatched or missing graph file
 * (as a crash between the graph save and the checkpoint leaves) is noticed, warned about, and the
 * index rebuilt from the checkpoint's nodes, so answers never depend on a file being sound.
 */
const d = 16;
const n = 1500;
const query = "MATCH (p:P) RETURN p.id ORDER BY vector_distance(p.v, $q, 'euclidean') LIMIT 10";
const dirs: string[] = [];

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function vectorIndexOf(sm: StateMachine): VectorIndex {
  for (const gen of sm.schema.indexes.all()) if (gen.search?.kind === 'vector') return gen.search;
  throw new Error('no vector index');
}

async function answers(db: Db, probes: readonly Float32Array[]): Promise<number[][]> {
  const out: number[][] = [];
  for (const q of probes) out.push((await db.query(query, { q })).rows.map((r) => Number(r[0] as bigint)));
  return out;
}

/**
 * A directory holding `n` clustered vectors under a vector index, some of them deleted and some
 * moved after the build (mark-deleted and re-linked slots), closed (so checkpointed).
 */
async function seeded(seed: number): Promise<{ dir: string; vs: Float32Array[]; probes: Float32Array[]; live: (i: number) => boolean }> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-vector-saved-'));
  dirs.push(dir);
  // The probes are further points of the same clusters.
  const all = clusteredVectors(seed, n + 6, d, 12);
  const vs = all.slice(0, n);
  const probes = all.slice(n);
  const db = await open(dir);
  await db.database.write((ws) => {
    vs.forEach((v, i) => ws.createNode(['P'], new Map<string, bigint | Float32Array>([['id', BigInt(i)], ['v', v]])));
  }, { concern: { acks: 1, level: 'journal', timeout_ms: 0 } });
  await db.query("CREATE VECTOR INDEX p_v FOR (p:P) ON (p.v) OPTIONS {indexConfig: {`vector.dimensions`: 16, `vector.similarity_function`: 'euclidean'}}");
  await db.query('MATCH (p:P) WHERE p.id % 7 = 0 DELETE p');
  const moved = clusteredVectors(seed + 2, n, d, 12);
  for (let i = 1; i < n; i += 11) {
    await db.query('MATCH (p:P {id: $id}) SET p.v = $v', { id: BigInt(i), v: moved[i]! });
    vs[i] = moved[i]!;
  }
  await db.close();
  return { dir, vs, probes, live: (i) => i % 7 !== 0 };
}

/** The index answers every probe with at least 9 of the 10 nearest live vectors (brute force). */
async function expectNearest(db: Db, vs: readonly Float32Array[], probes: readonly Float32Array[], live: (i: number) => boolean): Promise<void> {
  const got = await answers(db, probes);
  probes.forEach((q, i) => {
    const exact = bruteForce(vs, q, 10, live);
    expect(got[i]!.filter((x) => exact.includes(x)).length).toBeGreaterThanOrEqual(9);
  });
}

function graphFiles(dir: string): string[] {
  return readdirSync(join(dir, 'checkpoints')).filter((f) => f.startsWith('vector-')).sort();
}

/** The newest checkpoint's graph file with suffix `ext`. */
function newest(dir: string, ext: 'hnsw' | 'meta'): string {
  const files = graphFiles(dir).filter((f) => f.endsWith(`.${ext}`));
  return join(dir, 'checkpoints', files[files.length - 1]!);
}

function loadWarnings(dir: string): { sm: StateMachine; warnings: string[] } {
  const warnings: string[] = [];
  const sm = loadCheckpoint(join(dir, 'checkpoints'), (l) => warnings.push(l));
  return { sm, warnings };
}

describe('the saved HNSW graph', () => {
  it('is read back at open: the reopened index answers as before, near as brute force, and keeps taking writes', async () => {
    const seed = testSeed('vector saved graph reopen');
    const { dir, vs, probes, live } = await seeded(seed);
    expect(graphFiles(dir).some((f) => f.endsWith('.hnsw'))).toBe(true);
    const { sm, warnings } = loadWarnings(dir);
    expect(warnings).toEqual([]);
    expect(vectorIndexOf(sm).origin).toBe('saved');
    expect(vectorIndexOf(sm).deletedCount()).toBeGreaterThan(0);

    // The answers of a graph built from scratch are the reference: the saved one must give the same.
    const db = await open(dir);
    expect(vectorIndexOf(db.database.sm).origin).toBe('saved');
    await expectNearest(db, vs, probes, live);
    // The new vector sits inside a cluster, beside a live one (a far outlier, which the graph may not
    // reach, is test/search/vector-recent.test.ts's matter).
    const fresh = vs[2]!.map((x) => x + 1e-3);
    await db.query('CREATE (:P {id: 99999, v: $v})', { v: fresh });
    expect((await db.query(query, { q: fresh })).rows[0]).toEqual([99999n]);
    const before = await answers(db, probes);
    await db.close();

    const again = await open(dir);
    expect(vectorIndexOf(again.database.sm).origin).toBe('saved');
    expect((await again.query(query, { q: fresh })).rows[0]).toEqual([99999n]);
    expect(await answers(again, probes.slice(1))).toEqual(before.slice(1));
    await again.close();

    // Nothing changed the index since it was read: that close linked the file instead of writing it.
    const [older, newer] = graphFiles(dir).filter((f) => f.endsWith('.hnsw')).map((f) => statSync(join(dir, 'checkpoints', f)));
    expect(newer!.ino).toBe(older!.ino);
    const third = await open(dir);
    expect(vectorIndexOf(third.database.sm).origin).toBe('saved');
    expect(await answers(third, probes.slice(1))).toEqual(before.slice(1));
    await third.close();
  });

  it('damaged (graph or meta), from another checkpoint, or holding other vectors: rebuilt with a warning, still right', async () => {
    const seed = testSeed('vector saved graph damage');
    const { dir, vs, probes, live } = await seeded(seed);
    /** A copy of the closed directory whose newest graph files `damage` rewrites. */
    const damaged = (damage: (files: { hnsw: string; meta: string }) => void): string => {
      const copy = mkdtempSync(join(tmpdir(), 'weft-vector-saved-copy-'));
      dirs.push(copy);
      cpSync(dir, copy, { recursive: true });
      damage({ hnsw: newest(copy, 'hnsw'), meta: newest(copy, 'meta') });
      return copy;
    };
    const rebuiltSaying = async (at: string, why: RegExp) => {
      const { sm, warnings } = loadWarnings(at);
      expect(vectorIndexOf(sm).origin).toBe('built');
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/vector index on :P\(v\) generation \d+: /);
      expect(warnings[0]).toMatch(why);
      const db = await open(at);
      expect(vectorIndexOf(db.database.sm).origin).toBe('built');
      await expectNearest(db, vs, probes, live);
      // Closing checkpoints again, with a sound graph: the next open reads it.
      await db.close();
      expect(vectorIndexOf(loadWarnings(at).sm).origin).toBe('saved');
    };

    // A flipped byte in the middle of the graph file: its CRC fails before hnswlib reads it.
    await rebuiltSaying(
      damaged(({ hnsw }) => {
        const bad = readFileSync(hnsw);
        bad[bad.length >> 1] = bad[bad.length >> 1]! ^ 0xff;
        writeFileSync(hnsw, bad);
      }),
      /graph file is damaged/,
    );
    await rebuiltSaying(
      damaged(({ meta }) => writeFileSync(meta, readFileSync(meta).subarray(0, -3))),
      /meta file is damaged/,
    );
    /** Rewrites the meta with `changed` fields under a valid CRC: sound files that lie. */
    const reseal = (meta: string, changed: (body: Record<string, unknown>) => Record<string, unknown>) => {
      const body = decodeState(readFileSync(meta).subarray(4)) as Record<string, unknown>;
      const bytes = encodeState({ ...body, ...changed(body) });
      const file = Buffer.alloc(4 + bytes.byteLength);
      file.writeUInt32LE(crc32(bytes), 0);
      file.set(bytes, 4);
      writeFileSync(meta, file);
    };
    // A graph saved with an older checkpoint, renamed to pass for the newest one.
    await rebuiltSaying(
      damaged(({ meta }) => reseal(meta, (b) => ({ checkpoint_index: (b['checkpoint_index'] as number) - 1 }))),
      /belongs to checkpoint/,
    );
    await rebuiltSaying(
      damaged(({ meta }) => reseal(meta, () => ({ dimensions: 8 }))),
      /other index settings/,
    );
    // Vouching for other vectors than the checkpoint's nodes hold.
    await rebuiltSaying(
      damaged(({ meta }) => reseal(meta, (b) => ({ facts: { ...(b['facts'] as object), digest: (((b['facts'] as { digest: number }).digest + 1) >>> 0) } }))),
      /does not match its nodes: its vectors differ/,
    );
  });

  it('what a kill -9 can leave between the graph save and the checkpoint is safe: missing meta, half-written files, a graph without its checkpoint', async () => {
    const seed = testSeed('vector saved graph crash');
    const { dir, vs, probes, live } = await seeded(seed);
    const ckpts = join(dir, 'checkpoints');

    // Killed after the graph file was renamed into place, before its meta, with a half-written
    // graph of the next save beside it: no graph to trust.
    const hnsw = newest(dir, 'hnsw');
    copyFileSync(hnsw, `${hnsw}.tmp`);
    unlinkSync(newest(dir, 'meta'));
    const { sm, warnings } = loadWarnings(dir);
    expect(vectorIndexOf(sm).origin).toBe('built');
    expect(warnings[0]).toMatch(/no graph was saved with checkpoint/);
    const db1 = await open(dir);
    await expectNearest(db1, vs, probes, live);
    await db1.close();
    // That close checkpointed with its graph and swept the half-written leftover.
    expect(graphFiles(dir).some((f) => f.endsWith('.tmp'))).toBe(false);
    expect(vectorIndexOf(loadWarnings(dir).sm).origin).toBe('saved');

    // Killed after the graphs of a newer checkpoint were saved, before that checkpoint was written:
    // its graph files are orphans, the older checkpoint loads with its own graph.
    await (await open(dir)).close();
    const all = readdirSync(ckpts).filter((f) => f.endsWith('.ckpt')).sort();
    expect(all.length).toBe(2);
    const orphan = Number.parseInt(all[1]!.slice('checkpoint-'.length), 10);
    unlinkSync(join(ckpts, all[1]!));
    const older = loadWarnings(dir);
    expect(older.sm.committedIndex).toBeLessThan(orphan);
    expect(older.warnings).toEqual([]);
    expect(vectorIndexOf(older.sm).origin).toBe('saved');
    const db2 = await open(dir);
    await expectNearest(db2, vs, probes, live);
    await db2.close();
    // Only graphs of kept checkpoints remain.
    const kept = new Set(readdirSync(ckpts).filter((f) => f.endsWith('.ckpt')).map((f) => f.slice('checkpoint-'.length, -'.ckpt'.length)));
    for (const f of graphFiles(dir)) expect(kept.has(f.slice('vector-'.length, 'vector-'.length + 20))).toBe(true);
  });

  it('a crash after writes past the last checkpoint: the restart links them into the saved graph as the member did, and answers as before', async () => {
    const seed = testSeed('vector saved graph crash tail');
    const dir = mkdtempSync(join(tmpdir(), 'weft-vector-tail-'));
    const image = `${dir}-image`;
    dirs.push(dir, image);
    // More vectors after the checkpoint than the graph's exactly searched list holds, so that some
    // are answered through the graph alone.
    const all = clusteredVectors(seed, 1800 + 40, d, 10);
    const vs = all.slice(0, 1800);
    const probes = all.slice(1800);
    const db = await open(dir);
    const write = (from: number, to: number) =>
      db.database.write((ws) => {
        for (let i = from; i < to; i++) ws.createNode(['P'], new Map<string, bigint | Float32Array>([['id', BigInt(i)], ['v', vs[i]!]]));
      }, { concern: { acks: 1, level: 'journal', timeout_ms: 0 } });
    let before: number[][];
    try {
      await write(0, 1000);
      await db.query("CREATE VECTOR INDEX p_v FOR (p:P) ON (p.v) OPTIONS {indexConfig: {`vector.dimensions`: 16, `vector.similarity_function`: 'euclidean'}}");
      db.database.checkpoint();
      await write(1000, 1800);
      await db.query('MATCH (p:P) WHERE p.id % 13 = 0 DELETE p');
      before = await answers(db, probes);
      // What a kill -9 leaves: the journaled log past the checkpoint, no checkpoint at close.
      cpSync(dir, image, { recursive: true });
      db.database.checkpoint();
    } finally {
      await db.close();
    }
    const again = await open(image);
    try {
      expect(vectorIndexOf(again.database.sm).origin).toBe('saved');
      expect(await answers(again, probes), `seed ${seed}`).toEqual(before);
      // The very graph: saved again, the restarted member's file is the one the member saved.
      again.database.checkpoint();
      const newest = (at: string) => graphFiles(at).filter((f) => f.endsWith('.hnsw')).at(-1)!;
      expect(readFileSync(join(image, 'checkpoints', newest(image))).equals(readFileSync(join(dir, 'checkpoints', newest(dir))))).toBe(true);
      // Near the exact answers too (a sanity bound: clustered data can cost HNSW a probe or two).
      const found = before.reduce((sum, a, i) => sum + a.filter((x) => bruteForce(vs, probes[i]!, 10, (j) => j % 13 !== 0).includes(x)).length, 0);
      expect(found / (10 * probes.length)).toBeGreaterThanOrEqual(0.7);
    } finally {
      await again.close();
    }
  });
});
