import type { Readiness } from '../api/ops-server.js';
import type { Database } from './database.js';

/**
 * What a member says about its disk: a line on stderr as the disk fills and as space returns, and
 * /ready answering 503 while it is full or its log failed (docs/cluster.md, "A full disk"). A full
 * disk is not a dead member: it still answers reads, status and metrics, and recovers by itself.
 */
export function reportDiskSpace(db: Database, node_id: number, write: (line: string) => void = (l) => process.stderr.write(l)): void {
  db.log.onSpace((full) => {
    if (full !== undefined) write(`weft: member ${node_id}: ${full.message}; it proposes nothing and acknowledges nothing new until space returns\n`);
    else write(`weft: member ${node_id}: space returned; the log writes again\n`);
  });
}

/** Not ready while the disk is full or the log failed; undefined when the storage is well. */
export function storageReadiness(db: Database): Readiness | undefined {
  const full = db.log.diskFull;
  if (full !== undefined) return { ready: false, reason: `disk full: ${full.metadata['detail'] ?? full.message}` };
  const failed = db.log.failed;
  if (failed !== undefined) return { ready: false, reason: `log failed: ${failed.message}; restart the member` };
  return undefined;
}
