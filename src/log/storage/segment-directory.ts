import { closeSync, fdatasyncSync, fsyncSync, ftruncateSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { WeftError } from '../../common/errors.js';
import { fsyncDir } from './fsync-dir.js';
import { fsyncingSync } from './no-space.js';
import { SEGMENT_HEADER_BYTES, encodeSegmentHeader } from './segment-format.js';
import { scanSegment, type Damage } from './segment-recovery.js';
import { removeLeftoverSpare } from './segment-spare.js';
import { zeroRangeSync } from './zero-fill.js';

/**
 * The folder of segment files as open finds it, and what recovery does to it before the log
 * accepts writes: a torn tail is cut; corruption is refused, or with `truncate_and_report` cut
 * and reported so a replicated member can fetch the lost suffix from its leader.
 */

/** The reason sent with a damaged log (DATA_LOSS); the API's error catalog lists it. */
export const LOG_DAMAGED = 'LOG_DAMAGED';
/** The reason sent once a write or fsync of the log failed (UNAVAILABLE); the log is then closed to writes. */
export const LOG_FAILED = 'LOG_FAILED';
/** The reason sent with a segment of another format version (FAILED_PRECONDITION). */
export const LOG_FORMAT_UNSUPPORTED = 'LOG_FORMAT_UNSUPPORTED';

/**
 * What open does with corruption (never with a tear, which is always cut):
 * - refuse: throw DATA_LOSS naming the segment, byte offset and entry index; touch nothing. The
 *   only safe choice for a member with no peers to repair from.
 * - truncate_and_report: cut the log just before the damaged entry (durably) and report it in
 *   `SegmentLog.recovery.damage`. The caller must then treat the entries from `damage.index` on as
 *   lost, and fetch them again from a peer that holds them.
 */
export type DamagePolicy = 'refuse' | 'truncate_and_report';

export interface RecoveryReport {
  /** Set when the newest write batch was found incomplete and cut. */
  readonly torn: { readonly from_index: number; readonly bytes: number } | undefined;
  /** Set (only under truncate_and_report) when corruption was found and the log cut before it. */
  readonly damage: Damage | undefined;
}

export interface RecoveredSegment {
  readonly first_index: number;
  readonly path: string;
  /** Index of the last entry in this segment; first_index - 1 when empty. */
  readonly last_index: number;
  /** The end of the last record: where the next one is written. */
  readonly bytes: number;
  /** offsets[i] is the byte offset of entry first_index + i. */
  readonly offsets: number[];
}

export function segmentName(first_index: number): string {
  return `${String(first_index).padStart(20, '0')}.seg`;
}

/**
 * Creates an empty segment whole or not at all: a crash never leaves a segment without its header.
 * With `size_bytes` above the header's size the file is extended to it with ftruncate (a sparse
 * file: it reads as zeros and costs no writes), so the first writes into it do not grow the file.
 * This is the path that cannot wait for a zero-filled spare (a new log, or a spare not ready).
 */
export function createSegment(dir: string, first_index: number, size_bytes = 0): RecoveredSegment {
  const path = join(dir, segmentName(first_index));
  const tmp = `${path}.tmp`;
  const header = encodeSegmentHeader(first_index);
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, header, 0, header.byteLength, 0);
    if (size_bytes > header.byteLength) ftruncateSync(fd, size_bytes);
    fsyncingSync(() => fsyncSync(fd));
  } catch (e) {
    // Refused for space, say: the half-made file goes at once, not at the next open.
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw e;
  }
  closeSync(fd);
  renameSync(tmp, path);
  fsyncDir(dir);
  return { first_index, path, last_index: first_index - 1, bytes: SEGMENT_HEADER_BYTES, offsets: [] };
}

/**
 * Reads and verifies the segments in `dir` (creating the first one, `size_bytes` large, when there
 * is none) and repairs what a crash left: a torn tail is zeroed, a half-made segment or spare removed.
 */
