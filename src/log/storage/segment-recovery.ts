import { assertNever } from '../../common/assert.js';
import {
  RECORD_HEADER_BYTES,
  SEGMENT_FORMAT_VERSIONS_READ,
  SEGMENT_HEADER_BYTES,
  allZero,
  checkSegmentHeader,
  decodeRecordHeader,
  nextRecordMagic,
  nonZeroEnd,
  payloadIntact,
  type RecordHeader,
} from './segment-format.js';

/**
 * Recovery of one segment file: it walks the records from the segment header on and, at the first
 * record that does not verify, decides whether the damage is a torn write or corruption.
 *
 * The reasoning (after TigerBeetle's): a flush writes one batch of records with one writev and then
 * fdatasyncs; the next batch is written only after that fdatasync returned. So at a crash, only the
 * last batch of the last segment can be incomplete, and it was never reported durable. A torn write
 * leaves the end of that batch missing, or whole sectors of it unwritten (zeros: the region lay past
 * the old end of the file), never a flipped bit. So damage in the last segment is a tear only if
 * - nothing intact follows it, or
 * - only intact records of its own batch follow, and the damaged span holds an unwritten (all-zero)
 *   sector: pages of one write may reach the disk out of order.
 * Anything else is corruption. In particular an intact record of a later batch proves the damaged
 * one was fsynced before it was written, and cutting there would throw away acknowledged entries.
 * In any segment but the last, every byte was fsynced before the next segment was created, so any
 * damage there is corruption.
 *
 * The end of the log (segments are preallocated: docs/storage.md, "Preallocated segments"): the
 * records stop at the first offset from which every byte to the end of the file is zero. The log
 * keeps every byte after its last record zero (a cut writes zeros over what it removes), except
 * the bytes of the one write whose fdatasync had not returned. So non-zero bytes after the end are
 * either the remains of that write, judged by the rules above, or corruption. A preallocated segment
 * whose header is all zeros is a segment rotated in whose first write never landed: a tear in the
 * newest segment (its first batch was never reported durable), corruption in any other.
 */
export interface Damage {
  readonly segment: string;
  /** Byte offset of the damaged record (or 0 for a damaged segment header). */
  readonly offset: number;
  /** The entry index that should have been at `offset`. */
  readonly index: number;
  readonly detail: string;
}

export type SegmentScan =
  /** Every record verified; `bytes` is the end of the last one. */
  | { readonly kind: 'intact'; readonly offsets: number[]; readonly bytes: number }
  /**
   * A torn last batch: records at `bytes` and after are to be cut by writing zeros over
   * [bytes, zero_to), the span that holds non-zero remains. Only for the last segment. `bytes` 0:
   * even the segment header never landed, and the whole file goes.
   */
  | {
      readonly kind: 'torn';
      readonly offsets: number[];
      readonly bytes: number;
      readonly torn_bytes: number;
      readonly torn_from_index: number;
      /** Invariant: bytes <= zero_to <= file length; every byte from zero_to on is zero. */
      readonly zero_to: number;
    }
  /** Corruption: `offsets` and `bytes` describe the good prefix before it. */
  | { readonly kind: 'corrupt'; readonly offsets: number[]; readonly bytes: number; readonly damage: Damage }
  /** Not a segment this code can read: an older format, a newer one, or not a segment at all. */
  | { readonly kind: 'unsupported'; readonly detail: string };

export function scanSegment(name: string, bytes: Buffer, first_index: number, is_last: boolean): SegmentScan {
  const header = checkSegmentHeader(bytes);
  switch (header.kind) {
    case 'foreign':
      return { kind: 'unsupported', detail: `log segment ${name} has no segment header: it was written by an older version of the log format, or is not a log segment` };
    case 'version':
      return { kind: 'unsupported', detail: `log segment ${name} has format version ${header.version}; this build reads versions ${SEGMENT_FORMAT_VERSIONS_READ.join(' and ')}` };
    case 'unwritten': {
      const damage: Damage = { segment: name, offset: 0, index: first_index, detail: 'segment header never written (all zeros)' };
      if (!is_last) return { kind: 'corrupt', offsets: [], bytes: 0, damage };
      return tearOrCorruption(bytes, [], damage, 0);
    }
    case 'damaged':
      return { kind: 'corrupt', offsets: [], bytes: 0, damage: { segment: name, offset: 0, index: first_index, detail: 'segment header checksum mismatch' } };
    case 'ok':
      if (header.first_index !== first_index) {
        return { kind: 'corrupt', offsets: [], bytes: 0, damage: { segment: name, offset: 0, index: first_index, detail: `segment header names first entry ${header.first_index}` } };
      }
      break;
    default:
      assertNever(header, 'segment header check');
  }
  const offsets: number[] = [];
  let offset = SEGMENT_HEADER_BYTES;
  let expected = first_index;
  while (offset < bytes.byteLength) {
    const check = verifyRecordAt(bytes, offset, expected);
    if (check.kind === 'ok') {
      offsets.push(offset);
      offset += RECORD_HEADER_BYTES + check.header.payload_bytes;
      expected++;
      continue;
    }
    // Zeros from here to the end of the file: the end of the log, not damage.
    if (allZero(bytes, offset, bytes.byteLength)) break;
    const damage: Damage = { segment: name, offset, index: expected, detail: check.detail };
    if (!is_last || check.intact_but_misplaced) return { kind: 'corrupt', offsets, bytes: offset, damage };
    return tearOrCorruption(bytes, offsets, damage, offset);
  }
  return { kind: 'intact', offsets, bytes: offset };
}

