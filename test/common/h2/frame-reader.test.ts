/**
 * The frame reader as a connection's reads cut its bytes: the same frames whatever the cuts, a
 * frame that straddles reads joined from its own bytes only, and in `data_pieces` mode each DATA
 * payload passed on as views of the reads, its pieces adding up to the frame (payload, flow bytes,
 * END_STREAM on the last piece).
 */
import { describe, expect, it } from 'vitest';
import { flag, frameWith, frame_type, pingFrame, windowUpdateFrame } from '../../../src/common/h2/frame.js';
import { FrameReader, type Frame } from '../../../src/common/h2/frame-parser.js';
import { H2ConnectionError } from '../../../src/common/h2/errors.js';
import { prng, testSeed } from '../../support/prng.js';

/** A connection's worth of frames: DATA of many sizes on two streams, padded DATA, PING, WINDOW_UPDATE. */
function scenario(next: () => number): Buffer[] {
  const frames: Buffer[] = [];
  for (let i = 0; i < 40; i++) {
    const stream_id = 1 + 2 * (i % 2);
    const size = [0, 1, 8, 9, 100, 16_384, 70_000][Math.floor(next() * 7)]!;
    const payload = Buffer.alloc(size, i);
    const end = i >= 38;
    if (i % 5 === 4) {
      // PADDED: a pad length octet, the data, then that many zero bytes.
      const pad = Math.floor(next() * 20);
      frames.push(frameWith(frame_type.DATA, flag.PADDED | (end ? flag.END_STREAM : 0), stream_id, Buffer.concat([Buffer.from([pad]), payload, Buffer.alloc(pad)])));
    } else frames.push(frameWith(frame_type.DATA, end ? flag.END_STREAM : 0, stream_id, payload));
    if (i % 7 === 0) frames.push(pingFrame(Buffer.alloc(8, i), false));
    if (i % 9 === 0) frames.push(windowUpdateFrame(0, 1000 + i));
  }
  return frames;
}

/** Feeds `bytes` to a reader in reads cut at random points; answers the frames it produced. */
function readCut(bytes: Buffer, next: () => number, data_pieces: boolean): Frame[] {
  const reader = new FrameReader(1 << 20, { data_pieces });
  const out: Frame[] = [];
  let at = 0;
  while (at < bytes.length) {
    const n = Math.min(bytes.length - at, 1 + Math.floor(next() * (next() < 0.5 ? 12 : 40_000)));
    reader.push(bytes.subarray(at, at + n), (f) => out.push(f));
    at += n;
  }
  expect(reader.midFrame).toBe(false);
  return out;
}

interface StreamTotals {
  readonly data: Buffer;
  readonly flow_bytes: number;
  readonly ends: number;
}

/** Each stream's DATA joined, its flow bytes, and how many END_STREAMs it saw; other frames in order. */
function summary(frames: readonly Frame[]): { streams: Map<number, StreamTotals>; control: string[] } {
  const parts = new Map<number, { data: Buffer[]; flow_bytes: number; ends: number }>();
  const control: string[] = [];
  for (const f of frames) {
    if (f.type !== 'data') {
      control.push(JSON.stringify(f));
      continue;
    }
    const s = parts.get(f.stream_id) ?? { data: [], flow_bytes: 0, ends: 0 };
    s.data.push(f.data);
    s.flow_bytes += f.flow_bytes;
    if (f.end_stream) s.ends++;
    parts.set(f.stream_id, s);
  }
  const streams = new Map<number, StreamTotals>();
  for (const [id, s] of parts) streams.set(id, { data: Buffer.concat(s.data), flow_bytes: s.flow_bytes, ends: s.ends });
  return { streams, control };
}

describe('frame reader', () => {
  it('gives the same frames however the reads cut the bytes, in both modes', () => {
    const seed = testSeed('h2 frame reader cuts');
    const next = prng(seed);
    const bytes = Buffer.concat(scenario(next));
    const whole = readCut(bytes, () => 0.999_999, false);
    for (let round = 0; round < 20; round++) {
      const cut = readCut(bytes, next, false);
      // Whole-frame mode: frame for frame the same.
      expect(cut.map((f) => (f.type === 'data' ? { ...f, data: f.data.toString('hex') } : f))).toEqual(
        whole.map((f) => (f.type === 'data' ? { ...f, data: f.data.toString('hex') } : f)),
      );
      // Pieces mode: the same bytes, flow bytes and ends per stream, and the same other frames.
      const pieces = summary(readCut(bytes, next, true));
      const expected = summary(whole);
      expect(pieces.control).toEqual(expected.control);
      expect([...pieces.streams.keys()].sort()).toEqual([...expected.streams.keys()].sort());
      for (const [id, s] of expected.streams) {
        const got = pieces.streams.get(id)!;
        expect(got.data.equals(s.data)).toBe(true);
        expect(got.flow_bytes).toBe(s.flow_bytes);
        expect(got.ends).toBe(1);
      }
    }
  });

  it('passes DATA pieces on as views of the reads, not copies, and ends the frame on its last piece', () => {
    const payload = Buffer.alloc(50_000, 7);
    const bytes = frameWith(frame_type.DATA, flag.END_STREAM, 5, payload);
    const reader = new FrameReader(1 << 20, { data_pieces: true });
    const reads = [bytes.subarray(0, 4), bytes.subarray(4, 20_000), bytes.subarray(20_000)];
    const seen: { frame: Frame; read: Buffer }[] = [];
    for (const read of reads) reader.push(read, (frame) => seen.push({ frame, read }));
    expect(seen.map((s) => (s.frame.type === 'data' ? [s.frame.data.length, s.frame.end_stream] : s.frame.type))).toEqual([
      [20_000 - 9, false],
      [bytes.length - 20_000, true],
    ]);
    for (const { frame, read } of seen) {
      if (frame.type !== 'data') continue;
      // A view of the read's memory.
      expect(frame.data.buffer).toBe(read.buffer);
    }
  });

  it('refuses a frame over the limit from its header alone, and DATA on stream 0, in pieces mode too', () => {
    for (const data_pieces of [false, true]) {
      const big = new FrameReader(100, { data_pieces });
      expect(() => big.push(Buffer.from([0, 0, 101, frame_type.DATA, 0, 0, 0, 0, 1]), () => {})).toThrow(H2ConnectionError);
      const zero = new FrameReader(100, { data_pieces });
      expect(() => zero.push(Buffer.from([0, 0, 1, frame_type.DATA, 0, 0, 0, 0, 0, 42]), () => {})).toThrow(H2ConnectionError);
    }
  });
});
