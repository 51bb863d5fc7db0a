import { closeSync, fstatSync, mkdirSync, openSync, readSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { WeftError } from '../../common/errors.js';
import { fsyncDirAsync } from '../../log/storage/fsync-dir.js';
import { ChunkStore, chunkLost, type StoredChunk } from './chunk-store.js';
import { chunkCrc, decodeEntries, decodeFooter, pack_entry_bytes, pack_footer_bytes, packName, packSerial, type PackEntry, type TrailerRead } from './pack-format.js';
import { PackWriter } from './pack-writer.js';

/**
 * The chunk store (docs/blobs.md "Packs"): chunks live in append-only pack files under
 * `<blobs>/packs/`, found through an index in memory (chunk id -> pack, offset, length, CRC) that
 * start-up reads back from the packs' trailers. A chunk is visible here (`has`, `read`) only once
 * its pack is sealed, that is durable, so an upload that finds a chunk present can name it in its
 * entry at once. The chunk files of engine format 2 (`<blobs>/chunks/`, chunk-store.ts) are read,
 * deduplicated against and deleted alongside; nothing new is written there. Which chunks are still
 * needed is the blob projection's business, not the store's.
 */
interface PackInfo {
  readonly serial: number;
  readonly path: string;
  /** Bytes of chunk data, without the trailer. */
  readonly data_bytes: number;
  readonly mtime_ms: number;
  /** Chunks the index maps to this pack, and their bytes. Invariant: live empty iff live_bytes 0. */
  readonly live: Set<string>;
  live_bytes: number;
  /** Opened at the first read, closed when the pack is deleted (after its reads) or the store closes. */
  handle: Promise<FileHandle> | undefined;
  /** Reads under way on the handle: a deleted pack's handle is closed when the last one ends. */
  reading: number;
  dropped: boolean;
}

interface Location {
  readonly pack: PackInfo;
  readonly entry: PackEntry;
}

/** Where a chunk's bytes are, for tests and tools that look at the disk. */
export interface ChunkPlace {
  readonly path: string;
  readonly offset: number;
  readonly length: number;
}

export interface PackStats {
  readonly packs: number;
  readonly data_bytes: number;
  readonly live_bytes: number;
}

export class PackStore {
  /** Chunk id -> its one place. Invariant: the pack is in `packs` and counts the chunk as live. */
  private readonly index = new Map<string, Location>();
  private readonly packs = new Map<number, PackInfo>();
  /** Serials of packs this process is writing: never collected while they are. */
  private readonly writing = new Set<number>();
  /** Format-2 chunk files, by id, with their modification times. Only shrinks. */
  private readonly legacyChunks: Map<string, number>;
  private nextSerial: number;

  private constructor(
    readonly dir: string,
    readonly legacy: ChunkStore,
    /** Packs found without a footer that checks: writes a stop interrupted, collected at start. */
    private interrupted: { readonly name: string; readonly mtime_ms: number }[],
  ) {
    this.legacyChunks = new Map(legacy.list().map((c) => [c.chunk_id, c.mtime_ms]));
    this.nextSerial = 0;
  }

  /**
   * Opens `<blobs_dir>/packs` (created if absent) and reads every pack's trailer back: two reads per
   * pack, 48 bytes per chunk. Packs are read in the order they were begun; a chunk found in more than
   * one is placed in the first, and the later copy is dead space.
   */
  static open(blobs_dir: string): PackStore {
    const dir = join(blobs_dir, 'packs');
    mkdirSync(dir, { recursive: true });
    const found: { serial: number; name: string }[] = [];
    for (const name of readdirSync(dir)) {
      const serial = packSerial(name);
      if (serial !== undefined) found.push({ serial, name });
    }
    found.sort((a, b) => a.serial - b.serial);
    const interrupted: { name: string; mtime_ms: number }[] = [];
    const store = new PackStore(dir, ChunkStore.open(join(blobs_dir, 'chunks')), interrupted);
    for (const { serial, name } of found) {
      const path = join(dir, name);
      const read = readTrailer(path);
      const mtime_ms = statSync(path).mtimeMs;
      if (read.kind === 'unsealed') interrupted.push({ name, mtime_ms });
      else store.publish(serial, path, read.entries, read.data_bytes, mtime_ms);
      store.nextSerial = serial + 1;
    }
    return store;
  }

  /** Whether the chunk is stored and durable (in a sealed pack or a format-2 chunk file). */
  has(chunk_id: string): boolean {
    return this.index.has(chunk_id) || this.legacyChunks.has(chunk_id);
  }

  /** Starts a new pack; the caller appends to it and hands it back to `seal` or `abandon`. */
  async begin(): Promise<PackWriter> {
    const serial = this.nextSerial++;
    this.writing.add(serial);
    const path = join(this.dir, packName(serial));
    try {
      return new PackWriter(serial, path, await open(path, 'wx'));
    } catch (e) {
      this.writing.delete(serial);
      throw e;
    }
  }

  /**
   * Makes the pack durable (its bytes, its trailer, its directory entry) and then its chunks
   * visible. A pack that cannot be sealed is removed: nothing can name its chunks yet.
   */
  async seal(writer: PackWriter): Promise<void> {
    try {
      const sealed = await writer.seal();
      await fsyncDirAsync(this.dir);
      this.publish(writer.serial, writer.path, sealed.entries, sealed.data_bytes, statSync(writer.path).mtimeMs);
    } catch (e) {
      await writer.abandon();
      throw e;
    } finally {
      this.writing.delete(writer.serial);
    }
  }

  async abandon(writer: PackWriter): Promise<void> {
    try {
      await writer.abandon();
    } finally {
      this.writing.delete(writer.serial);
    }
  }

  /** Stores chunks fetched from a peer, each already checked against its id, in one sealed pack. */
  async putAll(chunks: readonly { readonly chunk_id: string; readonly data: Uint8Array }[]): Promise<number> {
    const fresh = chunks.filter((c, i) => !this.has(c.chunk_id) && chunks.findIndex((d) => d.chunk_id === c.chunk_id) === i);
    if (fresh.length === 0) return 0;
    const writer = await this.begin();
    try {
      for (const c of fresh) await writer.append(c.chunk_id, c.data);
    } catch (e) {
      await this.abandon(writer);
      throw e;
    }
    await this.seal(writer);
    return fresh.length;
  }

  /** The chunk's bytes, checked against the CRC its pack recorded (or, for a chunk file, its id). */
  async read(chunk_id: string): Promise<Buffer> {
    const at = this.index.get(chunk_id);
    if (at === undefined) {
      if (this.legacyChunks.has(chunk_id)) return this.legacy.read(chunk_id);
      throw chunkLost(chunk_id);
    }
    return this.readRun([at])[0]!;
  }

  /**
   * How many of `ids` from `from` on lie back to back in one pack, at most `bytes_max` of them
   * (always at least one): a download reads such a run with one read.
   */
  runLength(ids: readonly string[], from: number, bytes_max: number): number {
    const first = this.index.get(ids[from]!);
    if (first === undefined) return 1;
    let n = 1;
    let end = first.entry.offset + first.entry.length;
    let bytes = first.entry.length;
    while (from + n < ids.length) {
      const next = this.index.get(ids[from + n]!);
      if (next === undefined || next.pack !== first.pack || next.entry.offset !== end || bytes + next.entry.length > bytes_max) break;
      end += next.entry.length;
      bytes += next.entry.length;
      n++;
    }
    return n;
  }

  /** The chunks `ids[from .. from + count)`, read as `runLength` found them: one read, each checked. */
  readMany(ids: readonly string[], from: number, count: number): Promise<Buffer>[] {
    if (count === 1) return [this.read(ids[from]!)];
    const places: Location[] = [];
    for (let i = from; i < from + count; i++) {
      const at = this.index.get(ids[i]!);
      if (at === undefined) return ids.slice(from, from + count).map((id) => this.read(id));
      places.push(at);
    }
    return this.readRun(places);
  }

  /** Where the chunk's bytes lie on disk, if it is stored. */
  place(chunk_id: string): ChunkPlace | undefined {
    const at = this.index.get(chunk_id);
    if (at !== undefined) return { path: at.pack.path, offset: at.entry.offset, length: at.entry.length };
    if (this.legacyChunks.has(chunk_id)) {
      const path = this.legacy.path(chunk_id);
      return { path, offset: 0, length: statSync(path).size };
    }
    return undefined;
  }

  /**
   * Forgets a chunk; a pack left with no live chunk is deleted. Synchronous on purpose: the caller
   * decides and deletes in one step, so no upload can start using the chunk in between.
   */
  deleteSync(chunk_id: string): boolean {
    const at = this.index.get(chunk_id);
    if (at === undefined) {
      if (!this.legacyChunks.delete(chunk_id)) return false;
      return this.legacy.deleteSync(chunk_id);
    }
    this.index.delete(chunk_id);
    this.release(at.pack, chunk_id, at.entry.length);
    return true;
  }

  /** Every stored chunk with the modification time of its pack or file. */
  list(): StoredChunk[] {
    const out: StoredChunk[] = [];
    for (const [chunk_id, at] of this.index) out.push({ chunk_id, mtime_ms: at.pack.mtime_ms });
    for (const [chunk_id, mtime_ms] of this.legacyChunks) out.push({ chunk_id, mtime_ms });
    return out;
  }

  /**
   * Removes what interrupted writes left: packs found unsealed at open, sealed packs all of whose
   * copies are shadowed by earlier packs, and format-2 temporary files older than `before_ms`.
   * An unsealed pack goes only with `unsealed_unneeded`: the caller found every chunk the blobs
   * reference in the store. A pack whose trailer does not check is nearly always one a stop
   * interrupted before its trailer was durable, and then no entry names its chunks; but a trailer
   * damaged on disk looks the same, and such a pack is kept while anything referenced is missing.
   * Answers how many files went.
   */
  async collectInterrupted(before_ms: number, unsealed_unneeded: boolean): Promise<number> {
    let removed = 0;
    const left: { name: string; mtime_ms: number }[] = [];
    for (const p of this.interrupted) {
      if (p.mtime_ms > before_ms || !unsealed_unneeded) left.push(p);
      else if (unlinkQuiet(join(this.dir, p.name))) removed++;
    }
    this.interrupted = left;
    for (const pack of [...this.packs.values()]) {
      if (pack.live.size === 0 && !this.writing.has(pack.serial)) {
        this.dropPack(pack);
        removed++;
      }
    }
    for (const t of this.legacy.temporaries()) {
      if (t.mtime_ms > before_ms) continue;
      await this.legacy.deleteTemporary(t.name);
      removed++;
    }
    return removed;
  }

  /**
   * Sealed packs whose live bytes are at most `live_share_max` of their data, none of whose live
   * chunks `held` (an upload or download in progress uses them), by serial: what compaction takes.
   */
  compactable(live_share_max: number, held: (chunk_id: string) => boolean): number[] {
    const out: number[] = [];
    for (const pack of this.packs.values()) {
      if (pack.live_bytes > pack.data_bytes * live_share_max) continue;
      if ([...pack.live].some((c) => held(c))) continue;
      out.push(pack.serial);
    }
    return out;
  }

  /**
   * Copies the live chunks of one pack into a new pack, each checked on the way, and once the new
   * pack is sealed moves them there and deletes the old one. A chunk released meanwhile stays
   * released. A crash at any point leaves both packs or only the new one, each chunk in one of
   * them; start-up places it in the first pack it finds and the other copy is dead space.
   * Answers the bytes of dead space reclaimed.
   */
  async compact(serial: number): Promise<number> {
    const pack = this.packs.get(serial);
    if (pack === undefined) return 0;
    const live = [...pack.live];
    const writer = await this.begin();
    try {
      for (const chunk_id of live) {
        const at = this.index.get(chunk_id);
        if (at?.pack !== pack) continue;
        await writer.append(chunk_id, await this.readRun([at])[0]!);
      }
      const sealed = await writer.seal();
      await fsyncDirAsync(this.dir);
      const moved: PackInfo = { serial: writer.serial, path: writer.path, data_bytes: sealed.data_bytes, mtime_ms: pack.mtime_ms, live: new Set(), live_bytes: 0, handle: undefined, reading: 0, dropped: false };
      this.packs.set(moved.serial, moved);
      for (const entry of sealed.entries) {
        // Released while it was copied: it stays released, and the copy is dead space.
        if (this.index.get(entry.chunk_id)?.pack !== pack) continue;
        this.index.set(entry.chunk_id, { pack: moved, entry });
        moved.live.add(entry.chunk_id);
        moved.live_bytes += entry.length;
        pack.live.delete(entry.chunk_id);
        pack.live_bytes -= entry.length;
      }
      const reclaimed = pack.data_bytes - moved.live_bytes;
      if (pack.live.size === 0) this.dropPack(pack);
      if (moved.live.size === 0) this.dropPack(moved);
      return reclaimed;
    } catch (e) {
      await writer.abandon();
      throw e;
    } finally {
      this.writing.delete(writer.serial);
    }
  }

  /** Packs kept unsealed (see collectInterrupted), by name. */
  unsealedPacks(): readonly string[] {
    return this.interrupted.map((p) => p.name);
  }

  stats(): PackStats {
    let data_bytes = 0;
    let live_bytes = 0;
    for (const p of this.packs.values()) {
      data_bytes += p.data_bytes;
      live_bytes += p.live_bytes;
    }
    return { packs: this.packs.size, data_bytes, live_bytes };
  }

  async close(): Promise<void> {
    const handles = [...this.packs.values()].map((p) => p.handle);
    for (const p of this.packs.values()) p.handle = undefined;
    await Promise.allSettled(handles.map(async (h) => (await h)?.close()));
  }

  private publish(serial: number, path: string, entries: readonly PackEntry[], data_bytes: number, mtime_ms: number): void {
    const pack: PackInfo = { serial, path, data_bytes, mtime_ms, live: new Set(), live_bytes: 0, handle: undefined, reading: 0, dropped: false };
    this.packs.set(serial, pack);
    for (const entry of entries) {
      // A chunk already placed keeps its place: this copy (written by an upload at the same time,
      // or left by an interrupted compaction) is dead space.
      if (this.has(entry.chunk_id)) continue;
      this.index.set(entry.chunk_id, { pack, entry });
      pack.live.add(entry.chunk_id);
      pack.live_bytes += entry.length;
    }
  }

  private release(pack: PackInfo, chunk_id: string, bytes: number): void {
    pack.live.delete(chunk_id);
    pack.live_bytes -= bytes;
    if (pack.live.size === 0) this.dropPack(pack);
  }

  private dropPack(pack: PackInfo): void {
    this.packs.delete(pack.serial);
    unlinkQuiet(pack.path);
    pack.dropped = true;
    // Reads that took the handle before go on reading the unlinked file; the last one closes it.
    if (pack.reading === 0) closeHandle(pack);
  }

  /** Chunks back to back in one pack, read with one read and each checked against its CRC. */
  private readRun(places: readonly Location[]): Promise<Buffer>[] {
    const pack = places[0]!.pack;
    const start = places[0]!.entry.offset;
    const last = places[places.length - 1]!.entry;
    const whole = this.readAt(pack, start, last.offset + last.length - start);
    // Each chunk's promise fails on its own; one not awaited yet must not count as unhandled.
    whole.catch(() => undefined);
    return places.map(async ({ entry }) => {
      const bytes = await whole.catch((e: unknown) => (e as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : Promise.reject(e));
      if (bytes === undefined) {
        // The pack went before it was opened: compaction may have moved the chunk meanwhile.
        const now = this.index.get(entry.chunk_id);
        if (now !== undefined && now.pack !== pack) return this.read(entry.chunk_id);
        throw chunkLost(entry.chunk_id);
      }
      const data = bytes.subarray(entry.offset - start, entry.offset - start + entry.length);
      if (data.byteLength !== entry.length || chunkCrc(data) !== entry.crc) {
        throw new WeftError('DATA_LOSS', `chunk ${entry.chunk_id} fails its checksum in pack ${pack.path} at offset ${entry.offset}`, 'BLOB_CHUNK_CORRUPT', {
          chunk_id: entry.chunk_id,
        });
      }
      return data;
    });
  }

  private async readAt(pack: PackInfo, offset: number, length: number): Promise<Buffer> {
    pack.handle ??= open(pack.path, 'r');
    const opening = pack.handle;
    opening.catch(() => {
      if (pack.handle === opening) pack.handle = undefined;
    });
    pack.reading++;
    try {
      const handle = await opening;
      const out = Buffer.allocUnsafe(length);
      let got = 0;
      while (got < length) {
        const { bytesRead } = await handle.read(out, got, length - got, offset + got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
      return got === length ? out : out.subarray(0, got);
    } finally {
      pack.reading--;
      if (pack.dropped && pack.reading === 0) closeHandle(pack);
    }
  }
}

/** Reads a pack's trailer: its entries if the footer and the entries check. */
export function readTrailer(path: string): TrailerRead {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size < pack_footer_bytes) return { kind: 'unsealed', detail: 'shorter than a footer' };
    const footer = readExactly(fd, size - pack_footer_bytes, pack_footer_bytes);
    const decoded = decodeFooter(footer, size);
    if (typeof decoded === 'string') return { kind: 'unsealed', detail: decoded };
    const entries_bytes = decoded.count * pack_entry_bytes;
    const data_bytes = size - pack_footer_bytes - entries_bytes;
    const entries = decodeEntries(readExactly(fd, data_bytes, entries_bytes), decoded.crc, data_bytes);
    if (entries === undefined) return { kind: 'unsealed', detail: 'the trailer fails its checksum' };
    return { kind: 'sealed', entries, data_bytes };
  } finally {
    closeSync(fd);
  }
}

function readExactly(fd: number, position: number, length: number): Buffer {
  const b = Buffer.alloc(length);
  for (let got = 0; got < length; ) {
    const n = readSync(fd, b, got, length - got, position + got);
    if (n === 0) break;
    got += n;
  }
  return b;
}

function closeHandle(pack: PackInfo): void {
  const handle = pack.handle;
  pack.handle = undefined;
  void handle?.then((h) => h.close()).catch(() => undefined);
}

function unlinkQuiet(path: string): boolean {
  try {
    unlinkSync(path);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw e;
  }
}
