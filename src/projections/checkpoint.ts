import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, unlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import { crc32 } from 'node:zlib';
import { assert, assertNever } from '../common/assert.js';
import type { PropertyValue } from '../common/property-value.js';
import { decodeState } from '../log/codec.js';
import { fsyncDir } from '../log/storage/fsync-dir.js';
import type { EdgeVersion, NodeVersion } from './graph/records.js';
import { StateMachine } from './state-machine.js';
import type { CatalogSnapshot } from './catalog/catalog.js';
import type { BlobSnapshot } from './blobs/blob-projection.js';
import { CheckpointDamaged, CheckpointFrameWriter, checkpointFrames, framedCheckpointIntact, isFramedCheckpoint } from './checkpoint-frames.js';
import { isSavedGraphFile, pruneVectorGraphs, savedGraphFiles, saveVectorGraph, vectorGraphRestore } from './search/vector-index-file.js';

/**
 * A checkpoint is the committed state of every projection at one applied index, in one file
 * (`checkpoint-<index>.ckpt`) beside the log. Restart loads the newest readable one and replays the
 * log after it; a damaged file is skipped for an older one. Version history inside the retention
 * horizon is kept, so time travel survives a restart.
 *
 * Format 2 (written now) is framed (checkpoint-frames.ts): a head, the nodes and edges a batch per
 * frame, then the operations, the clock, the schema and the blobs, each frame CRC-checked as it is
 * read and applied at once, so a load holds the state it builds plus one frame, not the file and its
 * decoded body besides (a learner installing a snapshot, a member restarting). Format 1 (a CRC-32
 * then one MessagePack body) is still read.
 */
const FORMAT = 2;
const LEGACY_FORMAT = 1;

type NodeVersionTuple = [number, number, readonly string[], [string, PropertyValue][], boolean, [string, PropertyValue][][]?];
/** [id, type, source, target, versions oldest first as [index, ts, props, deleted]] */
type EdgeTuple = [number, string, number, number, [number, number, [string, PropertyValue][], boolean][]];
/**
 * [id, versions oldest first as [index, ts, labels, props, deleted, earlier?]]; `earlier` only for a
 * node of a temporal label (its older valid-time versions), so older checkpoints read unchanged.
 */
type NodeTuple = [number, NodeVersionTuple[]];
const KEEP = 2;
/** Records per nodes or edges frame: frames near a megabyte with a few properties each. */
const records_per_frame = 2048;

interface CheckpointHead {
  readonly format: number;
  readonly index: number;
  readonly deployment: Uint8Array | undefined;
  readonly engine_format: number;
  /** The group's last version record (host epoch and ordinal); absent in checkpoints written before it was kept: epoch 0, record 1. */
  readonly group_host_epoch?: number;
  readonly group_version_seq?: number;
  readonly next_node_id: number;
  readonly next_edge_id: number;
  readonly horizon_index: number;
}

/** What follows the head, each part restored as it is read. */
interface CheckpointRest {
  readonly operations: unknown;
  readonly clock: { base: number; stamps: number[] };
  /** The schema catalog; index entries are not stored but refilled from the records at load. */
  readonly schema?: CatalogSnapshot;
  /** Blobs and their chunk lists; chunk counts are derived at load. */
  readonly blobs?: BlobSnapshot;
}

/** Format 1: the whole state as one body. */
interface LegacyCheckpointBody extends CheckpointHead, CheckpointRest {
  readonly nodes: NodeTuple[];
  readonly edges: EdgeTuple[];
}

/** The frames of format 2, in the order they are written; `rank` orders them. */
type CheckpointFrame =
  | ({ readonly kind: 'head' } & CheckpointHead)
  | { readonly kind: 'nodes'; readonly nodes: NodeTuple[] }
  | { readonly kind: 'edges'; readonly edges: EdgeTuple[] }
  | { readonly kind: 'operations'; readonly operations: unknown }
  | { readonly kind: 'clock'; readonly clock: CheckpointRest['clock'] }
  | { readonly kind: 'schema'; readonly schema?: CatalogSnapshot }
  | { readonly kind: 'blobs'; readonly blobs?: BlobSnapshot };

