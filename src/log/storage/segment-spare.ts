import { closeSync, existsSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { open as openP, unlink as unlinkP } from 'node:fs/promises';
import { join } from 'node:path';
import { encodeSegmentHeader } from './segment-format.js';
import { isNoSpace } from './no-space.js';
import { zeroRange } from './zero-fill.js';

/**
 * The next segment, made ahead of need: a file of the segment's full size filled with zeros and
 * fsynced, in the thread pool, while the current segment fills. Rotation then costs a header write
 * and a rename instead of creating, sizing and fsyncing a file on a write's path (docs/storage.md,
 * "Preallocated segments").
 *
 * The spare is never part of the log under its own name: it becomes a segment only by the rename
 * at rotation, and the first flush into it fsyncs the directory (beside the file's fdatasync) before
 * anything in it is reported durable. So a spare found at open holds nothing acknowledged, and open
 * removes it, whatever state a crash left it in.
 */
export const SPARE_NAME = 'next-segment.prealloc';

type SpareState =
  | { readonly kind: 'none' }
  | { readonly kind: 'preparing'; readonly done: Promise<void> }
  | { readonly kind: 'ready' }
  /** Preparation failed (a full disk, say); rotation falls back to creating the segment in place. */
  | { readonly kind: 'failed'; readonly detail: string };

export class SegmentSpare {
  private state: SpareState = { kind: 'none' };
  /** Set when the log closes: a preparation under way stops at its next chunk and writes no more. */
  private cancelled = false;
  readonly path: string;
  /** Preparations the disk refused for space, since this spare's log opened (a full disk met early). */
  refused_for_space = 0;

  constructor(
    dir: string,
    /** Invariant: a ready spare is exactly this many bytes, every one of them zero and fsynced. */
    private readonly bytes: number,
  ) {
    this.path = join(dir, SPARE_NAME);
  }

  get kind(): SpareState['kind'] {
    return this.state.kind;
  }

  /** Starts making the spare unless one is ready or being made (after a failure: again). */
  prepare(): void {
    if (this.cancelled || this.state.kind === 'preparing' || this.state.kind === 'ready') return;
    const done = this.make().then(
      () => {
        this.state = { kind: 'ready' };
      },
      (e: unknown) => {
        if (isNoSpace(e)) this.refused_for_space++;
        this.state = { kind: 'failed', detail: e instanceof Error ? e.message : String(e) };
      },
    );
    this.state = { kind: 'preparing', done };
  }

  private async make(): Promise<void> {
    const file = await openP(this.path, 'w');
    try {
      await zeroRange(file.fd, 0, this.bytes, () => this.cancelled);
      if (this.cancelled) throw new Error('the log closed while its next segment was being made');
      await file.datasync();
    } catch (e) {
      // A preparation refused for space (a full disk) gives its zeros back rather than hold them
      // until the next try. A cancelled one is left: its folder may already be another log's.
      if (!this.cancelled) await unlinkP(this.path).catch(() => undefined);
      throw e;
    } finally {
      await file.close();
    }
  }

  /**
   * Stops a preparation under way (at its next chunk). Called as the log closes, at once rather
   * than after its last sync: a caller that moves the log's folder away right after asking it to
   * close (disk-storage.ts, resetLog) must not have zeros written into a file of the folder that
   * takes its place.
   */
  cancel(): void {
    this.cancelled = true;
  }

  /**
   * Turns the ready spare into the segment starting at `first_index` at `segment_path`: the header
   * is written over its first zeros and the file renamed. Neither is durable yet: the caller fsyncs
   * the file and the directory before reporting anything in it durable. False when no spare is
   * ready.
   */
  take(first_index: number, segment_path: string): boolean {
    if (this.state.kind !== 'ready') return false;
    const fd = openSync(this.path, 'r+');
    try {
      const header = encodeSegmentHeader(first_index);
      writeSync(fd, header, 0, header.byteLength, 0);
    } finally {
      closeSync(fd);
    }
    renameSync(this.path, segment_path);
    this.state = { kind: 'none' };
    return true;
  }

  /** Waits for a preparation under way (before the folder is closed or removed). */
  async settle(): Promise<void> {
    if (this.state.kind === 'preparing') await this.state.done;
  }
}

/** Removes a spare left by an earlier process (see the class comment: it holds nothing durable). */
export function removeLeftoverSpare(dir: string): boolean {
  const path = join(dir, SPARE_NAME);
  if (!existsSync(path)) return false;
  unlinkSync(path);
  return true;
}
