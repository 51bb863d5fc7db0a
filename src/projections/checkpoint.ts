import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { assert } from '../common/assert.js';
import type { PropertyValue } from '../common/property-value.js';
import { decodeState, encodeState } from '../log/codec.js';
import { writeFileAtomic } from '../log/storage/atomic-file.js';
import { fsyncDir } from '../log/storage/fsync-dir.js';
import type { EdgeVersion, NodeVersion } from './graph/records.js';
import { StateMachine } from './state-machine.js';
import type { CatalogSnapshot } from './catalog/catalog.js';
import type { BlobSnapshot } from './blobs/blob-projection.js';
import { pruneVectorGraphs, saveVectorGraph, vectorGraphRestore } from './search/vector-index-file.js';

/**
 * A checkpoint is the committed state of every projection at one applied index, written whole to one
 * file (`checkpoint-<index>.ckpt`: a CRC-32 then the MessagePack body) beside the log. Restart loads the
 * newest readable one and replays the log after it; a damaged file is skipped for an older one.
 * Version history inside the retention horizon is kept, so time travel survives a restart.
 */
const FORMAT = 1;

type NodeVersionTuple = [number, number, readonly string[], [string, PropertyValue][], boolean, [string, PropertyValue][][]?];
const KEEP = 2;

interface CheckpointBody {
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
  /**
   * [id, versions oldest first as [index, ts, labels, props, deleted, earlier?]]; `earlier` only for
   * a node of a temporal label (its older valid-time versions), so older checkpoints read unchanged.
   */
  readonly nodes: [number, NodeVersionTuple[]][];
  /** [id, type, source, target, versions oldest first as [index, ts, props, deleted]] */
  readonly edges: [number, string, number, number, [number, number, [string, PropertyValue][], boolean][]][];
  readonly operations: unknown;
  readonly clock: { base: number; stamps: number[] };
  /** The schema catalog; index entries are not stored but refilled from the records at load. */
  readonly schema?: CatalogSnapshot;
  /** Blobs and their chunk lists; chunk counts are derived at load. */
  readonly blobs?: BlobSnapshot;
}

export function writeCheckpoint(dir: string, sm: StateMachine): string {
  mkdirSync(dir, { recursive: true });
  const index = sm.committedIndex;
  const body: CheckpointBody = {
    format: FORMAT,
    index,
    deployment: sm.deployment,
    engine_format: sm.engineFormat,
    group_host_epoch: sm.groupHostEpoch,
    group_version_seq: sm.groupVersionSeq,
    next_node_id: sm.graph.nextNodeId,
    next_edge_id: sm.graph.nextEdgeId,
    horizon_index: sm.graph.horizonIndex,
    nodes: [],
    edges: [],
    operations: sm.operations.snapshot(index),
    clock: committedStamps(sm.clock.snapshot(), index),
    schema: sm.schema.snapshot(),
    blobs: sm.blobs.snapshot(),
  };
  for (const record of sm.graph.nodeRecords()) {
    const versions = committedChain(record.head, index).map((v: NodeVersion): NodeVersionTuple => {
      const tuple: NodeVersionTuple = [v.index, v.ts, v.labels, [...v.props], v.deleted];
      if (v.earlier !== undefined) tuple.push(v.earlier.map((e) => [...e]));
      return tuple;
    });
    if (versions.length > 0) body.nodes.push([record.id, versions]);
  }
  for (const record of sm.graph.edgeRecords()) {
    const versions = committedChain(record.head, index).map(
      (v: EdgeVersion) => [v.index, v.ts, [...v.props], v.deleted] as [number, number, [string, PropertyValue][], boolean],
    );
    if (versions.length > 0) body.edges.push([record.id, record.type, record.source.id, record.target.id, versions]);
  }
  saveVectorGraphs(dir, sm, index);
  const bytes = encodeState(body);
  const file = Buffer.alloc(4 + bytes.byteLength);
  file.writeUInt32LE(crc32(bytes), 0);
  file.set(bytes, 4);
  const path = join(dir, checkpointFileName(index));
  writeFileAtomic(path, file);
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
    const file = readFileSync(join(dir, name));
    if (file.byteLength < 4 || crc32(file.subarray(4)) !== file.readUInt32LE(0)) continue;
    const body = decodeState(file.subarray(4)) as CheckpointBody;
    assert(body.format === FORMAT, `checkpoint format ${body.format} is not ${FORMAT}`);
    return restore(body, dir, warn);
  }
  return new StateMachine();
}

function stderrWarning(line: string): void {
  process.stderr.write(`weft: warning: ${line}\n`);
}

function restore(body: CheckpointBody, dir: string, warn: (line: string) => void): StateMachine {
  const sm = new StateMachine();
  sm.deployment = body.deployment === undefined ? undefined : new Uint8Array(body.deployment);
  sm.engineFormat = body.engine_format;
  sm.groupHostEpoch = body.group_host_epoch ?? 0;
  sm.groupVersionSeq = body.group_version_seq ?? (body.deployment === undefined ? 0 : 1);
  sm.graph.horizonIndex = body.horizon_index;
  for (const [id, versions] of body.nodes) {
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
  for (const [id, type, source, target, versions] of body.edges) {
    sm.graph.restoreEdge(id, type, source, target, versions.map(([index, ts, props, deleted]) => ({ index, ts, props: new Map(props), deleted })));
  }
  sm.graph.reserveIds(body.next_node_id, body.next_edge_id);
  sm.operations.restore(body.operations);
  sm.clock.restore(body.clock);
  sm.schema.restore(body.schema, vectorGraphRestore(dir, body.index, warn));
  sm.blobs.restore(body.blobs);
  sm.appliedIndex = body.index;
  sm.committedIndex = body.index;
  return sm;
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
 * Takes a checkpoint file received from the leader (whole, checked and fsynced at `from`, on the same
 * file system) as the checkpoint at `index`: renamed into place, so loadCheckpoint finds it as the
 * newest, exactly as a restart would.
 */
export function installCheckpointFile(dir: string, index: number, from: string): void {
  mkdirSync(dir, { recursive: true });
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
    if (bytes.byteLength < 4 || crc32(bytes.subarray(4)) !== bytes.readUInt32LE(0)) continue;
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
