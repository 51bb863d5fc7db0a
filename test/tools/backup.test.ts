import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGrpcClient } from '../../src/api/grpc-client.js';
import { GraphService } from '../../src/gen/weft/v1/graph_pb.js';
import { QueryService } from '../../src/gen/weft/v1/query_pb.js';
import { ScalarType, SchemaService } from '../../src/gen/weft/v2/schema_pb.js';
import { restoreBackup } from '../../src/server/backup/restore.js';
import { ENGINE_FORMAT, predecessorFormat } from '../../src/log/engine-format.js';
import { takeBackup } from '../../src/server/backup/take-backup.js';
import { defaultConfig } from '../../src/server/config.js';
import { startServer } from '../../src/server/server.js';
import { readTrailer } from '../../src/server/blobs/pack-store.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { prng, testSeed } from '../support/prng.js';

/**
 * Online backup and restore between real processes: writers keep writing while `weft backup` copies
 * a member, and the member restored from that copy holds exactly what the source held AS OF the
 * backup's commit_ts: the same nodes, properties and relationships, no more, no less.
 */
const repo = fileURLToPath(new URL('../../', import.meta.url));
const command_wait_ms = 60_000;

function weft(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_NO_WARNINGS: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`weft ${args.join(' ')} did not finish within ${command_wait_ms} ms`));
    }, command_wait_ms);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The chunk ids a pack file's trailer names. */
function packsOf(path: string): string[] {
  const t = readTrailer(path);
  return t.kind === 'sealed' ? t.entries.map((e) => e.chunk_id) : [];
}

const nodes_query = 'MATCH (n) RETURN id(n) AS id, labels(n) AS labels, properties(n) AS props ORDER BY id';
const edges_query = 'MATCH (a)-[r]->(b) RETURN id(r) AS id, type(r) AS type, id(a) AS a, id(b) AS b, properties(r) AS props ORDER BY id';

