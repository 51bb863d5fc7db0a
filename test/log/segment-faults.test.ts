import { describe, expect, it } from 'vitest';
import { encodeRecordHeader, encodeSegmentHeader, RECORD_HEADER_BYTES, SEGMENT_HEADER_BYTES } from '../../src/log/storage/segment-format.js';
import { scanSegment, SECTOR_BYTES } from '../../src/log/storage/segment-recovery.js';
import { Prng } from '../sim/prng.js';

/**
 * Recovery's verdict over random segments and random faults, checked against what the fault was.
 * The segment bytes are built in memory exactly as the log writes them, so many cases run fast.
 * A failure names its seed; `WEFT_SEED=<seed>` replays that case alone.
 */
const CASES = 400;
const replay = process.env['WEFT_SEED'];
const seeds = replay !== undefined ? [Number(replay)] : Array.from({ length: CASES }, (_, k) => k + 1);

/** A segment that grew with every write (format 2), or one preallocated with zeros after its records. */
type Shape = 'grown' | 'preallocated';
const shapes: readonly Shape[] = ['grown', 'preallocated'];

interface Built {
  readonly bytes: Buffer;
  /** The end of the last record; a preallocated segment holds zeros from here to its end. */
  readonly records_end: number;
  /** Byte offset and end of every record, in entry order (entry k + 1 at records[k]). */
  readonly records: { offset: number; end: number; batch: number }[];
  /** Offset where the newest batch begins. */
  readonly newest_batch_at: number;
}

function build(p: Prng, shape: Shape): Built {
  const parts: Buffer[] = [encodeSegmentHeader(1)];
  const records: Built['records'] = [];
  let at = SEGMENT_HEADER_BYTES;
  let index = 1;
  const batches = 1 + p.int(6);
  let newest_batch_at = at;
  for (let b = 0; b < batches; b++) {
    newest_batch_at = at;
    const first = index;
    for (let n = 1 + p.int(8); n > 0; n--, index++) {
      // Payload bytes are never zero, so only a fault can make a sector of zeros.
      const payload = Buffer.alloc(p.int(700), 1 + p.int(255));
      parts.push(encodeRecordHeader(index, 1 + b, payload, first), payload);
      records.push({ offset: at, end: at + RECORD_HEADER_BYTES + payload.byteLength, batch: b });
      at += RECORD_HEADER_BYTES + payload.byteLength;
    }
  }
  if (shape === 'preallocated') parts.push(Buffer.alloc(1 + p.int(4096)));
  return { bytes: Buffer.concat(parts), records_end: at, records, newest_batch_at };
}

/** Entry index (1-based) of the record holding byte `offset`. */
function entryAt(built: Built, offset: number): number {
  return built.records.findIndex((r) => offset >= r.offset && offset < r.end) + 1;
}

describe('segment recovery over random faults', () => {
  it(`a flipped bit is always detected, and is cut as a tear only in the newest batch (${seeds.length} cases per shape)`, () => {
    for (const [seed, shape] of seeds.flatMap((s) => shapes.map((sh) => [s, sh] as const))) {
      const p = new Prng(seed);
      const built = build(p, shape);
      const at = SEGMENT_HEADER_BYTES + p.int(built.records_end - SEGMENT_HEADER_BYTES);
      built.bytes.writeUInt8(built.bytes.readUInt8(at) ^ (1 << p.int(8)), at);
      const verdict = scanSegment('s', built.bytes, 1, true);
      const damaged = entryAt(built, at);
      expect(verdict.kind, `seed ${seed}`).not.toBe('intact');
      if (at < built.newest_batch_at) {
        expect(verdict.kind, `seed ${seed}: flip in entry ${damaged}, an older batch`).toBe('corrupt');
      }
      if (verdict.kind === 'torn') {
        expect(damaged, `seed ${seed}`).toBe(built.records.length); // only the last record, nothing after it
      }
      if (verdict.kind === 'corrupt') expect(verdict.damage.index, `seed ${seed}`).toBe(damaged);
    }
  });

  it(`a tear of the newest batch (its end lost, or a sector of it unwritten) keeps every earlier batch (${seeds.length} cases per shape)`, () => {
    for (const [seed, shape] of seeds.flatMap((s) => shapes.map((sh) => [s, sh] as const))) {
      const p = new Prng(seed);
      const built = build(p, shape);
      const from = built.newest_batch_at;
      const end = built.records_end;
      let bytes: Buffer;
      let first_lost: number;
      if (p.chance(0.5) || end - from < 2 * SECTOR_BYTES) {
        const cut = from + p.int(end - from);
        // A file that grew ends early; a preallocated one keeps its size and reads zeros where the write never landed.
        bytes = shape === 'grown' ? built.bytes.subarray(0, cut) : Buffer.from(built.bytes).fill(0, cut, end);
        first_lost = built.records.findIndex((r) => r.end > cut) + 1;
      } else {
        // A whole sector inside the newest batch never reached the disk.
        const first_sector = Math.ceil(from / SECTOR_BYTES) * SECTOR_BYTES;
        const sectors = Math.floor((end - first_sector) / SECTOR_BYTES);
        const hole = first_sector + p.int(sectors) * SECTOR_BYTES;
        bytes = Buffer.from(built.bytes);
        bytes.fill(0, hole, hole + SECTOR_BYTES);
        first_lost = built.records.findIndex((r) => r.end > hole) + 1;
      }
      const verdict = scanSegment('s', bytes, 1, true);
      // A loss that starts exactly between two records and leaves only zeros after it is a shorter,
      // intact segment: nothing there to tell.
      const at_boundary = bytes.subarray(built.records[first_lost - 1]!.offset).every((b) => b === 0);
      expect(verdict.kind, `seed ${seed}, ${shape}`).toBe(at_boundary ? 'intact' : 'torn');
      if (verdict.kind !== 'unsupported') expect(verdict.offsets.length, `seed ${seed}, ${shape}`).toBe(first_lost - 1);
      // The cut covers every non-zero byte left behind, and nothing before the first lost record.
      if (verdict.kind === 'torn') {
        expect(verdict.bytes, `seed ${seed}, ${shape}`).toBe(built.records[first_lost - 1]!.offset);
        expect(bytes.subarray(verdict.zero_to).every((b) => b === 0), `seed ${seed}, ${shape}`).toBe(true);
      }
    }
  });

  it(`a flipped bit in the zeros after the end of a preallocated segment loses no entry and is never called corruption (${seeds.length} cases)`, () => {
    for (const seed of seeds) {
      const p = new Prng(seed);
      const built = build(p, 'preallocated');
      const at = built.records_end + p.int(built.bytes.byteLength - built.records_end);
      built.bytes.writeUInt8(1 << p.int(8), at);
      const verdict = scanSegment('s', built.bytes, 1, true);
      expect(verdict.kind, `seed ${seed}`).toBe('torn');
      if (verdict.kind === 'torn') expect([verdict.offsets.length, verdict.bytes, verdict.zero_to], `seed ${seed}`).toEqual([built.records.length, built.records_end, at + 1]);
    }
  });
});
