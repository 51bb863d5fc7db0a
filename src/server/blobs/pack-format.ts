import { crc32 } from 'node:zlib';

/**
 * The bytes of a chunk pack (docs/blobs.md "Packs"): the chunks' bytes back to back from offset 0,
 * then an index trailer naming each of them, then a fixed footer.
 *
 *   entry (48 bytes)   32 bytes chunk id (SHA-256)   u64 offset   u32 length   u32 CRC-32 of the bytes
 *   footer (16 bytes)  u32 entry count   u32 CRC-32 of the entries   u32 pack format   u32 magic 'WPAK'
 *
 * The trailer is written only after the chunks' bytes are fsynced, and fsynced itself before any
 * entry may name a chunk of the pack: a pack whose footer checks is therefore whole, and a pack
 * without one was interrupted and holds nothing a committed entry references. The CRC of each chunk
 * is checked on every read, so a flipped bit is found without hashing the chunk again.
 */
export const pack_magic = 0x4b415057; // 'WPAK' little-endian
export const pack_format = 1;
export const pack_entry_bytes = 48;
export const pack_footer_bytes = 16;
export const pack_suffix = '.pack';

/** Where one chunk lies in its pack. Invariant: offset + length <= the pack's data bytes. */
export interface PackEntry {
  readonly chunk_id: string;
  readonly offset: number;
  readonly length: number;
  readonly crc: number;
}

export type TrailerRead =
  | { readonly kind: 'sealed'; readonly entries: readonly PackEntry[]; readonly data_bytes: number }
  /** No footer that checks: the pack's writer never finished (or the file is not a pack). */
  | { readonly kind: 'unsealed'; readonly detail: string };

/** Pack file names: a serial of 16 hex digits, so names sort in the order packs were begun. */
export function packName(serial: number): string {
  return `${serial.toString(16).padStart(16, '0')}${pack_suffix}`;
}

const pack_name_pattern = /^([0-9a-f]{16})\.pack$/;

export function packSerial(name: string): number | undefined {
  const m = pack_name_pattern.exec(name);
  return m === null ? undefined : Number.parseInt(m[1]!, 16);
}

export function encodeTrailer(entries: readonly PackEntry[]): Buffer {
  const b = Buffer.alloc(entries.length * pack_entry_bytes + pack_footer_bytes);
  entries.forEach((e, i) => {
    const at = i * pack_entry_bytes;
    b.write(e.chunk_id, at, 32, 'hex');
    b.writeBigUInt64LE(BigInt(e.offset), at + 32);
    b.writeUInt32LE(e.length, at + 40);
    b.writeUInt32LE(e.crc, at + 44);
  });
  const footer = entries.length * pack_entry_bytes;
  b.writeUInt32LE(entries.length, footer);
  b.writeUInt32LE(crc32(b.subarray(0, footer)), footer + 4);
  b.writeUInt32LE(pack_format, footer + 8);
  b.writeUInt32LE(pack_magic, footer + 12);
  return b;
}

/** Decodes a footer read from a pack's last 16 bytes: the entry count, or why it is not one. */
export function decodeFooter(footer: Buffer, file_bytes: number): { readonly count: number; readonly crc: number } | string {
  if (footer.byteLength !== pack_footer_bytes || footer.readUInt32LE(12) !== pack_magic) return 'no pack footer';
  if (footer.readUInt32LE(8) !== pack_format) return `pack format ${footer.readUInt32LE(8)}; this build reads ${pack_format}`;
  const count = footer.readUInt32LE(0);
  if (count * pack_entry_bytes + pack_footer_bytes > file_bytes) return `footer counts ${count} entries, more than the file holds`;
  return { count, crc: footer.readUInt32LE(4) };
}

/** Decodes the entries read from before the footer; undefined if they do not check. */
export function decodeEntries(bytes: Buffer, crc: number, data_bytes: number): PackEntry[] | undefined {
  if (crc32(bytes) !== crc) return undefined;
  const out: PackEntry[] = [];
  for (let at = 0; at < bytes.byteLength; at += pack_entry_bytes) {
    const offset = Number(bytes.readBigUInt64LE(at + 32));
    const length = bytes.readUInt32LE(at + 40);
    if (offset + length > data_bytes) return undefined;
    out.push({ chunk_id: bytes.toString('hex', at, at + 32), offset, length, crc: bytes.readUInt32LE(at + 44) });
  }
  return out;
}

export function chunkCrc(data: Uint8Array): number {
  return crc32(data);
}

/** chunkCrc of the bytes the parts hold in order, continued from part to part without joining them. */
export function partsCrc(parts: readonly Uint8Array[]): number {
  let crc = 0;
  for (const p of parts) crc = crc32(p, crc);
  return crc;
}
