import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGrpcClient, type GrpcClient } from '../../src/api/grpc-client.js';
import { BlobService } from '../../src/gen/weft/v1/blob_pb.js';
import { GraphService } from '../../src/gen/weft/v1/graph_pb.js';
import { ScalarType, SchemaService } from '../../src/gen/weft/v2/schema_pb.js';
import { defaultConfig } from '../../src/server/config.js';
import { startServer, type RunningServer } from '../../src/server/server.js';
import { packsOnDisk } from '../support/packs-on-disk.js';
import { failure } from '../support/failure.js';

/** BlobService end to end on a real member, over gRPC and over REST (both body forms). */
const KiB = 1024;
const chunk_bytes = 256 * KiB;

function sha(b: Uint8Array): Buffer {
  return createHash('sha256').update(b).digest();
}

/** The ids the server must give: 256 KiB pieces, and the blob id over their raw hashes. */
function expectedIds(data: Buffer): { chunk_ids: string[]; blob_id: string } {
  const hashes: Buffer[] = [];
  for (let at = 0; at < data.byteLength; at += chunk_bytes) hashes.push(sha(data.subarray(at, at + chunk_bytes)));
  return { chunk_ids: hashes.map((h) => h.toString('hex')), blob_id: sha(Buffer.concat(hashes)).toString('hex') };
}

/** Client framing deliberately unlike the server's: 100 KiB messages. */
function* frames(data: Buffer, size = 100 * KiB): Iterable<{ data: Uint8Array; sequence: number }> {
  let sequence = 0;
  for (let at = 0; at < data.byteLength || (at === 0 && sequence === 0); at += size) {
    yield { data: data.subarray(at, at + size), sequence: sequence++ };
    if (data.byteLength === 0) return;
  }
}

