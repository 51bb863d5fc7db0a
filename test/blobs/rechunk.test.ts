/**
 * Re-chunking an upload given as parts: the same fixed chunks as the joined bytes give, each as
 * views of the parts it came from (no copy), no empty part, none crossing a chunk boundary.
 */
import { describe, expect, it } from 'vitest';
import { fixedChunks, partsBytes, type UploadPiece } from '../../src/server/blobs/rechunk.js';
import { prng, testSeed } from '../support/prng.js';

async function* from(pieces: readonly UploadPiece[]): AsyncIterable<UploadPiece> {
  yield* pieces;
}

describe('fixed chunks from parts', () => {
  it('cuts the joined bytes at fixed boundaries, handing on views of the parts', async () => {
    const seed = testSeed('rechunk parts');
    const next = prng(seed);
    const chunk_bytes = 1000;
    for (let round = 0; round < 50; round++) {
      const bytes = Buffer.alloc(Math.floor(next() * 5000));
      for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(next() * 256);
      // Messages of random sizes, each cut into random parts (some empty); some given whole.
      const pieces: UploadPiece[] = [];
      for (let at = 0; at < bytes.length; ) {
        const end = Math.min(bytes.length, at + Math.floor(next() * 1500));
        const parts: Buffer[] = [];
        for (let p = at; p < end; ) {
          const q = Math.min(end, p + Math.floor(next() * 400));
          parts.push(bytes.subarray(p, q));
          p = q;
        }
        pieces.push(next() < 0.2 ? bytes.subarray(at, end) : parts);
        at = end;
      }
      const chunks = [];
      for await (const c of fixedChunks(from(pieces), chunk_bytes)) chunks.push(c);
      expect(chunks.map(partsBytes)).toEqual(Array.from({ length: Math.ceil(bytes.length / chunk_bytes) }, (_, i) => Math.min(chunk_bytes, bytes.length - i * chunk_bytes)));
      expect(Buffer.concat(chunks.flat()).equals(bytes)).toBe(true);
      for (const c of chunks) for (const part of c) {
        expect(part.byteLength).toBeGreaterThan(0);
        expect(part.buffer).toBe(bytes.buffer);
      }
    }
  });
});
