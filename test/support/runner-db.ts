import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CypherRunner } from '../../src/server/cypher-runner.js';
import { Database } from '../../src/server/database.js';
import { cypherCall } from './cypher-call.js';

/**
 * A single-member database in a fresh directory with a CypherRunner over it, for tests that drive
 * statements through the server's runner; the directory goes with the database when the body ends.
 */
export async function withRunner(
  name: string,
  body: (db: Database, runner: CypherRunner) => Promise<void>,
  log_segment_bytes_max = 1 << 26,
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), `weft-${name}-`));
  const db = await Database.open({ data_dir: dir, node_id: 1, mvcc_retention_secs: 0, checkpoint_interval_entries: 1_000_000, log_segment_bytes_max });
  try {
    await body(db, new CypherRunner(db));
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** How many nodes carry `label` at the latest committed point, asked through the runner. */
export async function countLabel(db: Database, runner: CypherRunner, label: string): Promise<bigint> {
  const out = await runner.autoCommit(cypherCall(`MATCH (x:${label}) RETURN count(x)`), db.latestCommitted());
  return out.rows[0]?.[0] as bigint;
}
