import { createReadStream, openSync, readSync, closeSync, realpathSync, statSync } from 'node:fs';
import { get as httpGet, type IncomingMessage } from 'node:http';
import { get as httpsGet } from 'node:https';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { createGunzip, createInflate, createInflateRaw } from 'node:zlib';
import { externalResourceFailed, type CsvInput, type CsvSources } from '../../query/execute/csv/csv-source.js';
import { FileCsvInput, StreamCsvInput } from './csv-inputs.js';
import { firstZipEntry, startsWithZip } from './zip-entry.js';

/** Where LOAD CSV may read (docs/cypher.md, "LOAD CSV"; the server settings `load_csv_*`). */
export interface LoadCsvSettings {
  /**
   * The directory `file:///` URLs are resolved in, like a chroot (Neo4j's `server.directories.import`);
   * '' refuses every file URL (Neo4j's `dbms.security.allow_csv_import_from_file_urls=false`).
   */
  readonly import_dir: string;
  /** Whether `http://` and `https://` URLs are read. */
  readonly remote: boolean;
}

/** HTTP redirects followed for one remote source; the manual's rule: never one that changes the protocol. */
const redirects_max = 5;
/** How long a remote source may send nothing (connecting, or between two pieces) before it fails. */
const remote_idle_ms_max = 30_000;

const GZIP_MAGIC = [0x1f, 0x8b];

/**
 * The server's LOAD CSV sources: local files under the import directory (read synchronously; gzip,
 * Deflate and ZIP files decompressed as a stream), and HTTP(S) URLs read as a stream, decompressed when the response
 * is gzip or Deflate encoded.
 */
export class ServerCsvSources implements CsvSources {
  private readonly root: string | undefined;

  constructor(private readonly settings: LoadCsvSettings) {
    this.root = settings.import_dir === '' ? undefined : resolve(settings.import_dir);
  }

  open(location: string): CsvInput {
    let url: URL;
    try {
      url = new URL(location);
    } catch {
      throw externalResourceFailed('InvalidUrl', `Invalid URL '${location}': LOAD CSV reads file:///, http:// and https:// URLs`);
    }
    switch (url.protocol) {
      case 'file:':
        return this.file(url, location);
      case 'http:':
      case 'https:':
        if (!this.settings.remote) {
          throw externalResourceFailed('RemoteUrlsDisabled', `LOAD CSV from ${url.protocol}// URLs is disabled on this server (load_csv_remote is OFF)`, 'FAILED_PRECONDITION');
        }
        return remote(url, location);
      default:
        throw externalResourceFailed('UnsupportedScheme', `Invalid URL '${location}': unknown protocol ${url.protocol.slice(0, -1)}; LOAD CSV reads file:///, http:// and https:// URLs`);
    }
  }

  /** `file:///a/b.csv` is `<import dir>/a/b.csv`; a path that leads out of it (a symbolic link included) is refused. */
  private file(url: URL, location: string): CsvInput {
    if (this.root === undefined) {
      throw externalResourceFailed('FileUrlsDisabled', 'LOAD CSV from file URLs is disabled on this server (load_csv_import_dir is empty)', 'FAILED_PRECONDITION');
    }
    if (url.hostname !== '' && url.hostname !== 'localhost') {
      throw externalResourceFailed('InvalidUrl', `Invalid URL '${location}': a file URL names no host (file:///path)`);
    }
    let path: string;
    try {
      path = fileURLToPath(new URL(`file://${url.pathname}`));
    } catch (e) {
      throw externalResourceFailed('InvalidUrl', `Invalid URL '${location}': ${(e as Error).message}`);
    }
    const wanted = resolve(this.root, `.${sep}${path}`);
    if (!inside(this.root, wanted)) throw outside(location);
    let real: string;
    try {
      real = realpathSync(wanted);
    } catch {
      throw externalResourceFailed('FileNotFound', `Couldn't load the external resource at: ${location} (no file ${wanted})`, 'NOT_FOUND');
    }
    let root: string;
    try {
      root = realpathSync(this.root);
    } catch {
      throw externalResourceFailed('FileNotFound', `Couldn't load the external resource at: ${location} (the import directory ${this.root} does not exist)`, 'NOT_FOUND');
    }
    if (!inside(root, real)) throw outside(location);
    if (!statSync(real).isFile()) throw externalResourceFailed('FileNotFound', `Couldn't load the external resource at: ${location} (${wanted} is not a file)`, 'NOT_FOUND');
    const fd = openSync(real, 'r');
    const head = Buffer.alloc(4);
    const got = readSync(fd, head, 0, head.length, 0);
    const compressed = compressionOf(head.subarray(0, got));
    if (compressed === undefined) return new FileCsvInput(real, fd);
    try {
      if (compressed === 'gzip') return new StreamCsvInput(real, createReadStream(real).pipe(createGunzip()), location);
      if (compressed === 'deflate') return new StreamCsvInput(real, createReadStream(real).pipe(createInflate()), location);
      const entry = firstZipEntry(fd);
      if (typeof entry === 'string') throw externalResourceFailed('ReadFailed', `Couldn't load the external resource at: ${location} (${entry})`);
      if (entry.method === 'stored') {
        const size = entry.size ?? 0;
        return new StreamCsvInput(real, size === 0 ? Readable.from([]) : createReadStream(real, { start: entry.start, end: entry.start + size - 1 }), location);
      }
      return new StreamCsvInput(real, createReadStream(real, { start: entry.start }).pipe(createInflateRaw()), location);
    } finally {
      closeSync(fd);
    }
  }
}

