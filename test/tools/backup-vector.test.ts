import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createGrpcClient } from '../../src/api/grpc-client.js';
import { QueryService } from '../../src/gen/weft/v1/query_pb.js';
import { open } from '../../src/index.js';
import { loadCheckpoint } from '../../src/projections/checkpoint.js';
import type { VectorIndex } from '../../src/projections/search/vector-index.js';
import type { StateMachine } from '../../src/projections/state-machine.js';
import { restoreBackup } from '../../src/server/backup/restore.js';
import { takeBackup } from '../../src/server/backup/take-backup.js';
import { defaultConfig } from '../../src/server/config.js';
import { startServer } from '../../src/server/server.js';
import { testSeed } from '../support/prng.js';
import { bruteForce, clusteredVectors } from '../search/data.js';

/**
 * A backup carries the HNSW graphs saved with its checkpoint, and a restore puts them where open()
 * finds them: the restored database opens without rebuilding any vector index (no rebuild warning,
 * the graph read from its file) and answers the source's top-k, vectors written after the
 * checkpoint (the backup's log tail) included, near the exact top-k and the same on every restore.
 *
 * The same as the source, not just near it: HNSW draws each new element's level from a generator
 * the saved file does not carry, so the source reads its graph back from the file it saved
 * (VectorIndex.reloadSaved) and links the tail's vectors as the restored graph does.
 */
const d = 16;
const query = "MATCH (p:P) RETURN p.id ORDER BY vector_distance(p.v, $q, 'euclidean') LIMIT 10";
const dir = mkdtempSync(join(tmpdir(), 'weft-backup-vector-'));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function vectorIndexOf(sm: StateMachine): VectorIndex {
  for (const gen of sm.schema.indexes.all()) if (gen.search?.kind === 'vector') return gen.search;
  throw new Error('no vector index');
}

