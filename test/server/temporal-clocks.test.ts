import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CypherCall, QueryBackend } from '../../src/api/query-service.js';
import { DateTimeValue } from '../../src/common/values/temporal.js';
import type { Value } from '../../src/common/values/value.js';
import { Database } from '../../src/server/database.js';
import { memberQueryBackend } from '../../src/server/query-backend.js';
import { Transactions } from '../../src/server/transactions.js';
import { cypherCall } from '../support/cypher-call.js';

/**
 * The three clocks of the temporal functions (Cypher manual, "Temporal functions - instant types"):
 * `statement()` is one instant for a whole statement, `transaction()` one instant for a whole
 * transaction, `realtime()` the wall clock at each call. The member's clock at BeginTransaction is
 * the transaction's instant; here it is fixed, so the test knows what every statement must read.
 */
const journaled = { acks: 1, level: 'journal', timeout_ms: 0 } as const;
/** 2020-01-01T00:00Z in epoch microseconds: the instant the transactions below begin at. */
const began_us = Date.UTC(2020, 0, 1) * 1000;

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0)) await c();
});

async function backend(): Promise<{ q: QueryBackend; txs: Transactions }> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-temporal-clocks-'));
  const db = await Database.open({ data_dir: dir, node_id: 1, mvcc_retention_secs: 60, checkpoint_interval_entries: 1_000_000, log_segment_bytes_max: 1 << 24 });
  const txs = new Transactions(db, { idle_timeout_ms: 60_000, open_max: 4 });
  cleanup.push(async () => {
    txs.close();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const q = memberQueryBackend(db, txs, {
    read_concern: 'LOCAL',
    concern: { acks: 1, journal: 'JOURNAL', timeout_ms: 0 },
    query_memory_limit_mb: 64,
    vector_build_wait_ms: 0,
    read_clock: () => began_us,
  });
  return { q, txs };
}

async function rows(q: QueryBackend, text: string, extra: Partial<CypherCall> = {}): Promise<Value[][]> {
  return (await q.runCypher(cypherCall(text, {}, extra))).rows as Value[][];
}

describe('statement, transaction and realtime clocks', () => {
  it('every statement of a transaction reads the instant the transaction began', async () => {
    const { q, txs } = await backend();
    const { id } = q.begin();
    const clocks = 'RETURN datetime.transaction() AS t, localtime.transaction() AS lt, date.transaction() AS d, datetime.statement() AS s';
    const first = await rows(q, clocks, { transaction_id: id });
    await rows(q, 'CREATE (:Event {at: datetime.transaction()})', { transaction_id: id });
    const second = await rows(q, clocks, { transaction_id: id });
    const stored = await rows(q, 'MATCH (e:Event) RETURN e.at = datetime.transaction() AS same', { transaction_id: id });
    await txs.commit(id, [], journaled);

    expect(String(first[0]?.[0])).toBe('2020-01-01T00:00Z');
    expect(String(first[0]?.[1])).toBe('00:00');
    expect(String(first[0]?.[2])).toBe('2020-01-01');
    expect(String(second[0]?.[0])).toBe('2020-01-01T00:00Z');
    expect(stored).toEqual([[true]]);
    // The statement clock is the member's clock when the statement runs, years after the begin.
    const statementInstant = first[0]?.[3];
    expect(statementInstant).toBeInstanceOf(DateTimeValue);
    expect((statementInstant as DateTimeValue).epochDay).toBeGreaterThan((first[0]?.[0] as DateTimeValue).epochDay);
  });

  it('outside a transaction the statement is its own transaction, one instant for all its rows', async () => {
    const { q } = await backend();
    const [row] = await rows(
      q,
      `UNWIND range(1, 2000) AS i
       WITH datetime.statement() AS s, datetime.transaction() AS t, datetime() AS n, datetime.realtime() AS r
       RETURN count(DISTINCT s) AS statements, count(DISTINCT t) AS transactions, count(DISTINCT n) AS nows,
              min(s) = min(t) AND min(t) = min(n) AS same, min(r) >= max(s) AS after`,
    );
    expect(row).toEqual([1n, 1n, 1n, true, true]);
  });

  it('realtime moves on between calls of one statement', async () => {
    const { q } = await backend();
    // Enough calls that the clock has surely passed a millisecond boundary.
    const [row] = await rows(q, 'UNWIND range(1, 200000) AS i WITH localtime.realtime() AS r RETURN count(DISTINCT r) > 1 AS moved, max(r) > min(r) AS later');
    expect(row).toEqual([true, true]);
  });
});
