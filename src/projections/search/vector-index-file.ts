import { closeSync, existsSync, fsyncSync, linkSync, openSync, readdirSync, readFileSync, renameSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { decodeState, encodeState } from '../../log/codec.js';
import { writeFileAtomic } from '../../log/storage/atomic-file.js';
import { fsyncDir } from '../../log/storage/fsync-dir.js';
import type { IndexGeneration } from '../indexes/index-generation.js';
import { emptyGraph, type SavedGraphFacts, type VectorIndex } from './vector-index.js';

/**
 * The HNSW graph of a ready vector index, saved beside the checkpoint at one log index so that a
 * restart reads it instead of building it again (a build costs as long as the first one did):
 *
 *   vector-<checkpoint index>-<generation>.hnsw   hnswlib's own file (hnswlib reads and writes files only)
 *   vector-<checkpoint index>-<generation>.meta   a CRC-32, then MessagePack: GraphMeta
 *
 * Both are written before the checkpoint file, the graph first, so a checkpoint on disk has its
 * graphs unless the save was skipped. Loading trusts nothing it has not checked: the meta's CRC, then
 * its checkpoint index, generation and index settings, then the graph file's length and CRC (before
 * hnswlib parses it: a damaged file must not reach native code), and after the refill from the
 * checkpoint's records the digest of the vectors (VectorIndex.settleSaved). Any failure leaves the
 * index to be rebuilt from the records, with a warning: slower, never wrong.
 */
const FORMAT = 1;

interface GraphMeta {
  readonly format: number;
  readonly checkpoint_index: number;
  readonly generation: number;
  readonly label: string;
  readonly property: string;
  readonly dimensions: number;
  readonly metric: string;
  readonly m: number;
  readonly ef_construction: number;
  /** Length and CRC-32 of the .hnsw file. */
  readonly graph_bytes: number;
  readonly graph_crc: number;
  readonly facts: SavedGraphFacts;
}

/** The graph file an index was last saved to, at which version, and what its meta said. */
interface SavedGraph {
  readonly dir: string;
  readonly path: string;
  readonly version: number;
  readonly graph_bytes: number;
  readonly graph_crc: number;
  readonly facts: SavedGraphFacts;
}

/** Per index, its last save: a checkpoint that finds the index unchanged links the file instead. */
const lastSaved = new WeakMap<VectorIndex, SavedGraph>();

export type GraphLoad =
  | { readonly kind: 'loaded'; readonly saved: SavedGraph }
  | { readonly kind: 'absent' }
  | { readonly kind: 'refused'; readonly reason: string };

/**
 * Saves `index`'s graph for the checkpoint at `checkpoint_index`. False when it has nothing to save
 * (L1 has no graph).
 */
export function saveVectorGraph(dir: string, checkpoint_index: number, generation: number, index: VectorIndex): boolean {
  const graph = index.graph();
  if (graph === undefined) return false;
  const base = join(dir, graphFileBase(checkpoint_index, generation));
  // A meta left from an earlier save of this checkpoint must not vouch for the new graph file.
  if (existsSync(`${base}.meta`)) unlinkSync(`${base}.meta`);
  let saved = linkUnchanged(dir, `${base}.hnsw`, index);
  if (saved === undefined) {
    const facts = index.savedFacts();
    if (facts === undefined) return false;
    const tmp = `${base}.hnsw.tmp`;
    graph.writeIndexSync(tmp);
    const fd = openSync(tmp, 'r+');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    const bytes = readFileSync(tmp);
    renameSync(tmp, `${base}.hnsw`);
    fsyncDir(dir);
    index.reloadSaved(`${base}.hnsw`);
    saved = { dir, path: `${base}.hnsw`, version: index.version, graph_bytes: bytes.byteLength, graph_crc: crc32(bytes), facts };
  }
  lastSaved.set(index, saved);
  const facts = saved.facts;
  const meta: GraphMeta = {
    format: FORMAT,
    checkpoint_index,
    generation,
    label: index.label,
    property: index.property,
    dimensions: index.dimensions,
    metric: index.metric,
    m: index.spec.m,
    ef_construction: index.spec.ef_construction,
    graph_bytes: saved.graph_bytes,
    graph_crc: saved.graph_crc,
    facts,
  };
  const body = encodeState(meta);
  const file = Buffer.alloc(4 + body.byteLength);
  file.writeUInt32LE(crc32(body), 0);
  file.set(body, 4);
  writeFileAtomic(`${base}.meta`, file);
  return true;
}

/**
 * When the index has not changed since its last save into `dir`, links `path` to that file (its CRC
 * is checked at load like any other) instead of writing and measuring the graph again. Undefined
 * when it changed, or the file or the link is not there to be had.
 */
function linkUnchanged(dir: string, path: string, index: VectorIndex): SavedGraph | undefined {
  const same = lastSaved.get(index);
  if (same === undefined || same.version !== index.version || same.dir !== dir || same.path === path || !existsSync(same.path)) return undefined;
  try {
    if (existsSync(path)) unlinkSync(path);
    linkSync(same.path, path);
  } catch {
    return undefined; // no hard links here: the caller writes the file
  }
  fsyncDir(dir);
  return { ...same, path };
}

/**
 * Reads the graph saved for `generation` at `checkpoint_index` into the empty `index`, which then
 * takes its vectors from the refill without inserting them (VectorIndex.adoptSaved).
 */
export function loadVectorGraph(dir: string, checkpoint_index: number, generation: number, index: VectorIndex): GraphLoad {
  const base = join(dir, graphFileBase(checkpoint_index, generation));
  if (!existsSync(`${base}.meta`) || !existsSync(`${base}.hnsw`)) return { kind: 'absent' };
  const file = readFileSync(`${base}.meta`);
  if (file.byteLength < 4 || crc32(file.subarray(4)) !== file.readUInt32LE(0)) return { kind: 'refused', reason: 'its meta file is damaged' };
  const meta = decodeState(file.subarray(4)) as GraphMeta;
  const mismatch = metaMismatch(meta, checkpoint_index, generation, index);
  if (mismatch !== undefined) return { kind: 'refused', reason: mismatch };
  const bytes = readFileSync(`${base}.hnsw`);
  if (bytes.byteLength !== meta.graph_bytes || crc32(bytes) !== meta.graph_crc) return { kind: 'refused', reason: 'its graph file is damaged' };
  const graph = emptyGraph(index.metric, index.dimensions);
  if (graph === undefined) return { kind: 'refused', reason: `metric ${index.metric} has no graph` };
  graph.readIndexSync(`${base}.hnsw`);
  index.adoptSaved(graph, meta.facts);
  return { kind: 'loaded', saved: { dir, path: `${base}.hnsw`, version: index.version, graph_bytes: meta.graph_bytes, graph_crc: meta.graph_crc, facts: meta.facts } };
}

function metaMismatch(meta: GraphMeta, checkpoint_index: number, generation: number, index: VectorIndex): string | undefined {
  if (meta.format !== FORMAT) return `its format ${meta.format} is not ${FORMAT}`;
  if (meta.checkpoint_index !== checkpoint_index || meta.generation !== generation) {
    return `it belongs to checkpoint ${meta.checkpoint_index} generation ${meta.generation}`;
  }
  const same =
    meta.label === index.label &&
    meta.property === index.property &&
    meta.dimensions === index.dimensions &&
    meta.metric === index.metric &&
    meta.m === index.spec.m &&
    meta.ef_construction === index.spec.ef_construction;
  return same ? undefined : 'it was saved with other index settings';
}

/**
 * The checkpoint load's part in restoring the vector indexes of the checkpoint at `checkpoint_index`:
 * before a ready generation is refilled its saved graph is read, after the refill it is checked.
 * `warn` hears every graph that had to be rebuilt, and why.
 */
export function vectorGraphRestore(
  dir: string,
  checkpoint_index: number,
  warn: (line: string) => void,
): { beforeFill(gen: IndexGeneration): void; afterFill(gen: IndexGeneration): void } {
  const say = (gen: IndexGeneration, why: string) =>
    warn(`vector index on :${gen.shape.label}(${gen.shape.properties.join(', ')}) generation ${gen.generation}: ${why}; rebuilding it from the checkpoint's nodes`);
  /** Graphs read before their refill, by generation, until the refill has checked them. */
  const read = new Map<number, SavedGraph>();
  return {
    beforeFill(gen) {
      if (gen.search?.kind !== 'vector' || !gen.search.approximate) return;
      let outcome: GraphLoad;
      try {
        outcome = loadVectorGraph(dir, checkpoint_index, gen.generation, gen.search);
      } catch (e) {
        outcome = { kind: 'refused', reason: `reading it failed (${e instanceof Error ? e.message : String(e)})` };
      }
      if (outcome.kind === 'loaded') read.set(gen.generation, outcome.saved);
      if (outcome.kind === 'absent') say(gen, `no graph was saved with checkpoint ${checkpoint_index}`);
      if (outcome.kind === 'refused') say(gen, `the graph saved with checkpoint ${checkpoint_index} is not used: ${outcome.reason}`);
    },
    afterFill(gen) {
      if (gen.search?.kind !== 'vector') return;
      const why = gen.search.settleSaved();
      const saved = read.get(gen.generation);
      read.delete(gen.generation);
      if (why !== undefined) say(gen, `the graph saved with checkpoint ${checkpoint_index} does not match its nodes: ${why}`);
      // The file read is the index's last save: the next checkpoint links it while nothing changes.
      else if (saved !== undefined) lastSaved.set(gen.search, { ...saved, version: gen.search.version });
    },
  };
}

/** Removes saved graphs of checkpoints no longer kept, and files a crash left half written. */
export function pruneVectorGraphs(dir: string, kept: ReadonlySet<number>): void {
  for (const name of readdirSync(dir)) {
    const m = /^vector-(\d{20})-\d+\.(hnsw|meta)(\.tmp)?$/.exec(name);
    if (m === null) continue;
    if (m[3] !== undefined || !kept.has(Number.parseInt(m[1]!, 10))) unlinkSync(join(dir, name));
  }
}

/** Names of a saved graph's files: `vector-<checkpoint index, 20 digits>-<generation>.hnsw|.meta`. */
const graph_file_name = /^vector-(\d{20})-\d+\.(hnsw|meta)$/;

/**
 * The graph files saved with the checkpoint at `checkpoint_index` in `dir` (names, both kinds, no
 * temporary ones), as a backup carries them: loading checks each as a restart does.
 */
export function savedGraphFiles(dir: string, checkpoint_index: number): string[] {
  return readdirSync(dir)
    .filter((name) => Number.parseInt(graph_file_name.exec(name)?.[1] ?? '-1', 10) === checkpoint_index)
    .sort();
}

/** Whether `name` is a saved graph's file name (and so safe to create in a directory). */
export function isSavedGraphFile(name: string): boolean {
  return graph_file_name.test(name);
}

function graphFileBase(checkpoint_index: number, generation: number): string {
  return `vector-${String(checkpoint_index).padStart(20, '0')}-${generation}`;
}
