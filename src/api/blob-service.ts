import { invalidArgument } from '../common/errors.js';
import { BlobService } from '../gen/weft/v1/blob_pb.js';
import { implement, type RegisteredService } from './handlers.js';
import { bytesFieldParts } from './request-parts.js';

/**
 * BlobService (SPEC 4.4): client-streaming upload, server-streaming download, delete and meta. The
 * service checks the framing (sequence numbers, message size, blob ids); the backend stores.
 */
export interface BlobMetaRecord {
  readonly blob_id: string;
  readonly chunk_ids: readonly string[];
  readonly total_size: number;
}

export interface BlobBackend {
  /** `data`: each message's bytes, as the parts they arrived in (request-parts.ts), in order. */
  upload(data: AsyncIterable<readonly Uint8Array[]>, signal: AbortSignal): Promise<BlobMetaRecord & { readonly dedup_chunks: number }>;
  /** NOT_FOUND (BLOB_NOT_FOUND) when the blob does not exist. */
  meta(blob_id: string): BlobMetaRecord;
  /** The blob's bytes in order, in pieces of at most one chunk. */
  chunks(blob: BlobMetaRecord, signal: AbortSignal): AsyncIterable<Uint8Array>;
  delete(blob_id: string): Promise<{ readonly chunks_deleted: number }>;
}

/** Largest `data` of one BlobChunk message either way (SPEC 2.5). */
export const blob_message_bytes_max = 256 * 1024;

const blob_id_pattern = /^[0-9a-f]{64}$/;

function checkBlobId(blob_id: string): string {
  if (!blob_id_pattern.test(blob_id)) {
    throw invalidArgument(`blob_id must be 64 lowercase hexadecimal digits, got "${blob_id.slice(0, 80)}"`, 'INVALID_BLOB_ID', { blob_id: blob_id.slice(0, 80) });
  }
  return blob_id;
}

/**
 * The data of each message, as the parts it arrived in, refusing a gap, a repeat or a reordering
 * of sequence numbers.
 */
async function* inSequence(reqs: AsyncIterable<{ readonly data: Uint8Array; readonly sequence: number }>): AsyncGenerator<readonly Uint8Array[], void, undefined> {
  let expected = 0;
  for await (const req of reqs) {
    const data = bytesFieldParts(req, req.data);
    let data_bytes = 0;
    for (const part of data) data_bytes += part.byteLength;
    if (req.sequence !== expected) {
      throw invalidArgument(`blob chunk ${req.sequence} arrived where chunk ${expected} was expected`, 'BLOB_CHUNK_OUT_OF_SEQUENCE', {
        expected: String(expected),
        received: String(req.sequence),
      });
    }
    if (data_bytes > blob_message_bytes_max) {
      throw invalidArgument(`blob chunk ${req.sequence} holds ${data_bytes} bytes; at most ${blob_message_bytes_max} per message`, 'BLOB_CHUNK_TOO_LARGE', {
        sequence: String(req.sequence),
        limit_bytes: String(blob_message_bytes_max),
      });
    }
    expected++;
    yield data;
  }
}

export function blobService(backend: BlobBackend): RegisteredService {
  const service = implement(BlobService, {
    async uploadBlob(reqs, ctx) {
      const out = await backend.upload(inSequence(reqs), ctx.signal);
      return { blobId: out.blob_id, chunkIds: [...out.chunk_ids], totalSize: BigInt(out.total_size), dedupChunks: out.dedup_chunks };
    },

    async *downloadBlob(req, ctx) {
      const blob = backend.meta(checkBlobId(req.blobId));
      ctx.announceSize?.(blob.total_size);
      let sequence = 0;
      for await (const data of backend.chunks(blob, ctx.signal)) {
        // Chunks are at most 256 KiB already; a message never holds more than one.
        yield { data, sequence: sequence++ };
      }
    },

    async deleteBlob(req) {
      const out = await backend.delete(checkBlobId(req.blobId));
      return { chunksDeleted: out.chunks_deleted };
    },

    async getBlobMeta(req) {
      const blob = backend.meta(checkBlobId(req.blobId));
      return { blobId: blob.blob_id, totalSize: BigInt(blob.total_size), chunkCount: blob.chunk_ids.length, chunkIds: [...blob.chunk_ids] };
    },
  });
  // An upload's chunk data is hashed, checked and written in the parts it arrived in: joining each
  // 256 KiB message first would copy every uploaded byte once more.
  return { ...service, parted_requests: new Set(['uploadBlob']) };
}