export function recoverSegments(dir: string, first_index: number, policy: DamagePolicy, size_bytes = 0): { segments: RecoveredSegment[]; report: RecoveryReport } {
  mkdirSync(dir, { recursive: true });
  // A segment whose atomic creation was interrupted before its rename never became part of the log.
  for (const n of readdirSync(dir)) if (n.endsWith('.seg.tmp')) unlinkSync(join(dir, n));
  if (removeLeftoverSpare(dir)) fsyncDir(dir);
  const names = readdirSync(dir).filter((n) => n.endsWith('.seg')).sort();
  if (names.length === 0) {
    const created = createSegment(dir, first_index, size_bytes);
    return { segments: [created], report: { torn: undefined, damage: undefined } };
  }
  const segments: RecoveredSegment[] = [];
  let torn: RecoveryReport['torn'];
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    const path = join(dir, name);
    const seg_first = Number.parseInt(name, 10);
    const previous = segments[segments.length - 1];
    if (previous !== undefined && previous.last_index + 1 !== seg_first) {
      const damage: Damage = { segment: name, offset: 0, index: previous.last_index + 1, detail: `segment starts at entry ${seg_first}` };
      return cutAtDamage(dir, segments, names.slice(i), damage, policy, size_bytes);
    }
    const scan = scanSegment(name, readFileSync(path), seg_first, i === names.length - 1);
    switch (scan.kind) {
      case 'unsupported':
        throw new WeftError('FAILED_PRECONDITION', `${scan.detail} (in ${dir})`, LOG_FORMAT_UNSUPPORTED, { segment: name });
      case 'intact':
        segments.push({ first_index: seg_first, path, last_index: seg_first + scan.offsets.length - 1, bytes: scan.bytes, offsets: scan.offsets });
        break;
      case 'torn':
        // Nothing from the cut on was ever reported durable: its batch's fdatasync had not returned.
        torn = { from_index: scan.torn_from_index, bytes: scan.torn_bytes };
        if (scan.bytes === 0) {
          // Not even the header of this rotated-in segment landed: the segment never began.
          unlinkSync(path);
          fsyncDir(dir);
          if (segments.length === 0) segments.push(createSegment(dir, seg_first, size_bytes));
          break;
        }
        zeroFile(path, scan.bytes, scan.zero_to);
        segments.push({ first_index: seg_first, path, last_index: seg_first + scan.offsets.length - 1, bytes: scan.bytes, offsets: scan.offsets });
        break;
      case 'corrupt': {
        const kept = scan.bytes >= SEGMENT_HEADER_BYTES ? { first_index: seg_first, path, last_index: seg_first + scan.offsets.length - 1, bytes: scan.bytes, offsets: scan.offsets } : undefined;
        const result = cutAtDamage(dir, kept ? [...segments, kept] : segments, names.slice(kept ? i + 1 : i), scan.damage, policy, size_bytes);
        if (kept) cutFile(path, scan.bytes);
        return result;
      }
    }
  }
  return { segments, report: { torn, damage: undefined } };
}

/** Refuses, or removes `doomed` segment files and returns what is kept (see DamagePolicy). */
function cutAtDamage(dir: string, kept: RecoveredSegment[], doomed: readonly string[], damage: Damage, policy: DamagePolicy, size_bytes: number): { segments: RecoveredSegment[]; report: RecoveryReport } {
  if (policy === 'refuse') {
    throw new WeftError(
      'DATA_LOSS',
      `log segment ${damage.segment} in ${dir} is damaged at byte ${damage.offset} (entry ${damage.index}): ${damage.detail}; refusing to open rather than drop entries that were acknowledged`,
      LOG_DAMAGED,
      { segment: damage.segment, offset: String(damage.offset), index: String(damage.index), detail: damage.detail },
    );
  }
  for (const n of doomed) unlinkSync(join(dir, n));
  const segments = kept.length > 0 ? kept : [createSegment(dir, damage.index, size_bytes)];
  fsyncDir(dir);
  return { segments, report: { torn: undefined, damage } };
}

/**
 * Writes zeros over [from, to) and fdatasyncs: the cut of a torn tail in place, so that the end of
 * the log is again where zeros begin and a preallocated segment keeps its size.
 */
function zeroFile(path: string, from: number, to: number): void {
  const fd = openSync(path, 'r+');
  try {
    zeroRangeSync(fd, from, to);
    fdatasyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function cutFile(path: string, bytes: number): void {
  const fd = openSync(path, 'r+');
  try {
    ftruncateSync(fd, bytes);
    fdatasyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
