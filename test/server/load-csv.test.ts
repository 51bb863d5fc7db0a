import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { CypherCall } from '../../src/api/query-service.js';
import type { Value } from '../../src/common/values/value.js';
import { CypherRunner } from '../../src/server/cypher-runner.js';
import { Database } from '../../src/server/database.js';
import { loadConfig } from '../../src/server/config.js';
import { ServerCsvSources, loadCsvSettings } from '../../src/server/load-csv/csv-sources.js';
import { cypherCall } from '../support/cypher-call.js';
import { failure } from '../support/failure.js';

/**
 * LOAD CSV on the server's paths: a write without IN TRANSACTIONS is one log entry; with IN
 * TRANSACTIONS the batches commit while the source is still being read (an HTTP source that holds back
 * its second half until a batch has committed); the log holds the writes, so a restart without the
 * file rebuilds the same graph; HTTP sources on loopback (headers, gzip, a redirect, a 404); the import
 * directory's bounds; and a stalled source stopped by the statement's deadline and by a cancelled call.
 */
const call = (text: string, params: Record<string, Value> = {}, extra: Partial<CypherCall> = {}): CypherCall =>
  cypherCall(text, params, { memory_limit_bytes: 256 * 1024 * 1024, ...extra });

/** Bound on the waits of the HTTP handlers below: a test that gets that far has failed. */
const wait_ms_max = 10_000;

interface Setup {
  readonly dir: string;
  readonly imports: string;
  readonly db: Database;
  readonly runner: CypherRunner;
}

async function openAt(dir: string, remote = true): Promise<Setup> {
  const imports = join(dir, 'import');
  mkdirSync(imports, { recursive: true });
  const db = await Database.open({ data_dir: dir, node_id: 1, mvcc_retention_secs: 0, checkpoint_interval_entries: 1_000_000, log_segment_bytes_max: 1 << 26 });
  const runner = new CypherRunner(db);
  runner.csv = new ServerCsvSources({ import_dir: imports, remote });
  return { dir, imports, db, runner };
}