describe('online backup and restore', () => {
  let dir: string;
  let source: ServerProcess;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'weft-backup-'));
    // Frequent checkpoints, so the backup is a checkpoint plus a tail and compaction runs meanwhile.
    source = await startServerProcess(join(dir, 'source'), ['--checkpoint-interval-entries', '40']);
  });
  afterAll(async () => {
    await source.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writers never stop during the backup, and the restored member equals the source AS OF the backup commit_ts', async () => {
    const seed = testSeed('backup-restore');
    const random = prng(seed);
    const query = createGrpcClient(QueryService, source.grpc);
    let writing = true;
    let backupRunning = false;
    let writesDuringBackup = 0;
    let writes = 0;
    const writer = async (w: number): Promise<void> => {
      for (let i = 0; writing; i++) {
        const pick = random();
        const parameters = { w: { kind: { case: 'intValue' as const, value: BigInt(w) } }, i: { kind: { case: 'intValue' as const, value: BigInt(i) } } };
        if (pick < 0.6 || i < 5) await query.executeCypher({ query: 'CREATE (:Item {w: $w, i: $i, name: "item-" + toString($i)})', parameters });
        else if (pick < 0.8) await query.executeCypher({ query: 'MATCH (a:Item {w: $w, i: $i - 1}), (b:Item {w: $w, i: $i - 3}) CREATE (a)-[:NEXT {at: $i}]->(b)', parameters });
        else if (pick < 0.9) await query.executeCypher({ query: 'MATCH (a:Item {w: $w}) WHERE a.i = $i - 2 SET a.touched = $i, a:Touched', parameters });
        else await query.executeCypher({ query: 'MATCH (a:Item {w: $w}) WHERE a.i = $i - 4 DETACH DELETE a', parameters });
        writes++;
        if (backupRunning) writesDuringBackup++;
      }
    };
    // The catalog travels too: a label definition and a constraint made before the backup.
    await query.executeCypher({ query: 'CREATE CONSTRAINT item_w FOR (n:Item) REQUIRE n.w IS NOT NULL' });
    const schemaSource = createGrpcClient(SchemaService, source.grpc);
    await schemaSource.createLabel({ name: 'Config', properties: [{ name: 'key', type: { kind: { case: 'scalar', value: ScalarType.STRING } }, required: true }], schemaMode: 1 });
    const writers = [0, 1, 2, 3].map(writer);
    try {
      while (writes < 300) await new Promise((r) => setTimeout(r, 20));
      backupRunning = true;
      const backup = await weft(['backup', '--from', source.ops.replace('http://', ''), '--to', join(dir, 'backup')]);
      backupRunning = false;
      expect(backup.stderr).toBe('');
      expect(backup.code).toBe(0);
      // Keep writing a little past the backup, so the source moves on from it.
      const after = writes;
      while (writes < after + 50) await new Promise((r) => setTimeout(r, 20));
    } finally {
      writing = false;
      await Promise.all(writers);
    }
    const manifest = JSON.parse(readFileSync(join(dir, 'backup', 'backup.json'), 'utf8')) as { commit_ts: number; checkpoint_index: number; entries: number; last_index: number; deployment: string };
    console.log(`seed ${seed}: ${writes} writes, ${writesDuringBackup} while the backup ran; backup: checkpoint at ${manifest.checkpoint_index}, ${manifest.entries} tail entries, up to ${manifest.last_index}`);
    expect(writesDuringBackup).toBeGreaterThan(0);
    expect(manifest.checkpoint_index).toBeGreaterThan(0);

    const restore = await weft(['restore', '--from', join(dir, 'backup'), '--data-dir', join(dir, 'restored')]);
    expect(restore.stderr).toBe('');
    expect(restore.code).toBe(0);
    const restored = await startServerProcess(join(dir, 'restored'));
    const there = createGrpcClient(QueryService, restored.grpc);
    try {
      const asOf = `AS OF TIMESTAMP ${manifest.commit_ts} `;
      for (const q of [nodes_query, edges_query]) {
        const want = await query.executeCypher({ query: asOf + q });
        const got = await there.executeCypher({ query: q });
        expect(got.columns).toEqual(want.columns);
        expect(want.rows.length).toBeGreaterThan(0);
        expect(got.rows.length).toBe(want.rows.length);
        expect(got.rows).toEqual(want.rows);
      }
      const schemaRestored = createGrpcClient(SchemaService, restored.grpc);
      expect((await schemaRestored.listConstraints({})).constraints).toEqual((await schemaSource.listConstraints({})).constraints);
      const config = (await schemaRestored.listLabels({})).labels.find((l) => l.name === 'Config');
      expect(config).toEqual((await schemaSource.listLabels({})).labels.find((l) => l.name === 'Config'));
      expect(config?.declared).toBe(true);
      schemaRestored.close();
      schemaSource.close();
      const now = await query.executeCypher({ query: 'MATCH (n) RETURN count(n) AS n' });
      const then = await query.executeCypher({ query: `AS OF TIMESTAMP ${manifest.commit_ts} MATCH (n) RETURN count(n) AS n` });
      expect(now.rows[0]).not.toEqual(then.rows[0]);

      // The restored member is a deployment of its own, and takes writes.
      const graphSource = createGrpcClient(GraphService, source.grpc);
      const graphRestored = createGrpcClient(GraphService, restored.grpc);
      const issuer = new Uint8Array(16).fill(7);
      const a = await graphSource.enrollIssuer({ issuer });
      const b = await graphRestored.enrollIssuer({ issuer });
      expect(Buffer.from(a.deployment).toString('hex')).toBe(manifest.deployment);
      expect(Buffer.from(b.deployment).toString('hex')).not.toBe(manifest.deployment);
      const created = await there.executeCypher({ query: 'CREATE (n:AfterRestore) RETURN id(n) AS id' });
      expect(created.rows.length).toBe(1);
      graphSource.close();
      graphRestored.close();
    } finally {
      query.close();
      there.close();
      await restored.stop();
    }
  }, 180_000);

  it('a copy of the backup with one byte flipped is refused at restore with DATA_LOSS, and no directory is made', async () => {
    const copy = join(dir, 'backup-damaged');
    cpSync(join(dir, 'backup'), copy, { recursive: true });
    // The log tail may be empty (a checkpoint taken at the backup's last entry); the checkpoint never is.
    const tail = join(copy, 'log-tail.bin');
    const checkpoint = join(copy, readdirSync(copy).find((name) => name.endsWith('.ckpt'))!);
    const damaged = readFileSync(tail).byteLength > 0 ? tail : checkpoint;
    const bytes = readFileSync(damaged);
    bytes[bytes.byteLength - 1] = bytes[bytes.byteLength - 1]! ^ 0xff;
    writeFileSync(damaged, bytes);
    await expect(restoreBackup(copy, join(dir, 'restored-damaged'))).rejects.toMatchObject({ code: 'DATA_LOSS', reason: 'BACKUP_DAMAGED', metadata: { file: damaged } });
    expect(existsSync(join(dir, 'restored-damaged'))).toBe(false);
  });

  it('a backup of the predecessor engine format restores into a directory of this release; an unknown format is refused', async () => {
    const manifestOf = (d: string): Record<string, unknown> => JSON.parse(readFileSync(join(d, 'backup.json'), 'utf8')) as Record<string, unknown>;
    expect(manifestOf(join(dir, 'backup'))['engine_format']).toBe(ENGINE_FORMAT);
    const older = join(dir, 'backup-older-format');
    cpSync(join(dir, 'backup'), older, { recursive: true });
    writeFileSync(join(older, 'backup.json'), JSON.stringify({ ...manifestOf(older), engine_format: predecessorFormat(ENGINE_FORMAT) }));
    const restored = await restoreBackup(older, join(dir, 'restored-older-format'));
    expect(restored.manifest.engine_format).toBe(predecessorFormat(ENGINE_FORMAT));
    expect(readFileSync(join(dir, 'restored-older-format', 'ENGINE_FORMAT'), 'utf8').trim()).toBe(String(ENGINE_FORMAT));
    const newer = join(dir, 'backup-newer-format');
    cpSync(join(dir, 'backup'), newer, { recursive: true });
    writeFileSync(join(newer, 'backup.json'), JSON.stringify({ ...manifestOf(newer), engine_format: ENGINE_FORMAT + 1 }));
    await expect(restoreBackup(newer, join(dir, 'restored-newer-format'))).rejects.toMatchObject({ code: 'FAILED_PRECONDITION', reason: 'ENGINE_FORMAT_MISMATCH' });
    expect(existsSync(join(dir, 'restored-newer-format'))).toBe(false);
  });

  it('a backup carries the chunks of the blobs it holds, in one pack the restored member reads', async () => {
    const server = await startServer({ ...defaultConfig, data_dir: join(dir, 'blob-source'), grpc_port: 0, rest_port: 0, ops_port: 0 }, () => {});
    const rest = `http://127.0.0.1:${server.ports.rest}`;
    const upload = async (data: Buffer): Promise<string> => {
      const res = await fetch(`${rest}/v1/blobs`, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: data });
      return ((await res.json()) as { blobId: string }).blobId;
    };
    const shared = randomBytes(256 * 1024);
    const kept = Buffer.concat([shared, randomBytes(300 * 1024)]);
    let keptId: string;
    let goneId: string;
    try {
      keptId = await upload(kept);
      goneId = await upload(Buffer.concat([shared, randomBytes(1000)]));
      expect((await fetch(`${rest}/v1/blobs/${goneId}`, { method: 'DELETE' })).status).toBe(200);
      const manifest = await takeBackup(`127.0.0.1:${server.ports.ops}`, join(dir, 'blob-backup'));
      // The kept blob's three chunks; the deleted blob's own chunk is not referenced and not carried.
      expect(manifest.files['blobs.pack']).toBeDefined();
      expect(packsOf(join(dir, 'blob-backup', 'blobs.pack'))).toHaveLength(3);
    } finally {
      await server.stop();
    }
    await restoreBackup(join(dir, 'blob-backup'), join(dir, 'blob-restored'));
    const restored = await startServer({ ...defaultConfig, data_dir: join(dir, 'blob-restored'), grpc_port: 0, rest_port: 0, ops_port: 0 }, () => {});
    try {
      const down = await fetch(`http://127.0.0.1:${restored.ports.rest}/v1/blobs/${keptId}`, { headers: { accept: 'application/octet-stream' } });
      expect(Buffer.from(await down.arrayBuffer()).equals(kept)).toBe(true);
      expect((await fetch(`http://127.0.0.1:${restored.ports.rest}/v1/blobs/${goneId}/meta`)).status).toBe(404);
    } finally {
      await restored.stop();
    }
  });

  it('with ops_backup OFF the ops port has no /backup, and weft backup says so', async () => {
    const server = await startServer({ ...defaultConfig, data_dir: join(dir, 'no-backup'), grpc_port: 0, rest_port: 0, ops_port: 0, ops_backup: 'OFF' }, () => {});
    try {
      const res = await fetch(`http://127.0.0.1:${server.ports.ops}/backup`);
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ reason: 'ROUTE_NOT_FOUND' });
      await expect(takeBackup(`127.0.0.1:${server.ports.ops}`, join(dir, 'backup-refused'))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    } finally {
      await server.stop();
    }
  });
});
