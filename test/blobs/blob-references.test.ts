import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BlobManager } from '../../src/server/blobs/blob-manager.js';
import { packName } from '../../src/server/blobs/pack-format.js';
import { Database, type DatabaseOptions } from '../../src/server/database.js';
import { failure } from '../support/failure.js';

/** Blob references kept by node properties, orphan collection, and blobs across a restart. */
const journaled = { acks: 1, level: 'journal', timeout_ms: 0 } as const;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function options(): DatabaseOptions {
  const dir = mkdtempSync(join(tmpdir(), 'weft-blobrefs-'));
  dirs.push(dir);
  return { data_dir: dir, node_id: 1, mvcc_retention_secs: 300, checkpoint_interval_entries: 1000, log_segment_bytes_max: 1 << 20 };
}

async function* once(data: Uint8Array): AsyncGenerator<Uint8Array> {
  yield data;
}

async function bytesOf(m: BlobManager, blob_id: string): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of m.chunks(m.meta(blob_id), new AbortController().signal)) parts.push(c);
  return Buffer.concat(parts);
}

function open(db: Database, now_ms?: () => number): BlobManager {
  return BlobManager.open(db, { chunk_writes_in_flight_max: 4, pack_bytes_max: 1 << 20, orphan_grace_ms: 60_000, concern: () => journaled, ...(now_ms ? { now_ms } : {}) });
}

describe('blob references and collection', () => {
  it('a BLOB property keeps its blob: unknown ids are refused, a held blob cannot be deleted until released', async () => {
    const db = await Database.open(options());
    const blobs = open(db);
    await db.submit(
      {
        kind: 'label_defined',
        name: 'Doc',
        properties: [{ name: 'file', type: { kind: 'scalar', scalar: 'BLOB' }, required: false }],
        computed: [],
        mode: 'VALIDATED',
        temporal: false,
      },
      journaled,
    );
    const up = await blobs.upload(once(randomBytes(300 * 1024)), new AbortController().signal);
    const { value: doc } = await db.write((ws) => ws.createNode(['Doc'], new Map([['file', up.blob_id]])), { concern: journaled });

    const unknown = await failure(db.write((ws) => ws.createNode(['Doc'], new Map([['file', 'ab'.repeat(32)]])), { concern: journaled }));
    expect(unknown).toMatchObject({ code: 'FAILED_PRECONDITION', reason: 'BLOB_REFERENCE_UNKNOWN' });
    // An undeclared property holding the same text is only a string: it keeps nothing alive.
    await db.write((ws) => ws.createNode(['Note'], new Map([['file', 'cd'.repeat(32)]])), { concern: journaled });

    const held = await failure(blobs.delete(up.blob_id));
    expect(held).toMatchObject({ code: 'FAILED_PRECONDITION', reason: 'BLOB_REFERENCED', metadata: { references: '1' } });
    expect(blobs.store.has(up.chunk_ids[0]!)).toBe(true);
    const pack = blobs.store.place(up.chunk_ids[0]!)!.path;

    await db.write((ws) => ws.setNodeProperties(doc.id, new Map([['file', null]]), false), { concern: journaled });
    expect(await blobs.delete(up.blob_id)).toEqual({ chunks_deleted: 2 });
    for (const c of up.chunk_ids) expect(blobs.store.has(c)).toBe(false);
    // The pack held only this blob's chunks: it went with them.
    expect(existsSync(pack)).toBe(false);
    blobs.close();
    await db.close();
  });

  it('orphans: an unreferenced chunk is collected only after the grace period; an interrupted pack and a format-2 partial file at start', async () => {
    const opts = options();
    // What a stop left: a pack never sealed, and a temporary file of the chunk files of format 2.
    mkdirSync(join(opts.data_dir, 'blobs', 'packs'), { recursive: true });
    mkdirSync(join(opts.data_dir, 'blobs', 'chunks'), { recursive: true });
    const unsealed = join(opts.data_dir, 'blobs', 'packs', packName(7));
    writeFileSync(unsealed, randomBytes(3000));
    const partial = join(opts.data_dir, 'blobs', 'chunks', `${'ab'.repeat(32)}.1-0.tmp`);
    writeFileSync(partial, randomBytes(10));
    const db = await Database.open(opts);
    let now = Date.now();
    const blobs = open(db, () => now);
    expect(await blobs.collectOrphans(0)).toEqual({ chunks_deleted: 0, temporaries_deleted: 2 });
    expect(existsSync(unsealed)).toBe(false);
    expect(existsSync(partial)).toBe(false);

    const kept = await blobs.upload(once(randomBytes(1000)), new AbortController().signal);
    const orphan = randomBytes(2000);
    const orphanId = createHash('sha256').update(orphan).digest('hex');
    expect(await blobs.store.putAll([{ chunk_id: orphanId, data: orphan }])).toBe(1);
    const orphanPack = blobs.store.place(orphanId)!.path;
    now = blobs.store.list().find((c) => c.chunk_id === orphanId)!.mtime_ms + 1000;
    expect(await blobs.collectOrphans()).toEqual({ chunks_deleted: 0, temporaries_deleted: 0 });
    now += 60_000;
    expect(await blobs.collectOrphans()).toEqual({ chunks_deleted: 1, temporaries_deleted: 0 });
    expect(blobs.store.has(orphanId)).toBe(false);
    expect(existsSync(orphanPack)).toBe(false);
    expect(blobs.store.has(kept.chunk_ids[0]!)).toBe(true);
    expect((await bytesOf(blobs, kept.blob_id)).byteLength).toBe(1000);
    blobs.close();
    await db.close();
  });

  it('restart: blobs come back from the checkpoint and from replay, with their reference counts', async () => {
    const opts = options();
    const db = await Database.open(opts);
    const blobs = open(db);
    const shared = randomBytes(256 * 1024);
    const a = await blobs.upload(once(Buffer.concat([shared, randomBytes(5)])), new AbortController().signal);
    db.checkpoint();
    const b = await blobs.upload(once(Buffer.concat([shared, randomBytes(7)])), new AbortController().signal);
    blobs.close();
    await db.close();

    const again = await Database.open(opts);
    const m = open(again);
    expect(again.sm.blobs.refCount(a.chunk_ids[0]!)).toBe(2);
    expect((await bytesOf(m, b.blob_id)).subarray(0, shared.byteLength).equals(shared)).toBe(true);
    expect(await m.delete(a.blob_id)).toEqual({ chunks_deleted: 1 });
    expect(m.store.has(a.chunk_ids[0]!)).toBe(true);
    m.close();
    await again.close();
  });
});
