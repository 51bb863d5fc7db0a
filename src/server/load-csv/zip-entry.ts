import { readSync } from 'node:fs';

/**
 * The first entry of a ZIP archive, as LOAD CSV reads a local ZIP file (the manual: LOAD CSV reads
 * locally stored CSV files compressed with ZIP): where its data starts and how it is stored, from the
 * entry's local header. Deflated data ends itself; stored data needs its size in the header.
 */
export interface ZipEntry {
  readonly name: string;
  /** Byte offset of the entry's data in the archive. */
  readonly start: number;
  readonly method: 'stored' | 'deflated';
  /** The stored size; absent when the header defers it to a data descriptor (deflated entries only). */
  readonly size?: number;
}

const LOCAL_HEADER = 0x04034b50;
const LOCAL_HEADER_BYTES = 30;
const FLAG_ENCRYPTED = 0x1;
const FLAG_DATA_DESCRIPTOR = 0x8;

/** Whether the file starts with a ZIP local header. */
export function startsWithZip(head: Buffer): boolean {
  return head.length >= 4 && head.readUInt32LE(0) === LOCAL_HEADER;
}

/** The first entry's header; a reason the entry cannot be read (encrypted, another compression) as a string. */
export function firstZipEntry(fd: number): ZipEntry | string {
  const header = Buffer.alloc(LOCAL_HEADER_BYTES);
  if (readSync(fd, header, 0, LOCAL_HEADER_BYTES, 0) < LOCAL_HEADER_BYTES || !startsWithZip(header)) return 'not a ZIP archive';
  const flags = header.readUInt16LE(6);
  const compression = header.readUInt16LE(8);
  const size = header.readUInt32LE(18);
  const name_bytes = header.readUInt16LE(26);
  const extra_bytes = header.readUInt16LE(28);
  if ((flags & FLAG_ENCRYPTED) !== 0) return 'its first entry is encrypted';
  const name = Buffer.alloc(name_bytes);
  readSync(fd, name, 0, name_bytes, LOCAL_HEADER_BYTES);
  const start = LOCAL_HEADER_BYTES + name_bytes + extra_bytes;
  if (compression === 8) return { name: name.toString('utf8'), start, method: 'deflated', ...((flags & FLAG_DATA_DESCRIPTOR) === 0 && { size }) };
  if (compression === 0) {
    if ((flags & FLAG_DATA_DESCRIPTOR) !== 0) return 'its first entry is stored without its size in the header';
    return { name: name.toString('utf8'), start, method: 'stored', size };
  }
  return `its first entry uses compression method ${compression} (LOAD CSV reads stored and deflated entries)`;
}
