import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { open } from '../../src/index.js';
import { Database } from '../../src/server/database.js';
import { startServerProcess } from '../support/server-process.js';

/**
 * `weft import` as a process: killed with SIGKILL in the middle of writing its log entries, it leaves
 * nothing of the import (a new database does not appear; an existing one keeps exactly what it had),
 * and it refuses a data directory a running server holds. It writes no checkpoint: a server killed
 * while it writes the one the import left to it loses nothing.
 */
const repo = fileURLToPath(new URL('../../', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'weft-import-proc-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const import_wait_ms = 60_000;

const persons = 4_000;
const knows = 40_000;
writeFileSync(join(root, 'p.csv'), ['id:ID,name', ...Array.from({ length: persons }, (_, i) => `${i},p${i}`)].join('\n'));
writeFileSync(join(root, 'k.csv'), [':START_ID,:END_ID', ...Array.from({ length: knows }, (_, i) => `${i % persons},${(i * 7919) % persons}`)].join('\n'));
const importArgs = (dataDir: string, extra: readonly string[]): string[] => [
  'import',
  '--data-dir',
  dataDir,
  '--nodes=Person',
  join(root, 'p.csv'),
  '--relationships=KNOWS',
  join(root, 'k.csv'),
  '--report-file',
  join(root, 'import.report'),
  ...extra,
];

interface Run {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly output: string;
}

/** Runs `weft import`; with `killWhen`, SIGKILLs it (by pid) once its output matches. */
function runImport(args: readonly string[], killWhen?: RegExp): Promise<Run> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
    cwd: repo,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_NO_WARNINGS: '1' },
  });
  let output = '';
  const timer = setTimeout(() => process.kill(child.pid!, 'SIGKILL'), import_wait_ms);
  const seen = (d: Buffer): void => {
    output += d.toString();
    if (killWhen !== undefined && killWhen.test(output) && child.exitCode === null) process.kill(child.pid!, 'SIGKILL');
  };
  child.stdout!.on('data', seen);
  child.stderr!.on('data', seen);
  return new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, output });
    }),
  );
}

async function count(dir: string): Promise<[bigint, bigint]> {
  const db = await open(dir);
  try {
    const nodes = (await db.query('MATCH (n) RETURN count(n)')).rows[0]![0] as bigint;
    const edges = (await db.query('MATCH ()-[r]->() RETURN count(r)')).rows[0]![0] as bigint;
    return [nodes, edges];
  } finally {
    await db.close();
  }
}

/** Bulk-load entries in the directory's log: evidence the kill landed after the import began writing. */
async function bulkEntries(dir: string): Promise<number> {
  const db = await Database.open({ data_dir: dir, node_id: 1, mvcc_retention_secs: 300, checkpoint_interval_entries: 1_000_000, log_segment_bytes_max: 64 << 20 });
  try {
    let found = 0;
    for (let i = db.logFirstIndex; i <= db.committedIndex; i++) if (db.readEntry(i).event.kind === 'bulk_load') found++;
    return found;
  } finally {
    await db.close();
  }
}

describe('weft import process', () => {
  it('killed mid-import into an existing database, leaves it exactly as it was; run again, it loads everything', async () => {
    const dir = join(root, 'existing');
    const db = await open(dir);
    await db.query("CREATE (:Before {name: 'kept'})");
    await db.close();
    // Small entries, so the import is writing one after another when it is killed.
    const killed = await runImport(importArgs(dir, ['--into-existing', '--batch-rows', '200']), /relationships\s+[1-9][\d,]* rows/);
    expect(killed.signal, killed.output).toBe('SIGKILL');
    expect(await bulkEntries(dir)).toBeGreaterThan(0);
    expect(await count(dir)).toEqual([1n, 0n]);

    const done = await runImport(importArgs(dir, ['--into-existing']));
    expect(done.code, done.output).toBe(0);
    expect(done.output).toMatch(new RegExp(`imported ${persons} nodes and ${knows} relationships`));
    expect(await count(dir)).toEqual([BigInt(persons + 1), BigInt(knows)]);
  });

  it('killed mid-import into a new directory, leaves no database there; the next import clears what it staged', async () => {
    const dir = join(root, 'fresh');
    const killed = await runImport(importArgs(dir, ['--batch-rows', '200']), /relationships\s+[1-9][\d,]* rows/);
    expect(killed.signal, killed.output).toBe('SIGKILL');
    expect(existsSync(dir)).toBe(false);
    // The staging directory beside it is all that remains; the next import removes it.
    expect(readdirSync(root).filter((f) => f.startsWith('fresh.import-'))).toHaveLength(1);
    const done = await runImport(importArgs(dir, []));
    expect(done.code, done.output).toBe(0);
    expect(readdirSync(root).filter((f) => f.startsWith('fresh.import-'))).toEqual([]);
    expect(await count(dir)).toEqual([BigInt(persons), BigInt(knows)]);
  });

  it('refuses a data directory a running server holds, naming the process', async () => {
    const dir = join(root, 'served');
    const server = await startServerProcess(dir);
    try {
      const refused = await runImport(importArgs(dir, ['--into-existing']));
      expect(refused.code).toBe(1);
      expect(refused.output).toContain(`is in use by process ${server.pid}; stop the server on it before importing`);
    } finally {
      await server.stop();
    }
  });

  it('leaves its checkpoint to the next server; killed with SIGKILL inside that checkpoint\'s write, the server loses nothing of the import', async () => {
    const dir = join(root, 'deferred');
    const done = await runImport(importArgs(dir, []));
    expect(done.code, done.output).toBe(0);
    const checkpoints = join(dir, 'checkpoints');
    expect(existsSync(checkpoints) ? readdirSync(checkpoints).filter((f) => f.endsWith('.ckpt')) : []).toEqual([]);

    // The server replays the import at its start and checkpoints it at its stop; the preload holds it
    // between the checkpoint's write and its rename, where it is killed.
    const server = await startServerProcess(dir, [], ['--import', join(repo, 'test/support/checkpoint-rename-pause.mjs')]);
    let killed = false;
    try {
      // Answering a call, it has its signal handlers: SIGTERM stops it gracefully.
      expect((await fetch(`${server.ops}/health`)).status).toBe(200);
      const stopped = server.stop();
      const deadline = Date.now() + import_wait_ms;
      while (!server.output().includes('checkpoint written, pausing before its rename') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(server.output()).toContain('checkpoint written, pausing before its rename');
      await server.kill();
      killed = true;
      await stopped;
    } finally {
      if (!killed) await server.kill().catch(() => undefined);
    }
    expect(readdirSync(checkpoints).filter((f) => f.endsWith('.ckpt'))).toEqual([]);
    expect(readdirSync(checkpoints).filter((f) => f.endsWith('.ckpt.tmp'))).toHaveLength(1);
    expect(await count(dir)).toEqual([BigInt(persons), BigInt(knows)]);
  }, 2 * import_wait_ms);
});
