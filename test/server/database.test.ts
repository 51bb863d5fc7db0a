import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Database, type DatabaseOptions } from '../../src/server/database.js';

const dirs: string[] = [];
function options(overrides: Partial<DatabaseOptions> = {}): DatabaseOptions {
  const dir = mkdtempSync(join(tmpdir(), 'weft-db-'));
  dirs.push(dir);
  return { data_dir: dir, node_id: 1, mvcc_retention_secs: 300, checkpoint_interval_entries: 1000, log_segment_bytes_max: 1 << 20, ...overrides };
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const journaled = { acks: 1, level: 'journal', timeout_ms: 0 } as const;

describe('database', () => {
  it('restart: nodes and edges written before a close are read back, by replay and by checkpoint', async () => {
    const opts = options({ checkpoint_interval_entries: 5 });
    const db = await Database.open(opts);
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) {
      const { value } = await db.write((ws) => ws.createNode(['Person'], new Map([['n', BigInt(i)]])), { concern: journaled });
      ids.push(value.id);
    }
    await db.write((ws) => ws.createEdge('KNOWS', ids[0]!, ids[1]!, new Map()), { concern: journaled });
    const deployment = Buffer.from(db.deployment).toString('hex');
    await db.close();

    const again = await Database.open(opts);
    expect(Buffer.from(again.deployment).toString('hex')).toBe(deployment);
    const view = again.latestCommitted();
    expect([...view.nodesWithLabel('Person')].map((n) => n.props.get('n'))).toEqual([...Array(12).keys()].map(BigInt));
    expect([...view.edgesOf(ids[0]!, 'out')].map((e) => e.target)).toEqual([ids[1]]);
    // New ids continue after the old ones.
    const { value } = await again.write((ws) => ws.createNode([], new Map()), { concern: journaled });
    expect(value.id).toBeGreaterThan(ids[11]!);
    await again.close();
  });

  it('time travel: each committed version is read back at its commit_ts', async () => {
    const db = await Database.open(options());
    const { value: node } = await db.write((ws) => ws.createNode(['V'], new Map([['v', 0n]])), { concern: journaled });
    const stamps: number[] = [];
    for (let i = 1; i <= 20; i++) {
      const { receipt } = await db.write((ws) => ws.setNodeProperties(node.id, new Map([['v', BigInt(i)]]), false), { concern: journaled });
      stamps.push(receipt.commit_ts);
    }
    stamps.forEach((ts, i) => {
      expect(db.viewAtTimestamp(ts).node(node.id)?.props.get('v')).toBe(BigInt(i + 1));
      expect(db.viewAtTimestamp(ts).node(node.id)?.ts).toBe(ts);
    });
    await db.close();
  });

  it('a refused write changes nothing: deleting a node that still has edges', async () => {
    const db = await Database.open(options());
    const { value: a } = await db.write((ws) => ws.createNode([], new Map()), { concern: journaled });
    const { value: b } = await db.write((ws) => ws.createNode([], new Map()), { concern: journaled });
    await db.write((ws) => ws.createEdge('R', a.id, b.id, new Map()), { concern: journaled });
    const before = db.committedIndex;
    await expect(db.write((ws) => ws.deleteNode(a.id, false), { concern: journaled })).rejects.toMatchObject({ reason: 'NODE_HAS_EDGES' });
    expect(db.committedIndex).toBe(before);
    expect(db.latestCommitted().node(a.id)).toBeDefined();
    await db.close();
  });

  it('a data directory in use by a live process is refused; a stale lock left by a killed one is taken over', async () => {
    const opts = options();
    const holder = spawn('sleep', ['30']);
    try {
      writeFileSync(join(opts.data_dir, 'LOCK'), `${holder.pid}\n`);
      await expect(Database.open(opts)).rejects.toMatchObject({ reason: 'DATA_DIR_LOCKED' });
    } finally {
      holder.kill('SIGKILL');
    }
    await new Promise((resolve) => holder.once('exit', resolve));
    const db = await Database.open(opts);
    await db.close();
  });

  it('a data directory of another engine format is refused by name and left untouched', async () => {
    const opts = options();
    writeFileSync(join(opts.data_dir, 'ENGINE_FORMAT'), '999\n');
    await expect(Database.open(opts)).rejects.toMatchObject({ reason: 'ENGINE_FORMAT_MISMATCH' });
    expect(readFileSync(join(opts.data_dir, 'ENGINE_FORMAT'), 'utf8')).toBe('999\n');
    expect(existsSync(join(opts.data_dir, 'log'))).toBe(false);
  });
});
