import { AssertionFailure } from '../../src/common/assert.js';
import { MemoryStorage } from '../../src/log/raft/index.js';
import type { Entry, HardState, Snapshot } from '../../src/log/raft/index.js';
import { RECORD_HEADER_BYTES, SEGMENT_HEADER_BYTES, encodeRecordHeader, encodeSegmentHeader } from '../../src/log/storage/segment-format.js';
import { SECTOR_BYTES, scanSegment } from '../../src/log/storage/segment-recovery.js';
import type { Prng } from './prng.js';

/**
 * One member's disk, as the segment log (src/log/storage) makes it behave:
 * - what a crash leaves is what was synced; a write whose sync had not returned is torn: any prefix
 *   of its entries may have reached the platter, the rest is lost (recovery cuts the torn record);
 *   the snapshot and hard state files are replaced atomically, so each is either old or new;
 * - a record can rot at rest (a bit flip). Its checksum fails when the log is next read from the
 *   media, at the latest when the member restarts and recovery verifies every record.
 * - recovery under `truncate_and_report` cuts the log before the first damaged entry; the member
 *   refills it from a peer before it starts (see recover).
 */
export class SimDisk {
  /** What survives a crash: the state as of the last sync. */
  private durable: MemoryStorage;
  /**
   * Indexes of durable entries whose record no longer verifies. Invariant: each is within the
   * durable log (above its snapshot, at most its last index) and names the record written there.
   */
  private readonly damaged = new Map<number, Entry>();

  constructor(initial: MemoryStorage) {
    this.durable = initial.clone();
  }

  /** Everything written so far is now synced. Rotten records not rewritten since stay rotten. */
  sync(storage: MemoryStorage): void {
    this.durable = storage.clone();
    for (const [index, written] of this.damaged) {
      if (entryAt(this.durable, index) !== written) this.damaged.delete(index);
    }
  }

  /**
   * The process died while a write was in flight (a crash, or an fsync that failed and stopped
   * it): of `snapshot`, `entries` and `hard_state`, written after the last sync, a random part
   * reached the disk. Whatever pages landed, recovery keeps only the records before the first one
   * that did not, so what survives is a prefix of the entries; the log's own recovery code decides
   * how long a prefix from the torn bytes.
   */
  tear(prng: Prng, snapshot: Snapshot | undefined, entries: readonly Entry[], hard_state: HardState | undefined): { entries_kept: number } {
    const torn = this.durable.clone();
    let snapshot_kept = snapshot === undefined;
    if (snapshot !== undefined && prng.chance(0.5)) {
      torn.applySnapshot(snapshot);
      snapshot_kept = true;
    }
    const entries_kept = snapshot_kept && entries.length > 0 ? realTornPrefix(entries, prng) : 0;
    if (entries_kept > 0) torn.append(entries.slice(0, entries_kept));
    if (hard_state !== undefined && prng.chance(0.5)) {
      // Term and vote may land before the entries; a commit index must not outrun them, or it would
      // mark an older, conflicting entry at that index committed. The driver writes it after them.
      const all_landed = snapshot_kept && entries_kept === entries.length;
      torn.setHardState(all_landed ? hard_state : { ...hard_state, commit: torn.hardState().commit });
    }
    this.sync(torn);
    return { entries_kept };
  }

  isDamaged(): boolean {
    return this.damaged.size > 0;
  }

  /** A bit flips in one durable record chosen by the PRNG; returns its index, or undefined if the log holds none. */
  rot(prng: Prng): number | undefined {
    const first = this.durable.firstIndex();
    const last = this.durable.lastIndex();
    if (last < first) return undefined;
    const index = first + prng.int(last - first + 1);
    this.damaged.set(index, entryAt(this.durable, index)!);
    return index;
  }

  /**
   * What open hands the member after a crash: the durable state, with any record that fails its
   * checksum repaired from peers, or undefined while that cannot be done safely (the member stays
   * down: it never serves, votes or acknowledges from a log it cannot trust).
   *
   * The log is cut before the first damaged record (open under `truncate_and_report`) and refilled
   * from a peer holding the latest of the lost entries with the same term: by Raft's log matching
   * property that peer's entries up to it are the very entries lost. The log must not come back
   * shorter than what the member may have acknowledged (a leader never lowers a match index), so
   * entries no peer holds are given up only when every other member is running and none holds them:
   * then no quorum but this member's own could have committed them, and it cannot commit alone.
   */
  recover(prng: Prng, peers: readonly MemoryStorage[], all_others_running: boolean): MemoryStorage | undefined {
    const damaged = [...this.damaged.keys()];
    if (damaged.length === 0) return this.durable.clone();
    const from = Math.min(...damaged);
    // The log's own recovery code judges the bytes: it must find the damage, and nowhere else.
    const cut = realRecoveryCut(this.durable, from, prng);
    if (cut !== from) throw new AssertionFailure(`segment recovery cut a log with entry ${from} damaged at entry ${cut}`);
    const last = this.durable.lastIndex();
    let upto = from - 1;
    let source: MemoryStorage | undefined;
    for (let i = last; i >= from && source === undefined; i--) {
      const term = this.durable.term(i);
      source = peers.find((p) => p.snapshot().meta.index >= i || (p.lastIndex() >= i && p.term(i) === term));
      if (source !== undefined) upto = i;
    }
    if (upto < last && !all_others_running) return undefined;
    this.durable = repaired(this.durable, from, upto, source);
    this.damaged.clear();
    return this.durable.clone();
  }
}

