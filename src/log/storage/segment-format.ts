import { crc32 } from 'node:zlib';

/**
 * The bytes of a log segment (docs/storage.md). A segment is a 24-byte segment header followed by
 * records; a record is a 40-byte record header followed by its payload. Integers are little-endian.
 *
 * Segment header:
 *   0  u32 magic 'WSEG'          4  u32 format version
 *   8  u64 first entry index    16  u32 reserved (0)    20  u32 CRC-32 of bytes 0..20
 *
 * Record header:
 *   0  u32 magic 'WREC'          4  u32 CRC-32 of bytes 8..40 of this header
 *   8  u32 payload CRC-32       12  u32 payload length in bytes
 *  16  u64 entry index          24  u64 entry term
 *  32  u64 first index of the write batch this record was written in
 *
 * The header has its own checksum so a damaged payload still leaves a trusted length, and the next
 * record can be found and judged. The batch's first index lets recovery tell a tear from corruption:
 * only the last batch written can be incomplete, because the next batch is written only after the
 * previous one's fdatasync returned.
 *
 * Version 3 segments are preallocated: the file is made at its full size, filled with zeros, and
 * records are written over the zeros. The end of the log is where the records stop and zeros begin
 * (segment-recovery.ts). Version 2 segments (files that grew with every write) are the same bytes
 * without the zeros, and are read by the same rules.
 */
export const SEGMENT_MAGIC = 0x47455357; // 'WSEG' read as u32 LE
/** The version new segments are written in. */
export const SEGMENT_FORMAT_VERSION = 3;
/** Versions this build reads: 2 (not preallocated) and 3 (preallocated, ends where zeros begin). */
export const SEGMENT_FORMAT_VERSIONS_READ: readonly number[] = [2, 3];
export const SEGMENT_HEADER_BYTES = 24;
export const RECORD_MAGIC = 0x43455257; // 'WREC' read as u32 LE
export const RECORD_HEADER_BYTES = 40;
/** A single payload larger than this is refused; it bounds what recovery and a read allocate at once. */
export const ENTRY_BYTES_MAX = 256 * 1024 * 1024;

const RECORD_MAGIC_BYTES = Buffer.from([0x57, 0x52, 0x45, 0x43]);

export interface RecordHeader {
  readonly index: number;
  readonly term: number;
  readonly payload_bytes: number;
  readonly payload_crc: number;
  /** Invariant: batch_first_index <= index. */
  readonly batch_first_index: number;
}

export function encodeSegmentHeader(first_index: number): Buffer {
  const b = Buffer.alloc(SEGMENT_HEADER_BYTES);
  b.writeUInt32LE(SEGMENT_MAGIC, 0);
  b.writeUInt32LE(SEGMENT_FORMAT_VERSION, 4);
  b.writeBigUInt64LE(BigInt(first_index), 8);
  b.writeUInt32LE(crc32(b.subarray(0, 20)), 20);
  return b;
}

/** What the first bytes of a segment file say about it. */
export type SegmentHeaderCheck =
  | { readonly kind: 'ok'; readonly first_index: number; readonly version: number }
  /** Every header byte is zero: a preallocated segment whose first write never landed. */
  | { readonly kind: 'unwritten' }
  /** No magic: a segment of the earlier headerless format, or not a segment at all. */
  | { readonly kind: 'foreign' }
  | { readonly kind: 'version'; readonly version: number }
  | { readonly kind: 'damaged' };

export function checkSegmentHeader(bytes: Buffer): SegmentHeaderCheck {
  if (bytes.byteLength >= SEGMENT_HEADER_BYTES && allZero(bytes, 0, SEGMENT_HEADER_BYTES)) return { kind: 'unwritten' };
  if (bytes.byteLength < 4 || bytes.readUInt32LE(0) !== SEGMENT_MAGIC) return { kind: 'foreign' };
  if (bytes.byteLength < SEGMENT_HEADER_BYTES) return { kind: 'damaged' };
  if (crc32(bytes.subarray(0, 20)) !== bytes.readUInt32LE(20) || bytes.readUInt32LE(16) !== 0) return { kind: 'damaged' };
  const version = bytes.readUInt32LE(4);
  if (!SEGMENT_FORMAT_VERSIONS_READ.includes(version)) return { kind: 'version', version };
  return { kind: 'ok', first_index: Number(bytes.readBigUInt64LE(8)), version };
}

export function encodeRecordHeader(index: number, term: number, payload: Uint8Array, batch_first_index: number): Buffer {
  const b = Buffer.alloc(RECORD_HEADER_BYTES);
  b.writeUInt32LE(RECORD_MAGIC, 0);
  b.writeUInt32LE(crc32(payload), 8);
  b.writeUInt32LE(payload.byteLength, 12);
  b.writeBigUInt64LE(BigInt(index), 16);
  b.writeBigUInt64LE(BigInt(term), 24);
  b.writeBigUInt64LE(BigInt(batch_first_index), 32);
  b.writeUInt32LE(crc32(b.subarray(8, RECORD_HEADER_BYTES)), 4);
  return b;
}

/** Decodes the record header at `offset` if its bytes are all there and its checksum holds. */
export function decodeRecordHeader(bytes: Uint8Array, offset: number): RecordHeader | undefined {
  if (offset + RECORD_HEADER_BYTES > bytes.byteLength) return undefined;
  const b = Buffer.from(bytes.buffer, bytes.byteOffset + offset, RECORD_HEADER_BYTES);
  if (b.readUInt32LE(0) !== RECORD_MAGIC) return undefined;
  if (crc32(b.subarray(8, RECORD_HEADER_BYTES)) !== b.readUInt32LE(4)) return undefined;
  const header: RecordHeader = {
    payload_crc: b.readUInt32LE(8),
    payload_bytes: b.readUInt32LE(12),
    index: Number(b.readBigUInt64LE(16)),
    term: Number(b.readBigUInt64LE(24)),
    batch_first_index: Number(b.readBigUInt64LE(32)),
  };
  // A checksum that holds over impossible values is not a record this code wrote.
  if (header.payload_bytes > ENTRY_BYTES_MAX || header.batch_first_index > header.index || header.index < 1) return undefined;
  return header;
}

export function payloadIntact(header: RecordHeader, payload: Uint8Array): boolean {
  return payload.byteLength === header.payload_bytes && crc32(payload) === header.payload_crc;
}

/** The next offset after `from` where a record magic appears, or -1. */
export function nextRecordMagic(bytes: Buffer, from: number): number {
  return bytes.indexOf(RECORD_MAGIC_BYTES, from);
}

/** Compared against in chunks: a native memcmp instead of a loop over every byte. */
const ZEROS = Buffer.alloc(64 * 1024);

/** Whether bytes [from, to) are all zero. */
export function allZero(bytes: Uint8Array, from: number, to: number): boolean {
  for (let at = from; at < to; at += ZEROS.byteLength) {
    const end = Math.min(to, at + ZEROS.byteLength);
    if (Buffer.compare(bytes.subarray(at, end), ZEROS.subarray(0, end - at)) !== 0) return false;
  }
  return true;
}

/** One past the last non-zero byte at or after `from` (or `from` when all of it is zero). */
export function nonZeroEnd(bytes: Uint8Array, from: number): number {
  let end = bytes.byteLength;
  while (end > from) {
    const start = Math.max(from, end - ZEROS.byteLength);
    if (!allZero(bytes, start, end)) {
      while (bytes[end - 1] === 0) end--;
      return end;
    }
    end = start;
  }
  return from;
}
