/**
 * B-tree indexes on one member, in process (no transport, so the projection's own costs show):
 *
 * - build rate: a UNIQUE constraint's build and a plain index's build over `--nodes` stored nodes;
 * - lookup latency: an indexed equality lookup beside the label scan the planner would otherwise run;
 * - write overhead: single-node writes to a label with and without a UNIQUE constraint (write concern
 *   acks 0, so the log's fsync does not hide the check's cost).
 *
 *   npx tsx bench/index-build.ts [--nodes 1000000] [--lookups 2000] [--writes 20000]
 *
 * Prints a table and writes bench/results/index-build.json.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConcernWait } from '../src/log/driver/log-driver.js';
import { Database } from '../src/server/database.js';
import { startSchemaRuntime } from '../src/server/index-builds/schema-runtime.js';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const nodes = arg('nodes', 1_000_000);
const lookups = arg('lookups', 2000);
const writes = arg('writes', 20_000);
const seed_batch_nodes = 10_000;

const journaled: ConcernWait = { acks: 1, level: 'journal', timeout_ms: 0 };
const unconfirmed: ConcernWait = { acks: 0, level: 'memory', timeout_ms: 0 };

interface Row {
  readonly case: string;
  readonly value: number;
  readonly unit: string;
  readonly note?: string;
}

function pct(sorted: number[], p: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-bench-index-'));
  const db = await Database.open({ data_dir: dir, node_id: 1, mvcc_retention_secs: 300, checkpoint_interval_entries: 100_000_000, log_segment_bytes_max: 64 << 20 });
  const rt = startSchemaRuntime(db, { index_build_max_running: 2, index_build_statement_wait_secs: 3600, concern: () => journaled });
  const rows: Row[] = [];
  try {
    let t = performance.now();
    for (let i = 0; i < nodes; i += seed_batch_nodes) {
      await db.write(
        (ws) => {
          for (let j = i; j < Math.min(nodes, i + seed_batch_nodes); j++) ws.createNode(['Account'], new Map<string, string | bigint>([['email', `user${j}@example.com`], ['n', BigInt(j)]]));
        },
        { concern: journaled },
      );
    }
    rows.push({ case: 'seed nodes', value: nodes / ((performance.now() - t) / 1000), unit: 'nodes/s', note: `${nodes} nodes, batches of ${seed_batch_nodes}` });

    t = performance.now();
    const c = await rt.admin.createConstraint({ name: '', label: 'Account', constraint: 'UNIQUE', properties: ['email'], if_not_exists: false, on_duplicate_rename: '' });
    const uniqueMs = performance.now() - t;
    if (c.state !== 'ACTIVE') throw new Error(`the unique build did not publish: ${c.state}`);
    rows.push({ case: 'UNIQUE build (email)', value: nodes / (uniqueMs / 1000), unit: 'nodes/s', note: `${uniqueMs.toFixed(0)} ms, hashing pass included` });

    t = performance.now();
    const index = await rt.admin.createIndex({ name: 'account_n', label: 'Account', properties: ['n'], if_not_exists: false });
    const plainMs = performance.now() - t;
    rows.push({ case: 'plain index build (n)', value: nodes / (plainMs / 1000), unit: 'nodes/s', note: `${plainMs.toFixed(0)} ms` });

    // Lookups on the committed snapshot: an indexed equality lookup against the label scan.
    const view = db.latestCommitted();
    const q = db.sm.schema.lookup(view);
    const probe = (i: number): bigint => BigInt((i * 7919) % nodes);
    for (let i = 0; i < 200; i++) [...q.equal(index.index_id, [probe(i + lookups)])]; // warm-up
    const indexed: number[] = [];
    for (let i = 0; i < lookups; i++) {
      const s = performance.now();
      const found = [...q.equal(index.index_id, [probe(i)])];
      indexed.push((performance.now() - s) * 1000);
      if (found.length !== 1) throw new Error(`lookup ${probe(i)} found ${found.length}`);
    }
    indexed.sort((a, b) => a - b);
    const scans: number[] = [];
    const scanCount = Math.max(3, Math.min(50, Math.floor(lookups / 100)));
    for (let i = 0; i < scanCount; i++) {
      const want = probe(i);
      const s = performance.now();
      let hits = 0;
      for (const n of view.nodesWithLabel('Account')) if (n.props.get('n') === want) hits++;
      scans.push((performance.now() - s) * 1000);
      if (hits !== 1) throw new Error(`scan ${want} found ${hits}`);
    }
    scans.sort((a, b) => a - b);
    rows.push({ case: 'indexed equality lookup p50', value: pct(indexed, 50), unit: 'us' });
    rows.push({ case: 'indexed equality lookup p99', value: pct(indexed, 99), unit: 'us' });
    rows.push({ case: 'label scan p50', value: pct(scans, 50), unit: 'us', note: `${scanCount} scans of ${nodes} nodes` });
    const ranges: number[] = [];
    for (let i = 0; i < 300; i++) {
      const from = BigInt((i * 7919) % (nodes - 100));
      const s = performance.now();
      let found = 0;
      for (const _ of q.range(index.index_id, [], { value: from, inclusive: true }, { value: from + 100n, inclusive: false })) found++;
      if (i >= 100) ranges.push((performance.now() - s) * 1000);
      if (found !== 100) throw new Error(`range from ${from} found ${found}`);
    }
    ranges.sort((a, b) => a - b);
    rows.push({ case: 'indexed range of 100 nodes p50', value: pct(ranges, 50), unit: 'us' });

    // Unique-constraint write overhead: the same single-node writes to a constrained and a free label.
    let written = 0;
    const writeRate = async (label: string, key: string): Promise<number> => {
      const s = performance.now();
      for (let i = 0; i < writes; i++) {
        const n = written++;
        await db.write((ws) => ws.createNode([label], new Map([[key, `${label}-${n}@example.com`]])), { concern: unconfirmed });
      }
      return writes / ((performance.now() - s) / 1000);
    };
    await rt.admin.createConstraint({ name: '', label: 'Member', constraint: 'UNIQUE', properties: ['email'], if_not_exists: false, on_duplicate_rename: '' });
    await writeRate('Warm', 'email');
    // Interleaved rounds, median of each: the machine's noise falls on all three alike.
    const rounds: [number[], number[], number[]] = [[], [], []];
    for (let r = 0; r < 3; r++) {
      rounds[0].push(await writeRate('Guest', 'email'));
      rounds[1].push(await writeRate('Member', 'email'));
      rounds[2].push(await writeRate('Account', 'email'));
    }
    const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[1]!;
    const [free, unique, big] = rounds.map(median) as [number, number, number];
    const fewer = (x: number): string => `${(((free - x) / free) * 100).toFixed(1)}% fewer`;
    rows.push({ case: 'writes, label with no index', value: free, unit: 'writes/s', note: 'acks 0: the checks, not fsync' });
    rows.push({ case: 'writes, UNIQUE constraint', value: unique, unit: 'writes/s', note: fewer(unique) });
    rows.push({ case: `writes, UNIQUE + index, ${nodes} nodes`, value: big, unit: 'writes/s', note: fewer(big) });
  } finally {
    rt.stop();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const width = Math.max(...rows.map((r) => r.case.length));
  for (const r of rows) console.log(`${r.case.padEnd(width)}  ${r.value.toFixed(r.unit === 'us' ? 1 : 0).padStart(12)} ${r.unit.padEnd(9)} ${r.note ?? ''}`);
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/index-build.json', JSON.stringify({ nodes, lookups, writes, rows, at: new Date().toISOString() }, null, 2));
}

await main();