/**
 * Writes `batch` as the segment log writes one batch, tears it the way a crash does (the end lost
 * at any byte, or one sector never written while the rest landed), and returns how many entries
 * the log's own recovery keeps. A tear must never be judged corruption: that would refuse to open
 * a log that lost only what it never acknowledged.
 */
function realTornPrefix(batch: readonly Entry[], prng: Prng): number {
  const first = batch[0]!.index;
  const parts: Uint8Array[] = [encodeSegmentHeader(first)];
  for (const e of batch) parts.push(encodeRecordHeader(e.index, e.term, e.data, first), e.data);
  const records_end = SEGMENT_HEADER_BYTES + parts.slice(1).reduce((n, b) => n + b.byteLength, 0);
  // Half the batches land in a preallocated segment (zeros after the records, the file never
  // shorter), half in a file that grew; chosen from the batch, so the run's draws stay as they were.
  const preallocated = first % 2 === 0;
  if (preallocated) parts.push(Buffer.alloc(PREALLOCATED_TAIL_BYTES));
  let bytes = Buffer.concat(parts);
  // Sector 0 holds the segment header, written whole when the segment was created.
  const sectors = Math.floor(records_end / SECTOR_BYTES) - 1;
  if (sectors > 0 && prng.chance(0.5)) {
    const hole = (1 + prng.int(sectors)) * SECTOR_BYTES;
    bytes.fill(0, hole, hole + SECTOR_BYTES);
  } else {
    const cut = SEGMENT_HEADER_BYTES + prng.int(records_end - SEGMENT_HEADER_BYTES + 1);
    bytes = preallocated ? bytes.fill(0, cut, records_end) : bytes.subarray(0, cut);
  }
  const verdict = scanSegment('sim.seg', bytes, first, true);
  if (verdict.kind === 'corrupt' || verdict.kind === 'unsupported') {
    throw new AssertionFailure(`segment recovery judged a torn write ${verdict.kind}: ${JSON.stringify(verdict)}`);
  }
  return verdict.offsets.length;
}

/**
 * Writes the durable log as segment records (each entry its own write batch, as if synced one by
 * one), flips one bit of entry `damaged` chosen by the PRNG, and returns the index at which the
 * segment log's recovery (scanSegment) cuts it: its first damaged entry, or one past the end.
 */
function realRecoveryCut(s: MemoryStorage, damaged: number, prng: Prng): number {
  const first = s.firstIndex();
  const parts: Uint8Array[] = [encodeSegmentHeader(first)];
  let at = SEGMENT_HEADER_BYTES;
  let record = { offset: 0, bytes: 0 };
  for (const e of s.entries(first, s.lastIndex() + 1, Number.MAX_SAFE_INTEGER)) {
    if (e.index === damaged) record = { offset: at, bytes: RECORD_HEADER_BYTES + e.data.byteLength };
    parts.push(encodeRecordHeader(e.index, e.term, e.data, e.index), e.data);
    at += RECORD_HEADER_BYTES + e.data.byteLength;
  }
  // Half the logs end in the zeros of a preallocated segment (chosen without a draw of the PRNG).
  if (damaged % 2 === 0) parts.push(Buffer.alloc(PREALLOCATED_TAIL_BYTES));
  const bytes = Buffer.concat(parts);
  const flip = record.offset + prng.int(record.bytes);
  bytes.writeUInt8(bytes.readUInt8(flip) ^ (1 << prng.int(8)), flip);
  const verdict = scanSegment('sim.seg', bytes, first, true);
  switch (verdict.kind) {
    case 'intact':
    case 'torn':
    case 'corrupt':
      return first + verdict.offsets.length;
    case 'unsupported':
      throw new AssertionFailure(`segment recovery refused a segment it wrote: ${verdict.detail}`);
  }
}

/** The zeros after the records of a preallocated segment, as the models above write them. */
const PREALLOCATED_TAIL_BYTES = 4096;

function entryAt(s: MemoryStorage, index: number): Entry | undefined {
  if (index < s.firstIndex() || index > s.lastIndex()) return undefined;
  return s.entries(index, index + 1, Number.MAX_SAFE_INTEGER)[0];
}

/**
 * `s` cut before `from` and refilled up to `upto` from `peer`, which holds entry `upto` (with the
 * term `s` had) or a snapshot covering it. A peer snapshot past `from` replaces the log below it.
 */
function repaired(s: MemoryStorage, from: number, upto: number, peer: MemoryStorage | undefined): MemoryStorage {
  const out = new MemoryStorage();
  const theirs = peer?.snapshot();
  const snap = theirs !== undefined && theirs.meta.index >= from ? theirs : s.snapshot();
  if (snap.meta.index > 0) out.applySnapshot(snap);
  else out.setInitialConfState(snap.meta.conf_state);
  if (from > out.firstIndex()) out.append(s.entries(out.firstIndex(), from, Number.MAX_SAFE_INTEGER));
  const refill_from = Math.max(from, out.firstIndex());
  if (peer !== undefined && refill_from <= upto) out.append(peer.entries(refill_from, upto + 1, Number.MAX_SAFE_INTEGER));
  const hs = s.hardState();
  out.setHardState({ ...hs, commit: Math.max(snap.meta.index, Math.min(hs.commit, out.lastIndex())) });
  return out;
}