/** The server's settings as LOAD CSV reads them: the import directory under the data directory unless absolute. */
export function loadCsvSettings(config: { readonly data_dir: string; readonly load_csv_import_dir: string; readonly load_csv_file_urls: 'ON' | 'OFF'; readonly load_csv_remote: 'ON' | 'OFF' }): LoadCsvSettings {
  const dir = config.load_csv_file_urls === 'OFF' || config.load_csv_import_dir === '' ? '' : resolve(config.data_dir, config.load_csv_import_dir);
  return { import_dir: dir, remote: config.load_csv_remote === 'ON' };
}

function inside(root: string, path: string): boolean {
  const r = relative(root, path);
  return r === '' || (!r.startsWith('..') && !isAbsolute(r));
}

function outside(location: string): Error {
  return externalResourceFailed('OutsideImportDirectory', `Couldn't load the external resource at: ${location} (it leads outside the import directory)`, 'FAILED_PRECONDITION');
}

/**
 * How a local file is compressed, by its first bytes whatever its name: gzip, zlib (Deflate), a ZIP
 * archive (its first entry is read), or not at all.
 */
function compressionOf(head: Buffer): 'gzip' | 'deflate' | 'zip' | undefined {
  if (head.length >= 2 && head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1]) return 'gzip';
  // A zlib header (RFC 1950) as zlib writes it at its fastest, default and best levels: `x` and a byte no
  // UTF-8 text puts after it (0x01, 0x9c) or rarely (0xda). The other levels' header, `x^`, could start a
  // CSV file, so such a file is read as text.
  if (head.length >= 2 && head[0] === 0x78 && (head[1] === 0x01 || head[1] === 0x9c || head[1] === 0xda)) return 'deflate';
  if (startsWithZip(head)) return 'zip';
  return undefined;
}

/**
 * An HTTP(S) source: the request is made at once and the body read as it arrives. Redirects are
 * followed (at most `redirects_max`) unless they change the protocol; a status other than 200 fails
 * the statement when the first piece is asked for.
 */
function remote(url: URL, location: string): CsvInput {
  const body = new PassThrough();
  const fail = (message: string): void => {
    body.destroy(new Error(message));
  };
  const request = (target: URL, hops: number): void => {
    const get = target.protocol === 'https:' ? httpsGet : httpGet;
    const req = get(target, { headers: { 'accept-encoding': 'gzip, deflate', 'user-agent': 'weft-load-csv' } }, (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location !== undefined) {
        res.resume();
        const next = new URL(res.headers.location, target);
        if (next.protocol !== target.protocol) return fail(`a redirect to ${next.protocol}// would change the protocol`);
        if (hops >= redirects_max) return fail(`more than ${redirects_max} redirects`);
        return request(next, hops + 1);
      }
      if (status !== 200) {
        res.resume();
        return fail(`HTTP status ${status}`);
      }
      const encoding = String(res.headers['content-encoding'] ?? '').toLowerCase();
      const decoded: Readable = encoding === 'gzip' ? res.pipe(createGunzip()) : encoding === 'deflate' ? res.pipe(createInflate()) : res;
      decoded.on('error', (e: Error) => fail(e.message));
      decoded.pipe(body);
    });
    req.setTimeout(remote_idle_ms_max, () => req.destroy(new Error(`nothing arrived for ${remote_idle_ms_max} ms`)));
    req.on('error', (e: Error) => fail(e.message));
    body.on('close', () => req.destroy());
  };
  request(url, 0);
  return new StreamCsvInput(location, body, location);
}
