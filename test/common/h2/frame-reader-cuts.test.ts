/**
 * The frame reader as a socket feeds it: a run of frames cut at arbitrary points (a large DATA frame
 * arrives as several TLS records, a header may be split across reads) gives the same frames, in
 * order, as the run read whole, and nothing is left held at the end.
 */
import { describe, expect, it } from 'vitest';
import { frame_type, frameWith, pingFrame } from '../../../src/common/h2/frame.js';
import { FrameReader, type Frame } from '../../../src/common/h2/frame-parser.js';
import { prng, testSeed } from '../../support/prng.js';

function dataFrame(stream_id: number, bytes: number, fill: number): Buffer {
  return frameWith(frame_type.DATA, 0, stream_id, Buffer.alloc(bytes, fill));
}

function readAll(reader: FrameReader, pieces: readonly Buffer[]): Frame[] {
  const frames: Frame[] = [];
  for (const p of pieces) reader.push(p, (f) => frames.push(f));
  return frames;
}

describe('h2 frame reader: frames cut at any point', () => {
  it('large DATA frames, small frames and split headers read the same in pieces as whole', () => {
    const run = Buffer.concat([
      dataFrame(1, 64 * 1024, 1),
      pingFrame(Buffer.alloc(8, 9), false),
      dataFrame(3, 5, 2),
      dataFrame(1, 40_000, 3),
      dataFrame(5, 0, 0),
    ]);
    const whole = readAll(new FrameReader(64 * 1024), [run]);
    expect(whole.map((f) => f.type)).toEqual(['data', 'ping', 'data', 'data', 'data']);

    const seed = testSeed('h2 frame reader pieces');
    const next = prng(seed);
    for (let round = 0; round < 50; round++) {
      const pieces: Buffer[] = [];
      for (let at = 0; at < run.length; ) {
        // Mostly TLS-record-sized pieces, sometimes a few bytes (a header split across reads).
        const n = next() < 0.3 ? 1 + Math.floor(next() * 12) : 1 + Math.floor(next() * 16_384);
        pieces.push(run.subarray(at, Math.min(run.length, at + n)));
        at += n;
      }
      const reader = new FrameReader(64 * 1024);
      expect(readAll(reader, pieces), `seed ${seed}, round ${round}`).toEqual(whole);
      expect(reader.midFrame).toBe(false);
    }
  });
});