describe('backup and restore of vector indexes', () => {
  it('the restored database reads the backed-up graph instead of rebuilding it, answers the source\'s top-k, near the exact one, and the same on every restore', async () => {
    const seed = testSeed('backup vector graphs');
    const vs = clusteredVectors(seed, 1200, d, 10);
    const probes = clusteredVectors(seed + 1, 40, d, 10);
    const alive = (i: number) => i % 9 !== 0;
    const exact = probes.map((p) => bruteForce(vs, p, 10, alive).map(BigInt));
    const recall = (answers: bigint[][]) => {
      let found = 0;
      for (const [i, a] of answers.entries()) found += a.filter((id) => exact[i]!.includes(id)).length;
      return found / (10 * answers.length);
    };
    const source = await startServer({ ...defaultConfig, data_dir: join(dir, 'source'), grpc_port: 0, rest_port: 0, ops_port: 0 }, () => {});
    const q = createGrpcClient(QueryService, `127.0.0.1:${source.ports.grpc}`);
    const vec = (v: Float32Array) => ({ kind: { case: 'vectorValue' as const, value: { values: [...v] } } });
    const ids = async (v: Float32Array) =>
      (await q.executeCypher({ query, parameters: { q: vec(v) } })).rows.map((r) => {
        const k = r.values[0]?.kind;
        return k?.case === 'intValue' ? k.value : -1n;
      });
    let want: bigint[][];
    try {
      const write = async (from: number, to: number) =>
        source.db.write((ws) => {
          for (let i = from; i < to; i++) ws.createNode(['P'], new Map<string, bigint | Float32Array>([['id', BigInt(i)], ['v', vs[i]!]]));
        }, { concern: { acks: 1, level: 'journal', timeout_ms: 0 } });
      await write(0, 1000);
      await q.executeCypher({ query: "CREATE VECTOR INDEX p_v FOR (p:P) ON (p.v) OPTIONS {indexConfig: {`vector.dimensions`: 16, `vector.similarity_function`: 'euclidean'}}" });
      source.db.checkpoint();
      // After the checkpoint: the backup's tail, applied by the restore on top of the saved graph.
      await write(1000, vs.length);
      await q.executeCypher({ query: 'MATCH (p:P) WHERE p.id % 9 = 0 DELETE p' });
      want = [];
      for (const p of probes) want.push(await ids(p));

      const manifest = await takeBackup(`127.0.0.1:${source.ports.ops}`, join(dir, 'backup'));
      const graphFiles = Object.keys(manifest.files).filter((f) => f.startsWith('vector-'));
      console.log(`backup: checkpoint at ${manifest.checkpoint_index}, ${manifest.entries} tail entries, graph files ${graphFiles.join(', ')}`);
      expect(graphFiles.map((f) => f.slice(-5)).sort()).toEqual(['.hnsw', '.meta']);
      expect(manifest.entries).toBeGreaterThan(0);
    } finally {
      q.close();
      await source.stop();
    }

    const restored = join(dir, 'restored');
    const result = await restoreBackup(join(dir, 'backup'), restored);
    expect(result.vector_rebuilds).toEqual([]);
    expect((await restoreBackup(join(dir, 'backup'), join(dir, 'restored-again'))).vector_rebuilds).toEqual([]);
    // What open() will load: the restore's checkpoint with the graph saved beside it.
    expect(readdirSync(join(restored, 'checkpoints')).filter((f) => f.startsWith('vector-')).length).toBe(2);
    const warnings: string[] = [];
    expect(vectorIndexOf(loadCheckpoint(join(restored, 'checkpoints'), (l) => warnings.push(l))).origin).toBe('saved');
    expect(warnings).toEqual([]);

    const answersOf = async (path: string): Promise<bigint[][]> => {
      const db = await open(path);
      try {
        expect(vectorIndexOf(db.database.sm).origin).toBe('saved');
        const out: bigint[][] = [];
        for (const p of probes) out.push((await db.query(query, { q: p })).rows.map((r) => r[0] as bigint));
        return out;
      } finally {
        await db.close();
      }
    };
    const got = await answersOf(restored);
    console.log(`recall@10 over ${probes.length} probes: source ${recall(want).toFixed(3)}, restored ${recall(got).toFixed(3)}`);
    // A graph whose ids were mapped to the wrong nodes, or vectors, would answer far off the exact ones.
    expect(recall(got), `seed ${seed}`).toBeGreaterThanOrEqual(0.7);
    for (const [i, a] of got.entries()) expect(a, `probe ${i} (seed ${seed})`).toEqual(want[i]);
    expect(await answersOf(join(dir, 'restored-again')), `seed ${seed}`).toEqual(got);
  }, 60_000);

  it('a backup without graph files (format 1) still restores: the index is rebuilt, and the restore says so', async () => {
    // The first test's backup with its graph files left out of the manifest and the directory.
    const copy = join(dir, 'backup-no-graphs');
    cpSync(join(dir, 'backup'), copy, { recursive: true });
    const manifest = JSON.parse(readFileSync(join(copy, 'backup.json'), 'utf8')) as { format: number; files: Record<string, unknown> };
    for (const name of Object.keys(manifest.files).filter((f) => f.startsWith('vector-'))) {
      delete manifest.files[name];
      unlinkSync(join(copy, name));
    }
    writeFileSync(join(copy, 'backup.json'), JSON.stringify({ ...manifest, format: 1 }));
    const result = await restoreBackup(copy, join(dir, 'restored-no-graphs'));
    expect(result.vector_rebuilds).toHaveLength(1);
    expect(result.vector_rebuilds[0]).toMatch(/no graph was saved with checkpoint/);
    // The restore's own checkpoint saved the rebuilt graph: the restored database opens without rebuilding.
    const warnings: string[] = [];
    expect(vectorIndexOf(loadCheckpoint(join(dir, 'restored-no-graphs', 'checkpoints'), (l) => warnings.push(l))).origin).toBe('saved');
    expect(warnings).toEqual([]);
  });
});