async function withLoadCsv(body: (s: Setup) => Promise<void>, remote = true): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-load-csv-'));
  const s = await openAt(dir, remote);
  try {
    await body(s);
  } finally {
    await s.db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A loopback HTTP server answering with `handler`; closed when the body ends. */
async function withHttp(handler: (req: IncomingMessage, res: ServerResponse) => void, body: (base: string) => Promise<void>): Promise<void> {
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    await body(`http://127.0.0.1:${port}`);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

function rows(n: number, from = 1): string {
  let out = '';
  for (let i = from; i < from + n; i++) out += `${i},name ${i}\n`;
  return out;
}

/** The graph writes of the log after `from`, by how many nodes each creates. */
function createdPerEntry(db: Database, from: number): number[] {
  const out: number[] = [];
  for (let i = from + 1; i <= db.sm.appliedIndex; i++) {
    const event = db.readEntry(i).event;
    if (event.kind === 'graph_write') out.push(event.ops.filter((op) => op.op === 'create_node').length);
  }
  return out;
}

async function count(s: Setup, label: string): Promise<bigint> {
  const out = await s.runner.autoCommit(call(`MATCH (x:${label}) RETURN count(x)`), s.db.latestCommitted());
  return out.rows[0]?.[0] as bigint;
}

/** A ZIP archive of one entry (local header, data, central directory, end record), stored or deflated. */
function zipOf(name: string, text: string, method: 'stored' | 'deflated'): Buffer {
  const raw = Buffer.from(text);
  const data = method === 'stored' ? raw : deflateRawSync(raw);
  const file = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(method === 'stored' ? 0 : 8, 8);
  local.writeUInt32LE(crc32(raw), 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(raw.length, 22);
  local.writeUInt16LE(file.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(method === 'stored' ? 0 : 8, 10);
  central.writeUInt32LE(crc32(raw), 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(raw.length, 24);
  central.writeUInt16LE(file.length, 28);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + file.length, 12);
  end.writeUInt32LE(local.length + file.length + data.length, 16);
  return Buffer.concat([local, file, data, central, file, end]);
}

async function sleep(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

describe('LOAD CSV on the server', () => {
  it('a write without IN TRANSACTIONS is one log entry, however many rows the file has', async () => {
    await withLoadCsv(async (s) => {
      writeFileSync(join(s.imports, 'people.csv'), `id,name\n${rows(1500)}`);
      const before = s.db.sm.appliedIndex;
      const out = await s.runner.autoCommit(call("LOAD CSV WITH HEADERS FROM 'file:///people.csv' AS r CREATE (:P {id: toInteger(r.id), name: r.name})"), s.db.latestCommitted());
      expect(out.stats.nodes_created).toBe(1500);
      expect(createdPerEntry(s.db, before)).toEqual([1500]);
    });
  });

  it('IN TRANSACTIONS commits batches while the source is still being read', async () => {
    await withLoadCsv(async (s) => {
      const before = s.db.sm.appliedIndex;
      let committedBeforeTheRest: boolean | undefined;
      await withHttp(
        (_req, res) => {
          res.writeHead(200, { 'content-type': 'text/csv' });
          res.write(rows(1500));
          void (async () => {
            // Holds the second half back until the first batch's entry is in the log (bounded).
            const until = Date.now() + wait_ms_max;
            while (s.db.sm.appliedIndex === before && Date.now() < until) await sleep(5);
            committedBeforeTheRest = s.db.sm.appliedIndex > before;
            res.end(rows(1500, 1501));
          })();
        },
        async (base) => {
          const out = await s.runner.autoCommit(
            call(`LOAD CSV FROM '${base}/people.csv' AS r CALL (r) { CREATE (:P {id: toInteger(r[0])}) } IN TRANSACTIONS OF 1000 ROWS`),
            s.db.latestCommitted(),
          );
          expect(out.stats.nodes_created).toBe(3000);
        },
      );
      expect(committedBeforeTheRest).toBe(true);
      expect(createdPerEntry(s.db, before)).toEqual([1000, 1000, 1000]);
    });
  });

  it('the log holds the writes, not the file: a restart without the file rebuilds the same graph', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-load-csv-replay-'));
    try {
      let s = await openAt(dir);
      writeFileSync(join(s.imports, 'people.csv'), rows(2500));
      await s.runner.autoCommit(call("LOAD CSV FROM 'file:///people.csv' AS r CALL (r) { CREATE (:P {id: toInteger(r[0]), line: linenumber()}) } IN TRANSACTIONS OF 1000 ROWS"), s.db.latestCommitted());
      const sum = async (): Promise<Value[] | undefined> =>
        (await s.runner.autoCommit(call('MATCH (p:P) RETURN count(p), sum(p.id), sum(p.line)'), s.db.latestCommitted())).rows[0]?.slice();
      const written = await sum();
      expect(written).toEqual([2500n, 3126250n, 3126250n]);
      await s.db.close();
      rmSync(join(dir, 'import'), { recursive: true, force: true });
      s = await openAt(dir);
      try {
        expect(await sum()).toEqual(written);
      } finally {
        await s.db.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an HTTP source: rows with headers, a gzip-encoded body, a redirect, and a 404', async () => {
    await withLoadCsv(async (s) => {
      const csv = `id,name\n${rows(3)}`;
      await withHttp(
        (req, res) => {
          if (req.url === '/plain.csv') res.writeHead(200).end(csv);
          else if (req.url === '/gzip.csv') res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(csv));
          else if (req.url === '/moved.csv') res.writeHead(302, { location: '/plain.csv' }).end();
          else res.writeHead(404).end('no');
        },
        async (base) => {
          for (const path of ['plain.csv', 'gzip.csv', 'moved.csv']) {
            const out = await s.runner.autoCommit(call('LOAD CSV WITH HEADERS FROM $url AS r RETURN r.name, linenumber(), file()', { url: `${base}/${path}` }), s.db.latestCommitted());
            expect(out.rows).toEqual([
              ['name 1', 2n, `${base}/${path}`],
              ['name 2', 3n, `${base}/${path}`],
              ['name 3', 4n, `${base}/${path}`],
            ]);
          }
          const missing = await failure(s.runner.autoCommit(call(`LOAD CSV FROM '${base}/missing.csv' AS r RETURN r`), s.db.latestCommitted()));
          expect(missing).toMatchObject({ reason: 'ExternalResourceFailed', metadata: { detail: 'ReadFailed' } });
          expect(missing.message).toContain('HTTP status 404');
        },
      );
    });
  });

  it('gzip, Deflate and ZIP files in the import directory are read decompressed, whatever their names', async () => {
    await withLoadCsv(async (s) => {
      const text = rows(1200);
      writeFileSync(join(s.imports, 'people.csv.gz'), gzipSync(text));
      writeFileSync(join(s.imports, 'people.zlib'), deflateSync(text));
      writeFileSync(join(s.imports, 'people.zip'), zipOf('people.csv', text, 'deflated'));
      writeFileSync(join(s.imports, 'stored.zip'), zipOf('people.csv', text, 'stored'));
      for (const file of ['people.csv.gz', 'people.zlib', 'people.zip', 'stored.zip']) {
        const out = await s.runner.autoCommit(call(`LOAD CSV FROM 'file:///${file}' AS r RETURN count(*), max(toInteger(r[0])), max(linenumber())`), s.db.latestCommitted());
        expect(out.rows, file).toEqual([[1200n, 1200n, 1200n]]);
      }
    });
  });

  it('a path that leads out of the import directory is refused, through a symbolic link too', async () => {
    await withLoadCsv(async (s) => {
      writeFileSync(join(s.dir, 'secret.csv'), 'a,b\n');
      symlinkSync(join(s.dir, 'secret.csv'), join(s.imports, 'link.csv'));
      const linked = await failure(s.runner.autoCommit(call("LOAD CSV FROM 'file:///link.csv' AS r RETURN r"), s.db.latestCommitted()));
      expect(linked).toMatchObject({ code: 'FAILED_PRECONDITION', reason: 'ExternalResourceFailed', metadata: { detail: 'OutsideImportDirectory' } });
      // `..` cannot climb out: the URL's path is resolved from the import directory's root, like a chroot.
      const climbed = await failure(s.runner.autoCommit(call("LOAD CSV FROM 'file:///../secret.csv' AS r RETURN r"), s.db.latestCommitted()));
      expect(climbed).toMatchObject({ code: 'NOT_FOUND', metadata: { detail: 'FileNotFound' } });
      const encoded = await failure(s.runner.autoCommit(call("LOAD CSV FROM 'file:///%2e%2e/secret.csv' AS r RETURN r"), s.db.latestCommitted()));
      expect(encoded).toMatchObject({ code: 'NOT_FOUND', metadata: { detail: 'FileNotFound' } });
    });
  });

  it('file URLs and remote URLs can each be turned off', async () => {
    await withLoadCsv(async (s) => {
      s.runner.csv = new ServerCsvSources({ import_dir: '', remote: false });
      const file = await failure(s.runner.autoCommit(call("LOAD CSV FROM 'file:///a.csv' AS r RETURN r"), s.db.latestCommitted()));
      expect(file).toMatchObject({ code: 'FAILED_PRECONDITION', metadata: { detail: 'FileUrlsDisabled' } });
      const remote = await failure(s.runner.autoCommit(call("LOAD CSV FROM 'http://127.0.0.1:1/a.csv' AS r RETURN r"), s.db.latestCommitted()));
      expect(remote).toMatchObject({ code: 'FAILED_PRECONDITION', metadata: { detail: 'RemoteUrlsDisabled' } });
    });
  });

  it('a source that stalls is stopped by the deadline and by a cancelled call, and nothing is written', async () => {
    await withLoadCsv(async (s) => {
      await withHttp(
        (_req, res) => {
          res.writeHead(200);
          res.write(rows(10)); // and then nothing, until the server closes the connection
        },
        async (base) => {
          const text = `LOAD CSV FROM '${base}/stall.csv' AS r CREATE (:P {id: r[0]})`;
          const before = s.db.sm.appliedIndex;
          const started = Date.now();
          const late = await failure(s.runner.autoCommit(call(text, {}, { deadline_ms: Date.now() + 300 }), s.db.latestCommitted()));
          expect(late).toMatchObject({ code: 'DEADLINE_EXCEEDED' });
          expect(Date.now() - started).toBeLessThan(wait_ms_max);
          const cancel = new AbortController();
          setTimeout(() => cancel.abort(), 300);
          const cancelled = await failure(s.runner.autoCommit(call(text, {}, { signal: cancel.signal }), s.db.latestCommitted()));
          expect(cancelled).toMatchObject({ code: 'CANCELLED' });
          expect(s.db.sm.appliedIndex).toBe(before);
          expect(await count(s, 'P')).toBe(0n);
        },
      );
    });
  });

  it('the settings: the import directory under the data directory unless absolute, and each kind of URL turned off', () => {
    const settings = (argv: string[]): ReturnType<typeof loadCsvSettings> => loadCsvSettings(loadConfig(['--data-dir', '/srv/weft', ...argv], {}));
    expect(settings([])).toEqual({ import_dir: '/srv/weft/import', remote: true });
    expect(settings(['--load-csv-import-dir', '/data/csv'])).toEqual({ import_dir: '/data/csv', remote: true });
    expect(settings(['--load-csv-file-urls', 'OFF', '--load-csv-remote', 'off'])).toEqual({ import_dir: '', remote: false });
    expect(() => loadConfig(['--load-csv-remote', 'maybe'], {})).toThrow(/load_csv_remote/);
  });
});
