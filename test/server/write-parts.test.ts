import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CypherCall } from '../../src/api/query-service.js';
import type { Value } from '../../src/common/values/value.js';
import type { Event } from '../../src/log/events.js';
import { ChangeFeed } from '../../src/projections/change-feed.js';
import { checkpointFilePath } from '../../src/projections/checkpoint.js';
import { CypherRunner } from '../../src/server/cypher-runner.js';
import { Database } from '../../src/server/database.js';
import { cypherCall } from '../support/cypher-call.js';

/**
 * A large auto-committed write commits in parts (docs/query-engine.md, Time slices): a point write
 * sent while its parts are appended commits before it, a restart replays both, the change feed tells
 * every node it created at its one index, and parts whose writer died leave nothing.
 */
const nodes = 30_000;

const call = (text: string, params: Record<string, Value> = {}): CypherCall => cypherCall(text, params, { memory_limit_bytes: 512 * 1024 * 1024 });

const open = (dir: string): Promise<Database> =>
  Database.open({ data_dir: dir, node_id: 1, mvcc_retention_secs: 0, checkpoint_interval_entries: 1_000_000, log_segment_bytes_max: 1 << 26 });

async function count(db: Database, label: string): Promise<bigint> {
  const out = await new CypherRunner(db).autoCommit(call(`MATCH (x:${label}) RETURN count(x)`), db.latestCommitted());
  return out.rows[0]?.[0] as bigint;
}

function kinds(db: Database): Event['kind'][] {
  const out: Event['kind'][] = [];
  for (let i = db.logFirstIndex; i <= db.committedIndex; i++) out.push(db.readEntry(i).event.kind);
  return out;
}

describe('a large write in parts', () => {
  it('a point write sent while the parts are appended commits before the commit part; a restart gives the same graph', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-write-parts-'));
    try {
      let db = await open(dir);
      const runner = new CypherRunner(db);
      const big = runner.autoCommit(call('UNWIND range(1, $n) AS i CREATE (:Big {i: i})', { n: BigInt(nodes) }), db.latestCommitted());
      let settled = false;
      void big.finally(() => (settled = true));
      // Turns of the event loop until the first part is held, then a point write.
      while (db.sm.writeParts.size === 0 && !settled) await new Promise((resolve) => setImmediate(resolve));
      expect(settled).toBe(false);
      await runner.autoCommit(call('CREATE (:Point)'), db.latestCommitted());
      expect((await big).stats.nodes_created).toBe(nodes);

      const log = kinds(db);
      const firstPart = log.indexOf('graph_write_part');
      const lastPart = log.lastIndexOf('graph_write_part');
      const point = log.lastIndexOf('graph_write');
      expect(lastPart - firstPart).toBeGreaterThan(1);
      expect(point).toBeGreaterThan(firstPart);
      expect(point).toBeLessThan(lastPart);

      const commitIndex = db.logFirstIndex + lastPart;
      const changes = new ChangeFeed(db).changesAt(commitIndex);
      expect(changes).toHaveLength(nodes);
      expect(changes.every((c) => c.operation === 'node_created' && c.index === commitIndex)).toBe(true);
      expect(new ChangeFeed(db).changesAt(commitIndex - 1)).toHaveLength(0);

      await db.close();
      db = await open(dir);
      expect(await count(db, 'Big')).toBe(BigInt(nodes));
      expect(await count(db, 'Point')).toBe(1n);
      await db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('parts whose writer stopped before the commit part leave nothing after a restart, and checkpoints go on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-write-parts-'));
    try {
      let db = await open(dir);
      const ops = Array.from({ length: 100 }, (_, i) => ({ op: 'create_node' as const, id: db.ids.nodeId(), labels: ['Lost'], props: [['i', BigInt(i)] as const] }));
      await db.submit({ kind: 'graph_write_part', first: 0, part: 0, ops }, { acks: 1, level: 'journal', timeout_ms: 0 });
      expect(db.sm.writeParts.size).toBe(1);
      // A checkpoint past the held part would lose it at a restart: none is taken while it is open.
      db.checkpoint();
      expect(checkpointFilePath(db.dataDir.checkpointDir, db.committedIndex)).toBeUndefined();
      await db.close();
      db = await open(dir);
      // The new term's first entry dropped the open write.
      expect(db.sm.writeParts.size).toBe(0);
      expect(await count(db, 'Lost')).toBe(0n);
      await new CypherRunner(db).autoCommit(call('CREATE (:After)'), db.latestCommitted());
      db.checkpoint();
      expect(checkpointFilePath(db.dataDir.checkpointDir, db.committedIndex)).toBeDefined();
      await db.close();
      db = await open(dir);
      expect(await count(db, 'After')).toBe(1n);
      expect(await count(db, 'Lost')).toBe(0n);
      await db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
