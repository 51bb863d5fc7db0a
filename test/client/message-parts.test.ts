import { describe, expect, it } from 'vitest';
import { create, fromBinary } from '@bufbuild/protobuf';
import { grpc_frame_copy_bytes_max } from '../../src/common/grpc/framing.js';
import { encodeMessageParts } from '../../src/common/grpc/message-parts.js';
import { BlobChunkSchema } from '../../src/gen/weft/v1/blob_pb.js';

describe('a request with a large bytes field is written from the caller buffer', () => {
  it('a 256 KiB blob chunk is its other fields, the data field header, and the caller data itself', () => {
    const data = new Uint8Array(256 * 1024).map((_, i) => i % 251);
    const parts = encodeMessageParts(BlobChunkSchema, create(BlobChunkSchema, { data, sequence: 300 }));
    expect(parts).toHaveLength(2);
    expect(parts[1]).toBe(data);
    const decoded = fromBinary(BlobChunkSchema, Buffer.concat(parts));
    expect(decoded.sequence).toBe(300);
    expect(Buffer.from(decoded.data).equals(Buffer.from(data))).toBe(true);
  });

  it('a small message is encoded whole, as protobuf-es encodes it', () => {
    const parts = encodeMessageParts(BlobChunkSchema, create(BlobChunkSchema, { data: new Uint8Array(10), sequence: 1 }));
    expect(parts).toHaveLength(1);
    expect(fromBinary(BlobChunkSchema, parts[0]!).data.length).toBe(10);
  });

  it('sizes either side of the threshold and of varint length boundaries decode to the same message', () => {
    for (const size of [grpc_frame_copy_bytes_max - 1, grpc_frame_copy_bytes_max, 2 ** 21 - 1, 2 ** 21, 2 ** 21 + 1]) {
      const data = new Uint8Array(size).fill(7);
      const parts = encodeMessageParts(BlobChunkSchema, create(BlobChunkSchema, { data, sequence: 0 }));
      expect(parts.length).toBe(size >= grpc_frame_copy_bytes_max ? 2 : 1);
      const decoded = fromBinary(BlobChunkSchema, Buffer.concat(parts));
      expect(decoded.data.length).toBe(size);
      expect(decoded.sequence).toBe(0);
    }
  });
});
