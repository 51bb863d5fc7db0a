import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { packSerial } from '../../src/server/blobs/pack-format.js';
import { readTrailer } from '../../src/server/blobs/pack-store.js';

/** The chunk packs of a data directory as the disk holds them, read from their trailers. */
export interface PackOnDisk {
  readonly name: string;
  /** False for a pack without a trailer that checks (a write a stop interrupted). */
  readonly sealed: boolean;
  readonly chunk_ids: readonly string[];
}

export function packsOnDisk(data_dir: string): PackOnDisk[] {
  const dir = join(data_dir, 'blobs', 'packs');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => packSerial(name) !== undefined)
    .map((name) => {
      const t = readTrailer(join(dir, name));
      return { name, sealed: t.kind === 'sealed', chunk_ids: t.kind === 'sealed' ? t.entries.map((e) => e.chunk_id) : [] };
    });
}

/** Every chunk id some sealed pack holds (live or dead space). */
export function chunksInPacks(data_dir: string): Set<string> {
  return new Set(packsOnDisk(data_dir).flatMap((p) => p.chunk_ids));
}
