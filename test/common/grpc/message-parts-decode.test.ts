/**
 * Message-parts delivery, receiving side: a request cut into arbitrary parts (as DATA frames cut
 * it) decodes to the message protobuf-es would give for the joined bytes, with the large bytes
 * field left as views of the parts; the deframer hands a message on as its parts, unjoined.
 */
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { describe, expect, it } from 'vitest';
import { frameMessageParts, MessageDeframer } from '../../../src/common/grpc/framing.js';
import { decodeMessageParts, encodeMessageParts } from '../../../src/common/grpc/message-parts.js';
import { BlobChunkSchema, UploadBlobResponseSchema } from '../../../src/gen/weft/v1/blob_pb.js';
import { prng, testSeed } from '../../support/prng.js';

/** `bytes` cut into parts at random points (some cuts of one byte, inside varints). */
function cut(bytes: Buffer, next: () => number): Buffer[] {
  const parts: Buffer[] = [];
  for (let at = 0; at < bytes.length; ) {
    const n = Math.min(bytes.length - at, 1 + Math.floor(next() * (next() < 0.3 ? 3 : 40_000)));
    parts.push(bytes.subarray(at, at + n));
    at += n;
  }
  return parts;
}

describe('decoding a message from its parts', () => {
  it('gives the joined message, the bytes field as views of the parts, whatever the cuts and field order', () => {
    const seed = testSeed('message parts decode');
    const next = prng(seed);
    for (let round = 0; round < 200; round++) {
      const size = [0, 1, 127, 128, 16_384, 100_000, 256 * 1024][round % 7]!;
      const data = Buffer.alloc(size);
      for (let i = 0; i < size; i += 997) data[i] = Math.floor(next() * 256);
      const sequence = Math.floor(next() * 2 ** 32);
      const message = create(BlobChunkSchema, { data, sequence });
      // protobuf-es writes data first; encodeMessageParts writes it last.
      const wire = round % 2 === 0 ? Buffer.from(toBinary(BlobChunkSchema, message)) : Buffer.concat(encodeMessageParts(BlobChunkSchema, message));
      const parts = cut(wire, next);
      const decoded = decodeMessageParts(BlobChunkSchema, parts)!;
      expect(decoded.field.localName).toBe('data');
      expect(decoded.message.sequence).toBe(sequence);
      expect(decoded.message.data.length).toBe(0);
      expect(Buffer.concat(decoded.field_parts).equals(data)).toBe(true);
      expect(decoded.field_parts.every((p) => p.length > 0 && parts.some((q) => q.buffer === p.buffer))).toBe(true);
    }
  });

  it('takes the last occurrence of the field, as protobuf-es does, and decodes a message without it', () => {
    const first = Buffer.from(toBinary(BlobChunkSchema, create(BlobChunkSchema, { data: Buffer.alloc(5, 1), sequence: 1 })));
    const second = Buffer.from(toBinary(BlobChunkSchema, create(BlobChunkSchema, { data: Buffer.alloc(7, 2) })));
    const both = Buffer.concat([first, second]);
    const decoded = decodeMessageParts(BlobChunkSchema, [both.subarray(0, 4), both.subarray(4)])!;
    expect(Buffer.concat(decoded.field_parts).equals(Buffer.from(fromBinary(BlobChunkSchema, both).data))).toBe(true);
    expect(decoded.message.sequence).toBe(1);
    const bare = decodeMessageParts(BlobChunkSchema, [Buffer.from(toBinary(BlobChunkSchema, create(BlobChunkSchema, { sequence: 9 })))])!;
    expect(bare.field_parts).toEqual([]);
    expect(bare.message.sequence).toBe(9);
  });

  it('answers undefined for bytes that do not scan (the caller joins them and the usual decoder says why), and for a schema without a bytes field', () => {
    const wire = Buffer.from(toBinary(BlobChunkSchema, create(BlobChunkSchema, { data: Buffer.alloc(300, 3), sequence: 4 })));
    // Cut short inside the data field.
    expect(decodeMessageParts(BlobChunkSchema, [wire.subarray(0, 100), wire.subarray(100, 200)])).toBeUndefined();
    // A group (wire type 3) where fields were expected.
    expect(decodeMessageParts(BlobChunkSchema, [Buffer.from([0x0b]), Buffer.from([0x0c])])).toBeUndefined();
    expect(decodeMessageParts(UploadBlobResponseSchema, [Buffer.from([0x18, 0x01])])).toBeUndefined();
  });

  it('the deframer hands a message that spans chunks on as its parts, and one in a single chunk as one part', () => {
    const body = Buffer.alloc(50_000, 5);
    const framed = Buffer.concat([Buffer.from([0, 0, 0, 0xc3, 0x50]), body, Buffer.from([0, 0, 0, 0, 2, 9, 9])]);
    const deframer = new MessageDeframer(1 << 20);
    const got = [...deframer.pushParts(framed.subarray(0, 20_000)), ...deframer.pushParts(framed.subarray(20_000))];
    expect(got.map((m) => [m.parts.length, m.bytes_total])).toEqual([
      [2, 50_000],
      [1, 2],
    ]);
    expect(Buffer.concat(got[0]!.parts).equals(body)).toBe(true);
    expect(got[0]!.parts[0]!.buffer).toBe(framed.buffer);
    expect(deframer.midMessage).toBe(false);
  });

  it('a reply framed from its parts: prefix and small head joined, the large payload shared, and the deframer reads it back', () => {
    const payload = Buffer.alloc(256 * 1024, 3);
    const parts = encodeMessageParts(BlobChunkSchema, create(BlobChunkSchema, { data: payload, sequence: 5 }));
    const length = parts.reduce((n, p) => n + p.byteLength, 0);
    const framed = frameMessageParts(parts, length);
    expect(framed).toHaveLength(2);
    expect(framed[1]!.buffer).toBe(payload.buffer);
    const [message] = new MessageDeframer(1 << 20).push(Buffer.concat(framed));
    const decoded = fromBinary(BlobChunkSchema, message!.bytes);
    expect(decoded.sequence).toBe(5);
    expect(Buffer.from(decoded.data).equals(payload)).toBe(true);
    // A small message is one buffer, prefix included.
    const small = frameMessageParts([Buffer.from([8, 1])], 2);
    expect(small.map((b) => [...b])).toEqual([[0, 0, 0, 0, 2, 8, 1]]);
  });
});
