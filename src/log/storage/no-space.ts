import { WeftError } from '../../common/errors.js';

/**
 * A full disk (docs/cluster.md, "A full disk"). A write or a file creation refused for space
 * (ENOSPC, or EDQUOT past a quota) wrote nothing the member relies on: the log keeps the bytes it
 * was writing and writes them again once space returns, and every other writer gives up its file
 * whole. A failed fsync is never one of these, whatever its errno: the kernel may have dropped the
 * dirty pages, so it stays fatal to the log (segment-log.ts, fail).
 */

/** The reason sent while a member's disk is full (RESOURCE_EXHAUSTED); the API's error catalog lists it. */
export const DISK_FULL = 'DISK_FULL';

/** The first wait before a write refused for space is tried again. */
export const no_space_retry_ms_min = 50;
/** The longest wait between tries: space freed by an operator is noticed within this. */
export const no_space_retry_ms_max = 1000;

const no_space_codes: ReadonlySet<string> = new Set(['ENOSPC', 'EDQUOT']);

/** Whether `e` is a file system's refusal for space (not an fsync's failure: see FsyncFailed). */
export function isNoSpace(e: unknown): boolean {
  if (e instanceof FsyncFailed) return false;
  if (e instanceof WeftError) return e.reason === DISK_FULL;
  const code = typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined;
  return typeof code === 'string' && no_space_codes.has(code);
}

/** An fsync that failed: never retried, never taken for a full disk (see isNoSpace). */
export class FsyncFailed extends Error {
  constructor(override readonly cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

/** Runs an fsync, marking its failure as one (FsyncFailed). */
export async function fsyncing(run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (e) {
    throw new FsyncFailed(e);
  }
}

/** The same for an fsync on this thread. */
export function fsyncingSync(run: () => void): void {
  try {
    run();
  } catch (e) {
    throw new FsyncFailed(e);
  }
}

/** The error callers get while the disk under `path` is full; nothing was made durable for them. */
export function diskFull(path: string, cause: unknown): WeftError {
  const detail = cause instanceof Error ? cause.message : String(cause);
  return new WeftError('RESOURCE_EXHAUSTED', `the disk under ${path} is full (${detail}); writes wait or are refused until space returns`, DISK_FULL, {
    path,
    detail,
  });
}

/** The wait after `previous_ms` (0: the first): doubling from the minimum, capped. */
export function nextRetryMs(previous_ms: number): number {
  return previous_ms <= 0 ? no_space_retry_ms_min : Math.min(no_space_retry_ms_max, previous_ms * 2);
}