export function writeCheckpoint(dir: string, sm: StateMachine): string {
  mkdirSync(dir, { recursive: true });
  const index = sm.committedIndex;
  saveVectorGraphs(dir, sm, index);
  const path = join(dir, checkpointFileName(index));
  const out = new CheckpointFrameWriter(path);
  try {
    out.frame({
      kind: 'head',
      format: FORMAT,
      index,
      deployment: sm.deployment,
      engine_format: sm.engineFormat,
      group_host_epoch: sm.groupHostEpoch,
      group_version_seq: sm.groupVersionSeq,
      next_node_id: sm.graph.nextNodeId,
      next_edge_id: sm.graph.nextEdgeId,
      horizon_index: sm.graph.horizonIndex,
    } satisfies CheckpointFrame);
    let nodes: NodeTuple[] = [];
    for (const record of sm.graph.nodeRecords()) {
      const versions = committedChain(record.head, index).map((v: NodeVersion): NodeVersionTuple => {
        const tuple: NodeVersionTuple = [v.index, v.ts, v.labels, [...v.props], v.deleted];
        if (v.earlier !== undefined) tuple.push(v.earlier.map((e) => [...e]));
        return tuple;
      });
      if (versions.length > 0) nodes.push([record.id, versions]);
      if (nodes.length === records_per_frame) {
        out.frame({ kind: 'nodes', nodes } satisfies CheckpointFrame);
        nodes = [];
      }
    }
    if (nodes.length > 0) out.frame({ kind: 'nodes', nodes } satisfies CheckpointFrame);
    let edges: EdgeTuple[] = [];
    for (const record of sm.graph.edgeRecords()) {
      const versions = committedChain(record.head, index).map(
        (v: EdgeVersion) => [v.index, v.ts, [...v.props], v.deleted] as [number, number, [string, PropertyValue][], boolean],
      );
      if (versions.length > 0) edges.push([record.id, record.type, record.source.id, record.target.id, versions]);
      if (edges.length === records_per_frame) {
        out.frame({ kind: 'edges', edges } satisfies CheckpointFrame);
        edges = [];
      }
    }
    if (edges.length > 0) out.frame({ kind: 'edges', edges } satisfies CheckpointFrame);
    out.frame({ kind: 'operations', operations: sm.operations.snapshot(index) } satisfies CheckpointFrame);
    out.frame({ kind: 'clock', clock: committedStamps(sm.clock.snapshot(), index) } satisfies CheckpointFrame);
    out.frame({ kind: 'schema', schema: sm.schema.snapshot() } satisfies CheckpointFrame);
    out.frame({ kind: 'blobs', blobs: sm.blobs.snapshot() } satisfies CheckpointFrame);
  } catch (e) {
    out.abandon();
    throw e;
  }
  out.finish();
  for (const old of listCheckpoints(dir).slice(KEEP)) unlinkSync(join(dir, old));
  pruneVectorGraphs(dir, new Set(listCheckpoints(dir).map(checkpointIndexOf)));
  return path;
}

/**
 * The HNSW graphs of ready vector indexes, saved before the checkpoint (docs/vector.md, Saved
 * graphs). A graph holds pending entries too, so with any applied beyond `index` none is saved and
 * the next load rebuilds them.
 */
function saveVectorGraphs(dir: string, sm: StateMachine, index: number): void {
  if (sm.appliedIndex !== index) return;
  for (const record of sm.schema.catalog.indexes.values()) {
    if (record.search?.kind !== 'vector' || record.serving === undefined) continue;
    const search = sm.schema.indexes.get(record.serving)?.search;
    if (search?.kind === 'vector') saveVectorGraph(dir, index, record.serving, search);
  }
}

/**
 * Loads the newest readable checkpoint, or a fresh state machine when there is none. `warn` hears
 * each saved vector graph that could not be used (the index is rebuilt).
 */
export function loadCheckpoint(dir: string, warn: (line: string) => void = stderrWarning): StateMachine {
  for (const name of existsSync(dir) ? listCheckpoints(dir) : []) {
    const sm = loadCheckpointFile(dir, name, warn);
    if (sm !== undefined) return sm;
  }
  return new StateMachine();
}