/** The verdict on damage in the last segment, from what follows it (see the reasoning above). */
function tearOrCorruption(bytes: Buffer, offsets: number[], damage: Damage, cut_at: number): SegmentScan {
  const { offset, index } = damage;
  const after = intactAfter(bytes, offset, index);
  if (after.first === undefined || (after.later_batch === undefined && holdsUnwrittenSector(bytes, offset, after.first.offset))) {
    const zero_to = nonZeroEnd(bytes, cut_at);
    return { kind: 'torn', offsets, bytes: cut_at, torn_bytes: zero_to - cut_at, torn_from_index: index, zero_to };
  }
  const why =
    after.later_batch !== undefined
      ? `entry ${after.later_batch.index} of a later write batch follows intact at byte ${after.later_batch.offset}`
      : `entry ${after.first.index} of the same write batch follows intact at byte ${after.first.offset}, and no unwritten sector lies between`;
  return { kind: 'corrupt', offsets, bytes: offset, damage: { ...damage, detail: `${damage.detail}; ${why}` } };
}

export type RecordCheck =
  | { readonly kind: 'ok'; readonly header: RecordHeader }
  | {
      readonly kind: 'damaged';
      readonly detail: string;
      /** The record verifies but holds the wrong entry: never a tear (files are cut, never left stale). */
      readonly intact_but_misplaced: boolean;
    };

/** Whether the record at `offset` is whole, verifies, and holds entry `expected`. */
export function verifyRecordAt(bytes: Buffer, offset: number, expected: number): RecordCheck {
  const damaged = (detail: string, intact_but_misplaced = false): RecordCheck => ({ kind: 'damaged', detail, intact_but_misplaced });
  if (offset + RECORD_HEADER_BYTES > bytes.byteLength) return damaged('record header incomplete');
  const header = decodeRecordHeader(bytes, offset);
  if (header === undefined) return damaged('record header checksum mismatch');
  const end = offset + RECORD_HEADER_BYTES + header.payload_bytes;
  if (end > bytes.byteLength) return damaged('record payload incomplete');
  if (!payloadIntact(header, bytes.subarray(offset + RECORD_HEADER_BYTES, end))) return damaged('record payload checksum mismatch');
  if (header.index !== expected) return damaged(`record holds entry ${header.index}`, true);
  return { kind: 'ok', header };
}

interface IntactRecord {
  readonly index: number;
  readonly offset: number;
}

/**
 * Intact records after `damaged_at`: the first one, and the first written in a batch that began
 * after entry `damaged_index`. Candidates are found by their magic (a native byte search) and count
 * only if header and payload both verify and they hold a later entry.
 */
function intactAfter(bytes: Buffer, damaged_at: number, damaged_index: number): { first?: IntactRecord; later_batch?: IntactRecord } {
  let first: IntactRecord | undefined;
  for (let at = nextRecordMagic(bytes, damaged_at + 1); at >= 0; at = nextRecordMagic(bytes, at + 1)) {
    const header: RecordHeader | undefined = decodeRecordHeader(bytes, at);
    if (header === undefined || header.index <= damaged_index) continue;
    const end = at + RECORD_HEADER_BYTES + header.payload_bytes;
    if (end > bytes.byteLength || !payloadIntact(header, bytes.subarray(at + RECORD_HEADER_BYTES, end))) continue;
    first ??= { index: header.index, offset: at };
    if (header.batch_first_index > damaged_index) return { first, later_batch: { index: header.index, offset: at } };
  }
  return first === undefined ? {} : { first };
}

/** The unit a disk writes whole or not at all; a torn write leaves whole sectors unwritten. */
export const SECTOR_BYTES = 512;

/** Whether some whole sector overlapping [from, to) is all zeros: a part of the write never landed. */
function holdsUnwrittenSector(bytes: Buffer, from: number, to: number): boolean {
  for (let s = from - (from % SECTOR_BYTES); s < to && s + SECTOR_BYTES <= bytes.byteLength; s += SECTOR_BYTES) {
    let zero = true;
    for (let k = s; k < s + SECTOR_BYTES && zero; k++) zero = bytes[k] === 0;
    if (zero) return true;
  }
  return false;
}
