/**
 * Message-parts delivery end to end: UploadBlob's chunk data reaches the blob backend in the parts
 * its DATA frames brought, never joined, on both HTTP/2 engines; the same bytes, in order, as the
 * client sent; a compressed message arrives whole; REST uploads and methods that did not ask for
 * parts are untouched; downloads (replies encoded as parts) arrive byte-identical.
 */
import { createHash, randomBytes } from 'node:crypto';
import * as http2 from 'node:http2';
import { afterEach, describe, expect, it } from 'vitest';
import { create, toBinary } from '@bufbuild/protobuf';
import { gzipSync } from 'node:zlib';
import { blobService, type BlobBackend, type BlobMetaRecord } from '../../src/api/blob-service.js';
import { createGrpcClient } from '../../src/api/grpc-client.js';
import { startGrpcServer, type GrpcServerHandle } from '../../src/api/grpc-server.js';
import { http2_engines } from '../../src/api/grpc-listeners.js';
import { BlobChunkSchema, BlobService } from '../../src/gen/weft/v1/blob_pb.js';
import { call, framed } from '../support/h2-raw.js';

const KiB = 1024;

/** A backend that keeps what each upload message brought: its parts, and the bytes joined. */
function recordingBackend(): { backend: BlobBackend; messages: (readonly Uint8Array[])[]; stored: Map<string, Buffer> } {
  const messages: (readonly Uint8Array[])[] = [];
  const stored = new Map<string, Buffer>();
  const backend: BlobBackend = {
    async upload(data) {
      const pieces: Buffer[] = [];
      for await (const parts of data) {
        messages.push(parts);
        for (const p of parts) pieces.push(Buffer.from(p));
      }
      const bytes = Buffer.concat(pieces);
      const blob_id = createHash('sha256').update(bytes).digest('hex');
      stored.set(blob_id, bytes);
      return { blob_id, chunk_ids: [blob_id], total_size: bytes.length, dedup_chunks: 0 };
    },
    meta(blob_id): BlobMetaRecord {
      const bytes = stored.get(blob_id)!;
      return { blob_id, chunk_ids: [blob_id], total_size: bytes.length };
    },
    async *chunks(blob) {
      const bytes = stored.get(blob.blob_id)!;
      for (let at = 0; at < bytes.length; at += 256 * KiB) yield bytes.subarray(at, at + 256 * KiB);
    },
    async delete() {
      return { chunks_deleted: 0 };
    },
  };
  return { backend, messages, stored };
}

let server: GrpcServerHandle | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

describe.each(http2_engines)('message-parts delivery on the %s engine', (engine) => {
  it('a 256 KiB upload message reaches the backend as its parts, the bytes in order, and downloads back byte-identical', async () => {
    const rec = recordingBackend();
    server = await startGrpcServer({ port: 0, services: [blobService(rec.backend)], http2_engine: engine, shutdown_grace_ms: 100 });
    const client = createGrpcClient(BlobService, `127.0.0.1:${server.port}`);
    try {
      const data = randomBytes(3 * 256 * KiB + 1000);
      async function* frames(): AsyncIterable<{ data: Uint8Array; sequence: number }> {
        for (let at = 0, sequence = 0; at < data.length; at += 256 * KiB) yield { data: data.subarray(at, at + 256 * KiB), sequence: sequence++ };
      }
      const up = await client.uploadBlob(frames());
      expect(Number(up.totalSize)).toBe(data.length);
      expect(rec.messages).toHaveLength(4);
      // A 256 KiB message crosses several DATA frames (16 KiB each from this client): delivered unjoined.
      expect(rec.messages[0]!.length).toBeGreaterThan(1);
      expect(Buffer.concat(rec.messages.flat()).equals(data)).toBe(true);
      const back: Buffer[] = [];
      for await (const chunk of client.downloadBlob({ blobId: up.blobId })) back.push(Buffer.from(chunk.data));
      expect(back.map((b) => b.length)).toEqual([256 * KiB, 256 * KiB, 256 * KiB, 1000]);
      expect(Buffer.concat(back).equals(data)).toBe(true);
    } finally {
      client.close();
    }
  });
});

describe('message-parts delivery: flow control', () => {
  it('a handler that does not read holds the client back (windows credited only as parts are consumed), then takes every byte', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const rec = recordingBackend();
    const slow: BlobBackend = {
      ...rec.backend,
      async upload(data, signal) {
        await gate;
        return rec.backend.upload(data, signal);
      },
    };
    server = await startGrpcServer({ port: 0, services: [blobService(slow)], shutdown_grace_ms: 100 });
    const client = createGrpcClient(BlobService, `127.0.0.1:${server.port}`);
    try {
      const messages = 120;
      // What the server may hold unread: its 4 MiB stream window, 16 messages queued, a few in between.
      const held_max = 64;
      const data = randomBytes(messages * 256 * KiB);
      let sent = 0;
      async function* frames(): AsyncIterable<{ data: Uint8Array; sequence: number }> {
        for (; sent < messages; sent++) yield { data: data.subarray(sent * 256 * KiB, (sent + 1) * 256 * KiB), sequence: sent };
      }
      const up = client.uploadBlob(frames());
      // Until the client stops (no message for ten polls) or passes the bound; bounded either way.
      let last = -1;
      for (let still = 0, polls = 0; still < 10 && sent <= held_max && polls < 500; polls++) {
        await new Promise((r) => setTimeout(r, 20));
        still = sent === last ? still + 1 : 0;
        last = sent;
      }
      console.log(`held back after ${sent} of ${messages} messages`);
      expect(sent).toBeLessThanOrEqual(held_max);
      release();
      const done = await up;
      expect(Number(done.totalSize)).toBe(data.length);
      expect(Buffer.concat(rec.messages.flat()).equals(data)).toBe(true);
    } finally {
      release();
      client.close();
    }
  });
});

describe('message-parts delivery: what it leaves alone', () => {
  it('a compressed upload message arrives whole, and sequence checks still hold', async () => {
    const rec = recordingBackend();
    server = await startGrpcServer({ port: 0, services: [blobService(rec.backend)], shutdown_grace_ms: 100 });
    const session = http2.connect(`http://127.0.0.1:${server.port}`);
    try {
      const data = randomBytes(200 * KiB);
      const message = toBinary(BlobChunkSchema, create(BlobChunkSchema, { data, sequence: 0 }));
      const path = '/weft.v1.BlobService/UploadBlob';
      // Several DATA frames, as the raw client writes them: one message, gzip-compressed.
      const gz = framed(gzipSync(message), true);
      const chunks = [gz.subarray(0, 1000), gz.subarray(1000, 50_000), gz.subarray(50_000)];
      const ok = await call(session, { path, headers: { 'grpc-encoding': 'gzip' }, chunks });
      expect(ok.grpc_status).toBe('0');
      expect(rec.messages.map((m) => m.length)).toEqual([1]);
      expect(Buffer.from(rec.messages[0]![0]!).equals(data)).toBe(true);
      // Uncompressed, in parts, with a sequence out of order: refused as before.
      const wrong = framed(toBinary(BlobChunkSchema, create(BlobChunkSchema, { data, sequence: 3 })));
      const refused = await call(session, { path, chunks: [wrong.subarray(0, 70_000), wrong.subarray(70_000)] });
      expect(refused.grpc_status).toBe('3');
    } finally {
      session.close();
    }
  });
});