/** The state in one checkpoint file, or undefined when it is damaged (then the caller tries an older one). */
function loadCheckpointFile(dir: string, name: string, warn: (line: string) => void): StateMachine | undefined {
  const fd = openSync(join(dir, name), 'r');
  try {
    if (isFramedCheckpoint(fd)) return loadFramed(fd, dir, warn);
    const file = readFileSync(fd);
    if (file.byteLength < 4 || crc32(file.subarray(4)) !== file.readUInt32LE(0)) return undefined;
    const body = decodeState(file.subarray(4)) as LegacyCheckpointBody;
    assert(body.format === LEGACY_FORMAT, `checkpoint format ${body.format} is not ${LEGACY_FORMAT}`);
    const sm = restoreHead(body);
    restoreNodes(sm, body.nodes);
    restoreEdges(sm, body.edges);
    restoreRest(sm, body, dir, body.index, warn);
    return sm;
  } finally {
    closeSync(fd);
  }
}

/** Where each frame kind may come: a frame of a lower rank after a higher one is damage. */
const frame_rank: Readonly<Record<CheckpointFrame['kind'], number>> = { head: 0, nodes: 1, edges: 2, operations: 3, clock: 4, schema: 5, blobs: 6 };

/** Restores a framed checkpoint as its frames are read; a damaged frame throws away what was built. */
function loadFramed(fd: number, dir: string, warn: (line: string) => void): StateMachine | undefined {
  let sm: StateMachine | undefined;
  let index = 0;
  let rank = -1;
  const rest: { -readonly [K in keyof CheckpointRest]?: CheckpointRest[K] } & { seen: Set<string> } = { seen: new Set() };
  try {
    for (const raw of checkpointFrames(fd)) {
      const frame = raw as CheckpointFrame;
      const at = frame_rank[frame.kind];
      if (at === undefined || at < rank || (at !== 1 && at !== 2 && at === rank)) throw new CheckpointDamaged(`a ${String(frame.kind)} frame out of order`);
      if (sm === undefined && frame.kind !== 'head') throw new CheckpointDamaged('the first frame is not the head');
      rank = at;
      switch (frame.kind) {
        case 'head':
          assert(frame.format === FORMAT, `checkpoint format ${frame.format} is not ${FORMAT}`);
          sm = restoreHead(frame);
          index = frame.index;
          break;
        case 'nodes':
          restoreNodes(sm!, frame.nodes);
          break;
        case 'edges':
          restoreEdges(sm!, frame.edges);
          break;
        case 'operations':
          rest.operations = frame.operations;
          break;
        case 'clock':
          rest.clock = frame.clock;
          break;
        case 'schema':
          if (frame.schema !== undefined) rest.schema = frame.schema;
          break;
        case 'blobs':
          if (frame.blobs !== undefined) rest.blobs = frame.blobs;
          break;
        default:
          assertNever(frame, 'checkpoint frame');
      }
      rest.seen.add(frame.kind);
    }
  } catch (e) {
    if (e instanceof CheckpointDamaged) return undefined;
    throw e;
  }
  if (sm === undefined || rest.clock === undefined || !rest.seen.has('operations') || !rest.seen.has('blobs')) return undefined;
  restoreRest(sm, { operations: rest.operations, clock: rest.clock, ...(rest.schema !== undefined && { schema: rest.schema }), ...(rest.blobs !== undefined && { blobs: rest.blobs }) }, dir, index, warn);
  return sm;
}

function stderrWarning(line: string): void {
  process.stderr.write(`weft: warning: ${line}\n`);
}

function restoreHead(head: CheckpointHead): StateMachine {
  const sm = new StateMachine();
  sm.deployment = head.deployment === undefined ? undefined : new Uint8Array(head.deployment);
  sm.engineFormat = head.engine_format;
  sm.groupHostEpoch = head.group_host_epoch ?? 0;
  sm.groupVersionSeq = head.group_version_seq ?? (head.deployment === undefined ? 0 : 1);
  sm.graph.horizonIndex = head.horizon_index;
  sm.graph.reserveIds(head.next_node_id, head.next_edge_id);
  return sm;
}

function restoreNodes(sm: StateMachine, nodes: readonly NodeTuple[]): void {
  for (const [id, versions] of nodes) {
    sm.graph.restoreNode(
      id,
      versions.map(([index, ts, labels, props, deleted, earlier]) => ({
        index,
        ts,
        labels,
        props: new Map(props),
        deleted,
        ...(earlier !== undefined && { earlier: earlier.map((e) => new Map(e)) }),
      })),
    );
  }
}

