/**
 * `weft backup`: reads a member's backup stream from its ops port and writes it to a new directory.
 * The manifest is written last, atomically: a directory without one is an interrupted backup.
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { failedPrecondition, unavailable } from '../../common/errors.js';
import { errorFromJson } from '../../api/error-catalog.js';
import { writeFileAtomic } from '../../log/storage/atomic-file.js';
import { isSavedGraphFile } from '../../projections/search/vector-index-file.js';
import { chunkCrc, encodeTrailer, type PackEntry } from '../blobs/pack-format.js';
import { backup_chunks_file, backup_manifest_file, backup_tail_file, damaged, decodeFrames, encodeFrame, sha256, type BackupHead } from './backup-format.js';
import type { BackupManifest } from './manifest.js';

/** A file written once, front to back, with its digest kept as it grows. */
class OutFile {
  private readonly fd: number;
  private readonly hash = sha256();
  bytes = 0;
  constructor(readonly path: string) {
    this.fd = openSync(path, 'wx');
  }
  write(data: Uint8Array): void {
    for (let at = 0; at < data.byteLength; ) at += writeSync(this.fd, data, at);
    this.hash.update(data);
    this.bytes += data.byteLength;
  }
  finish(): { bytes: number; sha256: string } {
    fsyncSync(this.fd);
    closeSync(this.fd);
    return { bytes: this.bytes, sha256: this.hash.digest('hex') };
  }
}

export async function takeBackup(from: string, dir: string): Promise<BackupManifest> {
  if (existsSync(dir) && readdirSync(dir).length > 0) throw failedPrecondition(`backup directory ${dir} is not empty`);
  mkdirSync(dir, { recursive: true });
  const url = `${/^https?:\/\//.test(from) ? from : `http://${from}`}/backup`;
  let res: Response;
  try {
    res = await fetch(url);
  } catch (e) {
    throw unavailable(`cannot reach ${url}: ${(e as Error).cause instanceof Error ? ((e as Error).cause as Error).message : (e as Error).message}`);
  }
  if (res.status !== 200 || res.body === null) {
    const text = await res.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    throw body !== undefined ? errorFromJson(body, res.status) : unavailable(`${url} answered ${res.status}: ${text.slice(0, 200)}`);
  }
  const digest = sha256();
  let head: BackupHead | undefined;
  let checkpoint: OutFile | undefined;
  /** The checkpoint's graph files by name, as the head announced them; opened at their first frame. */
  const graphs = new Map<string, OutFile | undefined>();
  const tail = new OutFile(join(dir, backup_tail_file));
  let entries = 0;
  let next_index = 0;
  let ended = false;
  /** The chunk frames, written back to back as a blob pack whose trailer is added at the end. */
  let chunkPack: OutFile | undefined;
  const chunkEntries: PackEntry[] = [];
  for await (const f of decodeFrames(Readable.fromWeb(res.body), url, digest)) {
    if (ended) throw damaged(url, 'frames after the end frame');
    switch (f.kind) {
      case 'head':
        if (head !== undefined) throw damaged(url, 'a second head frame');
        head = f.head;
        next_index = head.checkpoint_index + 1;
        if (head.checkpoint_name !== '') checkpoint = new OutFile(join(dir, head.checkpoint_name));
        for (const g of head.graph_files ?? []) {
          // The name becomes a file here: only a saved graph's name, never a path.
          if (!isSavedGraphFile(g.name) || graphs.has(g.name)) throw damaged(url, `the head announces a graph file named ${JSON.stringify(g.name)}`);
          graphs.set(g.name, undefined);
        }
        break;
      case 'checkpoint':
        if (checkpoint === undefined) throw damaged(url, 'checkpoint bytes without a checkpoint in the head');
        checkpoint.write(f.bytes);
        break;
      case 'graph': {
        if (!graphs.has(f.name)) throw damaged(url, `bytes of graph file ${JSON.stringify(f.name)}, which the head did not announce`);
        let out = graphs.get(f.name);
        if (out === undefined) graphs.set(f.name, (out = new OutFile(join(dir, f.name))));
        out.write(f.bytes);
        break;
      }
      case 'entry':
        if (f.index !== next_index) throw damaged(url, `entry ${f.index} where ${next_index} was due`);
        next_index++;
        entries++;
        tail.write(encodeFrame(f));
        break;
      case 'chunk': {
        // Checked against its id here, so the backup never keeps a chunk it could not serve.
        if (sha256().update(f.bytes).digest('hex') !== f.chunk_id) throw damaged(url, `chunk ${f.chunk_id} does not hash to its id`);
        chunkPack ??= new OutFile(join(dir, backup_chunks_file));
        chunkEntries.push({ chunk_id: f.chunk_id, offset: chunkPack.bytes, length: f.bytes.byteLength, crc: chunkCrc(f.bytes) });
        chunkPack.write(f.bytes);
        break;
      }
      case 'end':
        if (f.end.sha256 !== digest.digest('hex') || f.end.entries !== entries) throw damaged(url, 'the end frame does not match what was received');
        ended = true;
        break;
    }
  }
  if (head === undefined || !ended) throw damaged(url, 'the stream ended before its end frame');
  if (next_index !== head.last_index + 1) throw damaged(url, `entries end at ${next_index - 1}, not ${head.last_index}`);
  const files: Record<string, { bytes: number; sha256: string }> = { [backup_tail_file]: tail.finish() };
  if (checkpoint !== undefined) {
    const c = checkpoint.finish();
    if (c.bytes !== head.checkpoint_bytes) throw damaged(url, `checkpoint of ${c.bytes} bytes, not ${head.checkpoint_bytes}`);
    files[head.checkpoint_name] = c;
  }
  if (chunkEntries.length !== (head.chunks ?? 0)) throw damaged(url, `${chunkEntries.length} chunks, not ${head.chunks ?? 0}`);
  if (chunkPack !== undefined) {
    chunkPack.write(encodeTrailer(chunkEntries));
    files[backup_chunks_file] = chunkPack.finish();
  }
  for (const g of head.graph_files ?? []) {
    const got = graphs.get(g.name)?.finish();
    if (got?.bytes !== g.bytes) throw damaged(url, `graph file ${g.name} of ${got?.bytes ?? 0} bytes, not ${g.bytes}`);
    files[g.name] = got;
  }
  const manifest: BackupManifest = {
    format: head.format,
    engine_format: head.engine_format,
    source: from,
    deployment: head.deployment,
    checkpoint_index: head.checkpoint_index,
    checkpoint_file: head.checkpoint_name,
    last_index: head.last_index,
    commit_ts: head.commit_ts,
    entries,
    files,
  };
  writeFileAtomic(join(dir, backup_manifest_file), Buffer.from(JSON.stringify(manifest, null, 2) + '\n'));
  return manifest;
}