describe('blob service on a member', () => {
  let dir: string;
  let server: RunningServer;
  let grpc: GrpcClient<typeof BlobService>;
  let rest: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'weft-blobs-'));
    server = await startServer({ ...defaultConfig, data_dir: dir, grpc_port: 0, rest_port: 0, ops_port: 0 }, () => {});
    grpc = createGrpcClient(BlobService, `127.0.0.1:${server.ports.grpc}`);
    rest = `http://127.0.0.1:${server.ports.rest}`;
  });
  afterAll(async () => {
    grpc.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The packs on disk holding the chunk (a chunk's bytes stay in its pack until the pack goes). */
  const packsOf = (id: string): string[] => packsOnDisk(dir).filter((p) => p.chunk_ids.includes(id)).map((p) => p.name);

  it('gRPC: a 700 KiB upload is cut at 256 KiB, named by SHA-256, and downloads byte-identical', async () => {
    const data = randomBytes(700 * KiB);
    const want = expectedIds(data);
    const up = await grpc.uploadBlob(frames(data));
    expect(up).toMatchObject({ blobId: want.blob_id, chunkIds: want.chunk_ids, totalSize: BigInt(data.byteLength), dedupChunks: 0 });
    // One upload, one pack, holding each of its chunks.
    expect(new Set(want.chunk_ids.flatMap(packsOf)).size).toBe(1);
    const meta = await grpc.getBlobMeta({ blobId: up.blobId });
    expect(meta).toMatchObject({ blobId: want.blob_id, totalSize: 716800n, chunkCount: 3, chunkIds: want.chunk_ids });
    const parts: Uint8Array[] = [];
    const sequences: number[] = [];
    for await (const c of grpc.downloadBlob({ blobId: up.blobId })) {
      parts.push(c.data);
      sequences.push(c.sequence);
    }
    expect(sequences).toEqual([0, 1, 2]);
    expect(Buffer.concat(parts).equals(data)).toBe(true);
    // The same bytes again: every chunk already existed, the blob is the same one.
    const again = await grpc.uploadBlob(frames(data, 7 * KiB));
    expect(again).toMatchObject({ blobId: want.blob_id, dedupChunks: 3 });
  });

  it('a value under 4 KiB is one chunk, like any value under 256 KiB; an empty blob has none', async () => {
    const small = randomBytes(3000);
    const up = await grpc.uploadBlob(frames(small));
    expect(up.chunkIds).toEqual([sha(small).toString('hex')]);
    const empty = await grpc.uploadBlob([]);
    expect(empty).toMatchObject({ blobId: sha(new Uint8Array(0)).toString('hex'), chunkIds: [], totalSize: 0n });
  });

  it('REST: a raw octet-stream body and an NDJSON body give the gRPC blob; download is raw with Content-Length', async () => {
    const data = randomBytes(600 * KiB + 17);
    const want = expectedIds(data);
    const raw = await fetch(`${rest}/v1/blobs`, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: data });
    expect(raw.status).toBe(200);
    const rawBody = (await raw.json()) as Record<string, unknown>;
    expect(rawBody).toMatchObject({ blobId: want.blob_id, chunkIds: want.chunk_ids, totalSize: String(data.byteLength), dedupChunks: 0 });
    const lines = [...frames(data)].map((f) => JSON.stringify({ data: Buffer.from(f.data).toString('base64'), sequence: f.sequence })).join('\n');
    const nd = await fetch(`${rest}/v1/blobs`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body: lines });
    expect(((await nd.json()) as Record<string, unknown>)['blobId']).toBe(want.blob_id);

    const down = await fetch(`${rest}/v1/blobs/${want.blob_id}`, { headers: { accept: 'application/octet-stream' } });
    expect(down.status).toBe(200);
    expect(down.headers.get('content-length')).toBe(String(data.byteLength));
    expect(Buffer.from(await down.arrayBuffer()).equals(data)).toBe(true);
    // Without asking for bytes, the stream is NDJSON like every server stream.
    const ndDown = await fetch(`${rest}/v1/blobs/${want.blob_id}`);
    const got = (await ndDown.text()).trim().split('\n').map((l) => JSON.parse(l) as { data: string; sequence?: number });
    expect(Buffer.concat(got.map((g) => Buffer.from(g.data, 'base64'))).equals(data)).toBe(true);
    const meta = (await (await fetch(`${rest}/v1/blobs/${want.blob_id}/meta`)).json()) as Record<string, unknown>;
    expect(meta).toMatchObject({ blobId: want.blob_id, chunkCount: 3, totalSize: String(data.byteLength) });
  });

  it('delete removes only the chunks no other blob references, on both transports', async () => {
    const shared = randomBytes(chunk_bytes);
    const a = Buffer.concat([shared, randomBytes(chunk_bytes)]);
    const b = Buffer.concat([shared, randomBytes(10 * KiB)]);
    const upA = await grpc.uploadBlob(frames(a));
    const upB = await grpc.uploadBlob(frames(b));
    expect(upB.dedupChunks).toBe(1);
    const [sharedId, onlyA] = upA.chunkIds as [string, string];
    expect((await grpc.deleteBlob({ blobId: upA.blobId })).chunksDeleted).toBe(1);
    // A's pack still holds the shared chunk, so it stays; the chunk only A held is dead space in it.
    const packA = packsOf(sharedId);
    expect(packA).toHaveLength(1);
    expect(packsOf(onlyA)).toEqual(packA);
    expect(await failure(grpc.getBlobMeta({ blobId: upA.blobId }))).toMatchObject({ code: 'NOT_FOUND', reason: 'BLOB_NOT_FOUND' });

    const del = await fetch(`${rest}/v1/blobs/${upB.blobId}`, { method: 'DELETE' });
    expect((await del.json()) as Record<string, unknown>).toEqual({ chunksDeleted: 2 });
    // Its last live chunk gone, the pack went whole.
    expect(packsOf(sharedId)).toEqual([]);
    expect(packsOf(onlyA)).toEqual([]);
    const again = await fetch(`${rest}/v1/blobs/${upB.blobId}`, { method: 'DELETE' });
    expect(again.status).toBe(404);
    expect(((await again.json()) as Record<string, unknown>)['reason']).toBe('BLOB_NOT_FOUND');
  });

  it('a BLOB property holds its blob on both transports: unknown ids refused, deleting a held blob refused', async () => {
    const address = `127.0.0.1:${server.ports.grpc}`;
    const schema = createGrpcClient(SchemaService, address);
    const graph = createGrpcClient(GraphService, address);
    await schema.createLabel({ name: 'Photo', properties: [{ name: 'file', type: { kind: { case: 'scalar', value: ScalarType.BLOB } } }], schemaMode: 2 });
    const up = await grpc.uploadBlob(frames(randomBytes(5000)));
    const file = (id: string) => ({ file: { kind: { case: 'stringValue' as const, value: id } } });
    const photo = await graph.createNode({ labels: ['Photo'], properties: file(up.blobId) });
    expect(await failure(graph.createNode({ labels: ['Photo'], properties: file('f'.repeat(64)) }))).toMatchObject({ code: 'FAILED_PRECONDITION', reason: 'BLOB_REFERENCE_UNKNOWN' });
    const viaRest = await fetch(`${rest}/v1/graph/nodes`, { method: 'POST', body: JSON.stringify({ labels: ['Photo'], properties: { file: { stringValue: 'e'.repeat(64) } } }) });
    expect(viaRest.status).toBe(400);
    expect(await failure(grpc.deleteBlob({ blobId: up.blobId }))).toMatchObject({ code: 'FAILED_PRECONDITION', reason: 'BLOB_REFERENCED' });
    const del = await fetch(`${rest}/v1/blobs/${up.blobId}`, { method: 'DELETE' });
    expect([del.status, ((await del.json()) as Record<string, unknown>)['reason']]).toEqual([400, 'BLOB_REFERENCED']);
    expect(photo.properties['file']?.kind).toMatchObject({ case: 'stringValue', value: up.blobId });
    schema.close();
    graph.close();
  });

  it('REST: a second upload of the same bytes counts its chunks as deduplicated; a value under 4 KiB is one chunk; an empty blob has none', async () => {
    const post = async (body: Uint8Array): Promise<Record<string, unknown>> => {
      const res = await fetch(`${rest}/v1/blobs`, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body });
      expect(res.status).toBe(200);
      return (await res.json()) as Record<string, unknown>;
    };
    const data = randomBytes(2 * chunk_bytes + 5);
    const want = expectedIds(data);
    expect(await post(data)).toMatchObject({ blobId: want.blob_id, dedupChunks: 0 });
    expect(await post(data)).toMatchObject({ blobId: want.blob_id, chunkIds: want.chunk_ids, dedupChunks: 3 });
    const small = randomBytes(3000);
    expect((await post(small))['chunkIds']).toEqual([sha(small).toString('hex')]);
    const empty = await post(new Uint8Array(0));
    expect(empty['blobId']).toBe(sha(new Uint8Array(0)).toString('hex'));
    expect(empty['chunkIds'] ?? []).toEqual([]);
  });

  it('REST framing is checked like gRPC: a sequence gap, an oversized message and a malformed id are refused', async () => {
    const ndjson = (frames: { data: Uint8Array; sequence: number }[]): string =>
      frames.map((f) => JSON.stringify({ data: Buffer.from(f.data).toString('base64'), sequence: f.sequence })).join('\n');
    const refused = async (res: Response): Promise<Record<string, unknown>> => {
      expect(res.status).toBe(400);
      return (await res.json()) as Record<string, unknown>;
    };
    const upload = (body: string) => fetch(`${rest}/v1/blobs`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body });
    const gap = await refused(await upload(ndjson([{ data: new Uint8Array(10), sequence: 0 }, { data: new Uint8Array(10), sequence: 2 }])));
    expect(gap).toMatchObject({ reason: 'BLOB_CHUNK_OUT_OF_SEQUENCE' });
    const big = await refused(await upload(ndjson([{ data: new Uint8Array(chunk_bytes + 1), sequence: 0 }])));
    expect(big).toMatchObject({ reason: 'BLOB_CHUNK_TOO_LARGE' });
    expect(await refused(await fetch(`${rest}/v1/blobs/xyz/meta`))).toMatchObject({ reason: 'INVALID_BLOB_ID' });
  });

  it('framing is checked: a sequence gap, an oversized message and a malformed id are refused', async () => {
    const gap = await failure(grpc.uploadBlob([{ data: new Uint8Array(10), sequence: 0 }, { data: new Uint8Array(10), sequence: 2 }]));
    expect(gap).toMatchObject({ code: 'INVALID_ARGUMENT', reason: 'BLOB_CHUNK_OUT_OF_SEQUENCE', metadata: { expected: '1', received: '2' } });
    const big = await failure(grpc.uploadBlob([{ data: new Uint8Array(chunk_bytes + 1), sequence: 0 }]));
    expect(big).toMatchObject({ code: 'INVALID_ARGUMENT', reason: 'BLOB_CHUNK_TOO_LARGE' });
    expect(await failure(grpc.getBlobMeta({ blobId: 'xyz' }))).toMatchObject({ code: 'INVALID_ARGUMENT', reason: 'INVALID_BLOB_ID' });
    const res = await fetch(`${rest}/v1/blobs/${'0'.repeat(64)}`, { headers: { accept: 'application/octet-stream' } });
    expect(res.status).toBe(404);
  });
});