function restoreEdges(sm: StateMachine, edges: readonly EdgeTuple[]): void {
  for (const [id, type, source, target, versions] of edges) {
    sm.graph.restoreEdge(id, type, source, target, versions.map(([index, ts, props, deleted]) => ({ index, ts, props: new Map(props), deleted })));
  }
}

/** The parts restored after the graph: the schema refills its index entries from the graph's records. */
function restoreRest(sm: StateMachine, rest: CheckpointRest, dir: string, index: number, warn: (line: string) => void): void {
  sm.operations.restore(rest.operations);
  sm.clock.restore(rest.clock);
  sm.schema.restore(rest.schema, vectorGraphRestore(dir, index, warn));
  sm.blobs.restore(rest.blobs);
  sm.appliedIndex = index;
  sm.committedIndex = index;
}

/** The clock's stamps up to `index`: a pending entry's stamp is not committed state (its entry replays). */
function committedStamps(clock: { base: number; stamps: number[] }, index: number): { base: number; stamps: number[] } {
  return { base: clock.base, stamps: clock.stamps.slice(0, Math.max(0, index - clock.base + 1)) };
}

/** The path of the checkpoint file at `index` (a snapshot shipped to a member), if it is still kept. */
export function checkpointFilePath(dir: string, index: number): string | undefined {
  const path = join(dir, checkpointFileName(index));
  return existsSync(path) ? path : undefined;
}

/**
 * The checkpoint file at `index` and the files saved beside it (its vector indexes' graphs), as a
 * snapshot ships them; undefined when the checkpoint is no longer kept.
 */
export function checkpointFiles(dir: string, index: number): { readonly path: string; readonly companions: readonly string[] } | undefined {
  const path = checkpointFilePath(dir, index);
  return path === undefined ? undefined : { path, companions: savedGraphFiles(dir, index).map((name) => join(dir, name)) };
}

/**
 * Takes a checkpoint file received from the leader (whole, checked and fsynced at `from`, on the same
 * file system) as the checkpoint at `index`, with the saved graphs that came with it: renamed into
 * place, the graphs first, so loadCheckpoint finds the checkpoint as the newest and its graphs beside
 * it, exactly as a restart would (and checks them as it does). A companion that is not a saved
 * graph's file is left where it is.
 */
export function installCheckpointFile(dir: string, index: number, from: string, companions: readonly string[] = []): void {
  mkdirSync(dir, { recursive: true });
  for (const path of companions) {
    const name = basename(path);
    if (isSavedGraphFile(name)) renameSync(path, join(dir, name));
  }
  renameSync(from, join(dir, checkpointFileName(index)));
  fsyncDir(dir);
}

/** The file name of the checkpoint at `index`. */
export function checkpointFileName(index: number): string {
  return `checkpoint-${String(index).padStart(20, '0')}.ckpt`;
}

/**
 * The newest checkpoint whose CRC holds, as its bytes (the one a restart would load), for copying it
 * elsewhere (an online backup); undefined when there is none.
 */
export function newestCheckpoint(dir: string): { readonly index: number; readonly name: string; readonly bytes: Buffer } | undefined {
  for (const name of existsSync(dir) ? listCheckpoints(dir) : []) {
    const bytes = readFileSync(join(dir, name));
    const intact = framedCheckpointIntact(bytes) || (bytes.byteLength >= 4 && crc32(bytes.subarray(4)) === bytes.readUInt32LE(0));
    if (!intact) continue;
    return { index: checkpointIndexOf(name), name, bytes };
  }
  return undefined;
}

function checkpointIndexOf(name: string): number {
  return Number.parseInt(name.slice('checkpoint-'.length), 10);
}

/** Checkpoint file names, newest first. */
function listCheckpoints(dir: string): string[] {
  return readdirSync(dir)
    .filter((n) => /^checkpoint-\d{20}\.ckpt$/.test(n))
    .sort()
    .reverse();
}

/** The versions at or below `index`, oldest first. */
function committedChain<V extends { readonly index: number; readonly prev: V | undefined }>(head: V, index: number): V[] {
  const out: V[] = [];
  for (let v: V | undefined = head; v !== undefined; v = v.prev) if (v.index <= index) out.push(v);
  return out.reverse();
}
