import { createRequire } from 'node:module';
import { crc32 } from 'node:zlib';
import type { HierarchicalNSW as Hnsw } from 'hnswlib-node';
import { assert } from '../../common/assert.js';
import type { SearchIndexSpec } from '../../log/events.js';
import type { NodeRecord } from '../graph/records.js';
import type { SearchMaintenance } from './search-index.js';
import { vectorMetricDistance, type VectorMetricName } from './vector-metrics.js';
import { RecentVectors } from './vector-recent.js';
import { cosineNormalisable, distanceTolerance, euclideanNorm, type SearchNorms } from './vector-tolerance.js';

// hnswlib-node is a CommonJS native addon: its classes are reached through require.
const { HierarchicalNSW } = createRequire(import.meta.url)('hnswlib-node') as typeof import('hnswlib-node');

/**
 * A vector index of one label and property on hnswlib-node (HNSW), maintained at apply.
 *
 * It holds the latest vector of each node of the label (pending writes included): a node deleted,
 * relabelled or changed to a vector of another width is mark-deleted in the graph, and once mark-deleted
 * slots outnumber live ones (and pass `compaction_deleted_min`) the graph is rebuilt from the live
 * vectors. Capacity doubles when full. Everything here is deterministic: the same writes in the same
 * order give the same graph on every member (a fixed seed, no threads), so apply may call it.
 *
 * L1 has no HNSW space: an L1 index keeps only the vectors and is answered by exact search.
 */
export type VectorHit = {
  readonly id: number;
  readonly distance: number;
  /**
   * How far `distance` may be from `vector_distance` of the held vector, which computes in 64-bit
   * floats: 0 when it is that computation, otherwise the bound on HNSW's 32-bit arithmetic
   * (vector-tolerance.ts), Infinity where none is proven (a COSINE vector outside the normalisable range).
   */
  readonly tolerance: number;
};

/** Slots allocated when an index is created; doubled when full. */
export const vector_capacity_initial = 1024;
/** Mark-deleted slots below which no compaction runs, however few live vectors remain. */
export const compaction_deleted_min = 1024;
/** The HNSW search beam when a query does not need a wider one. */
export const vector_ef_search_default = 64;
/**
 * Vectors last put into the graph that are also searched exactly, at most this many (the newest).
 * A constant, not a setting: every member and every replay must keep the same list, so that the
 * answers do not depend on a member's configuration. 256 x 128-d costs a query about 33k
 * multiply-adds.
 */
export const exact_recent_max = 256;
/**
 * When a vector of the exact list that the graph did not answer is nearer than the graph's k-th
 * answer, the graph search missed part of the answer (on clustered data: often its whole cluster),
 * and it runs once more with a beam this many times wider (bench/vector-clusters.ts measures it).
 */
export const recent_retry_beam_factor = 4;
/** Seed of the HNSW level generator: fixed so every member builds the same graph. */
const hnsw_seed = 100;
/** Bytes per HNSW link slot (a 32-bit id) and per element of fixed bookkeeping. */
const link_bytes = 4;
const element_overhead_bytes = 64;

export class VectorIndex implements SearchMaintenance {
  readonly kind = 'vector' as const;
  readonly dimensions: number;
  readonly metric: VectorMetricName;
  /** Latest vector of every indexed node. Invariant: the HNSW graph holds exactly these ids unmarked. */
  private readonly vectors = new Map<number, Float32Array>();
  private hnsw: Hnsw | undefined;
  private capacity = 0;
  /** Ids mark-deleted in the HNSW graph. Invariant: disjoint from `vectors`; empty when there is no graph. */
  private readonly deleted = new Set<number>();
  /**
   * Bumped by every change to the vectors, the graph or the exact list (all saved together): a graph
   * saved at one version need not be written again while it holds (see vector-index-file.ts).
   */
  version = 0;
  /**
   * Ids last put into the graph (inserted or re-linked), oldest first, with copies of their vectors
   * side by side (vector-recent.ts), searched exactly beside it and merged into every answer: HNSW's neighbour selection can leave a
   * new vector, above all one far from the others, with no incoming link, and then no search
   * reaches it. Ids the graph is seen to reach (their own vector finds them first) leave the list at
   * a build's publication, after a rebuild and at load. Invariant: a subset of `vectors`' keys, each
   * listed with the vector `vectors` holds for it, at most `exact_recent_max`; empty without a graph.
   */
  private readonly recent: RecentVectors;
  /**
   * DOT: at least the Euclidean norm of every held vector (the largest ever put: it never shrinks),
   * for the bound on the index's distances (vector-tolerance.ts).
   */
  private heldNormMax = 0;
  /**
   * COSINE: held ids whose squared norm lies outside the range where hnswlib's 32-bit normalisation
   * is bounded (vector-tolerance.ts); their hits are measured exactly. Invariant: a subset of
   * `vectors`' keys; empty for every other metric.
   */
  private readonly unnormalisable = new Set<number>();
  /** The beam last set on `hnsw` (-1: none yet). */
  private ef = -1;
  /**
   * The query as the addon takes it (a plain array of `dimensions` numbers), refilled by every
   * search: the addon reads a JS array only, and filling one reused array costs far less than
   * Array.from allocating a new one per query.
   */
  private readonly queryScratch: number[];
  /**
   * Log index of the latest write that changed the vectors held (put a new or different vector; 0:
   * none). Invariant: every held vector is the one its node's versions at or after this index
   * hold, so a reader whose snapshot is at or after it sees each held vector as held, and the
   * index's distances are distances to what that reader sees. Only grows (a forgotten node is no
   * candidate, so forgetting leaves it).
   */
  changedAt = 0;
  /** Compactions run so far (operators and tests read it). */
  compactions = 0;
  /**
   * How the HNSW graph came to be at load: taken from the file saved with the checkpoint, or built
   * from the vectors (no usable file, or a fresh index). Tests and operators read it.
   */
  origin: 'built' | 'saved' = 'built';
  /**
   * A saved graph adopted at load, while the refill from the records puts the vectors back: `put`
   * only records them (the graph holds them already) until `settleSaved` checks them against it.
   */
  private adopting: SavedGraphFacts | undefined;
  /**
   * Whether the graph is exactly its vectors appended in ascending id order to a fresh graph (no
   * update, delete or out-of-order insert since). A build's backfill interleaves with writes at
   * moments no log entry records, so only such a graph is the same on every member and replay.
   */
  private inIdOrder = true;
  /** Highest id appended while `inIdOrder` holds (-1: none). */
  private lastAppended = -1;

  constructor(
    readonly spec: Extract<SearchIndexSpec, { kind: 'vector' }>,
    readonly label: string,
    readonly property: string,
  ) {
    this.dimensions = spec.dimensions;
    this.metric = spec.metric;
    this.queryScratch = new Array<number>(spec.dimensions).fill(0);
    this.recent = new RecentVectors(exact_recent_max, spec.dimensions);
    this.reset(vector_capacity_initial);
  }

  refresh(record: NodeRecord): void {
    const head = record.head;
    const v = head.deleted || !head.labels.includes(this.label) ? undefined : head.props.get(this.property);
    if (v instanceof Float32Array && v.length === this.dimensions) this.put(record.id, v, head.index);
    else this.forget(record.id);
  }

  forget(id: number): void {
    if (!this.vectors.delete(id)) return;
    this.unnormalisable.delete(id);
    this.version++;
    this.recent.delete(id);
    if (this.hnsw === undefined) return;
    this.hnsw.markDelete(id);
    this.inIdOrder = false;
    this.deleted.add(id);
    if (this.deleted.size >= compaction_deleted_min && this.deleted.size > this.vectors.size) this.compact();
  }

  count(): number {
    return this.vectors.size;
  }

  /** The vector held for a node, if any. */
  vectorOf(id: number): Float32Array | undefined {
    return this.vectors.get(id);
  }

  ids(): IterableIterator<number> {
    return this.vectors.keys();
  }

  /** Vectors plus the HNSW graph (links at level 0 and an average of one upper level). */
  bytes(): number {
    const links = this.hnsw === undefined ? 0 : this.spec.m * 3 * link_bytes;
    return this.capacity * (this.dimensions * 4 + links + element_overhead_bytes) + this.vectors.size * this.dimensions * 4;
  }

  /** Whether searches go through HNSW (false: L1, answered exactly). */
  get approximate(): boolean {
    return this.hnsw !== undefined;
  }

  /**
   * Up to `k` nearest held vectors by HNSW with beam `ef`, each passing `accept`, nearest first, with
   * distances as `vector_distance` gives them. An L1 index answers exactly.
   */
  search(query: Float32Array, k: number, ef: number, accept?: (id: number) => boolean): VectorHit[] {
    const live = this.vectors.size;
    if (k <= 0 || live === 0) return [];
    assert(query.length === this.dimensions, 'a vector search takes a query of the index\'s width');
    if (this.hnsw === undefined) return this.exact(query, k, accept);
    const beam = Math.max(ef, k);
    const want = Math.min(k, live);
    const hits = this.graphSearch(query, want, beam, accept);
    if (this.recent.size === 0) return hits;
    const nearer = this.recent.nearerThan(this.metric, query, hits.length >= k ? hits[hits.length - 1]!.distance : Infinity);
    // A listed vector nearer than the graph's k-th answer that the graph did not give: the search
    // missed it, and on clustered data often the rest of its cluster too. One wider search, then.
    if (hits.length >= k && nearer.some(([id]) => (accept === undefined || accept(id)) && !hits.some((h) => h.id === id))) {
      const wider = this.graphSearch(query, want, beam * recent_retry_beam_factor, accept);
      const bound = wider.length >= k ? wider[wider.length - 1]!.distance : Infinity;
      return this.mergeRecent(k, wider, this.recent.nearerThan(this.metric, query, bound), accept);
    }
    return this.mergeRecent(k, hits, nearer, accept);
  }

  /** The graph's answer alone: up to `k` hits with beam `beam`, nearest first. */
  private graphSearch(query: Float32Array, k: number, beam: number, accept?: (id: number) => boolean): VectorHit[] {
    const hnsw = this.hnsw!;
    // setEf is a call into the addon: skipped when the beam is the one set last.
    if (beam !== this.ef) hnsw.setEf((this.ef = beam));
    const scratch = this.queryScratch;
    for (let i = 0; i < scratch.length; i++) scratch[i] = query[i]!;
    const res = hnsw.searchKnn(scratch, k, accept);
    const n = res.neighbors.length;
    const out = new Array<VectorHit>(n);
    const norms = this.searchNorms(query);
    const cosine = this.metric === 'COSINE';
    for (let i = 0; i < n; i++) {
      const id = res.neighbors[i]!;
      const distance = fromSpace(this.metric, res.distances[i]!);
      const bounded = !cosine || !this.unnormalisable.has(id);
      out[i] = { id, distance, tolerance: distanceTolerance(this.metric, this.dimensions, distance, bounded ? norms : undefined) };
    }
    return out;
  }

  /** What the COSINE and DOT bounds need of a search (undefined for the other metrics). */
  private searchNorms(query: Float32Array): SearchNorms | undefined {
    if (this.metric !== 'COSINE' && this.metric !== 'DOT') return undefined;
    return { query: euclideanNorm(query), held_max: this.heldNormMax };
  }

  /** Keeps `heldNormMax` and `unnormalisable` true of a vector just put. */
  private noteNorm(id: number, v: Float32Array): void {
    if (this.metric === 'DOT') this.heldNormMax = Math.max(this.heldNormMax, euclideanNorm(v));
    else if (this.metric === 'COSINE') {
      const norm = euclideanNorm(v);
      if (cosineNormalisable(norm * norm)) this.unnormalisable.delete(id);
      else this.unnormalisable.add(id);
    }
  }

  /** Ids searched exactly beside the graph (see `recent`), oldest first. */
  recentIds(): readonly number[] {
    return this.recent.ids();
  }

  /**
   * `hits` (nearest first, at most k) with the listed vectors `nearer` than its k-th (measured
   * exactly, nearest first) merged in: an id the graph also answered keeps its place, a nearer
   * listed one takes the place of the farthest.
   */
  private mergeRecent(k: number, hits: VectorHit[], nearer: readonly (readonly [number, number])[], accept?: (id: number) => boolean): VectorHit[] {
    for (const [id, distance] of nearer) {
      if (hits.length >= k && distance >= hits[hits.length - 1]!.distance) break;
      if (accept !== undefined && !accept(id)) continue;
      if (hits.some((h) => h.id === id)) continue;
      let at = hits.length;
      while (at > 0 && hits[at - 1]!.distance > distance) at--;
      hits.splice(at, 0, { id, distance, tolerance: 0 });
      if (hits.length > k) hits.length = k;
    }
    return hits;
  }

  /**
   * Drops from `recent` every id the graph reaches: a search for its own vector (beam
   * `vector_ef_search_default`) answers it (or an identical vector) first. Deterministic: the same
   * graph gives the same list.
   */
  private pruneRecent(): void {
    const hnsw = this.hnsw;
    if (hnsw === undefined || this.recent.size === 0) return;
    const beam = vector_ef_search_default;
    if (beam !== this.ef) hnsw.setEf((this.ef = beam));
    const scratch = this.queryScratch;
    const before = this.recent.size;
    for (const id of this.recent.ids()) {
      const v = this.vectors.get(id)!;
      for (let i = 0; i < scratch.length; i++) scratch[i] = v[i]!;
      // An identical vector answered in its place (distance 0) is as near to any query as this
      // one: the graph reaches what the id stands for, and a list of duplicates would never drain.
      const res = hnsw.searchKnn(scratch, 1);
      if (res.neighbors[0] === id || res.distances[0] === 0) this.recent.delete(id);
    }
    if (this.recent.size !== before) this.version++;
  }

  /** The `k` nearest held vectors passing `accept`, by comparing every one. */
  exact(query: Float32Array, k: number, accept?: (id: number) => boolean): VectorHit[] {
    const out: VectorHit[] = [];
    for (const [id, v] of this.vectors) {
      if (accept !== undefined && !accept(id)) continue;
      out.push({ id, distance: vectorMetricDistance(this.metric, v, query), tolerance: 0 });
    }
    out.sort((a, b) => a.distance - b.distance || a.id - b.id);
    out.length = Math.min(out.length, k);
    return out;
  }

  /**
   * What a saved graph must be checked against at load: the digest of the vectors it was saved
   * with, and the ids it holds mark-deleted. Undefined for L1 (no graph) and while a saved graph is
   * being adopted.
   */
  savedFacts(): SavedGraphFacts | undefined {
    if (this.hnsw === undefined || this.adopting !== undefined) return undefined;
    return { digest: this.digest(), count: this.vectors.size, deleted: [...this.deleted].sort((a, b) => a - b), recent: this.recent.ids() };
  }

  /** The HNSW graph, for writing it beside a checkpoint (hnswlib writes files only). */
  graph(): Hnsw | undefined {
    return this.hnsw;
  }

  /**
   * Reads the graph back from the file just saved for a checkpoint: the same graph, with hnswlib's
   * level generator where a member loading that file starts it (the file does not carry it). Every
   * element put from here on gets the level it gets after a restart from this checkpoint, so a
   * restart, a replay from the checkpoint and a restore of a backup of it build the graph this
   * member holds, and answer its approximate queries as it does.
   */
  reloadSaved(path: string): void {
    if (this.hnsw === undefined || this.adopting !== undefined) return;
    this.hnsw.readIndexSync(path);
    this.ef = -1;
  }

  /**
   * Takes a graph read from a saved file before the refill at load. Call on an empty index only;
   * `settleSaved` must follow the refill.
   */
  adoptSaved(hnsw: Hnsw, facts: SavedGraphFacts): void {
    assert(this.vectors.size === 0 && this.metric !== 'L1', 'a saved graph is adopted by an empty HNSW index only');
    this.hnsw = hnsw;
    this.version++;
    this.ef = -1;
    this.capacity = hnsw.getMaxElements();
    // How the saved graph came to be is unknown: a build settling over it rebuilds it.
    this.inIdOrder = false;
    this.deleted.clear();
    for (const id of facts.deleted) this.deleted.add(id);
    // The listed ids get their vectors once the refill has put them back (settleSaved).
    this.recent.clear();
    this.adopting = facts;
  }

  /**
   * After the refill: keeps the adopted graph when the refilled vectors are exactly those it was
   * saved with, else rebuilds it from them. Returns why it rebuilt, or undefined when it kept it.
   */
  settleSaved(): string | undefined {
    const facts = this.adopting;
    if (facts === undefined) {
      // A graph the refill built: what it does not reach among the newest is searched exactly.
      this.pruneRecent();
      return undefined;
    }
    this.adopting = undefined;
    const held = this.hnsw?.getCurrentCount() ?? 0;
    let why: string | undefined;
    if (facts.count !== this.vectors.size || held !== this.vectors.size + this.deleted.size) {
      why = `it holds ${held} elements (${this.deleted.size} deleted) for ${facts.count} vectors, the nodes hold ${this.vectors.size}`;
    } else if ([...this.deleted].some((id) => this.vectors.has(id))) {
      why = 'a node it holds deleted has a vector';
    } else if ((facts.recent ?? []).some((id) => !this.vectors.has(id))) {
      why = 'a vector it searches exactly is not held by any node';
    } else if (facts.digest !== this.digest()) {
      why = 'its vectors differ from the nodes\' vectors';
    }
    if (why === undefined) {
      for (const id of facts.recent ?? []) this.recent.note(id, this.vectors.get(id)!);
      this.origin = 'saved';
      return undefined;
    }
    this.rebuild(Math.max(vector_capacity_initial, this.vectors.size * 2));
    return why;
  }

  /** CRC-32 of every (id, vector) in id order: equal digests, equal contents. */
  digest(): number {
    const entries = [...this.vectors].sort((a, b) => a[0] - b[0]);
    const idBytes = new DataView(new ArrayBuffer(8));
    const idView = new Uint8Array(idBytes.buffer);
    let crc = 0;
    for (const [id, v] of entries) {
      idBytes.setFloat64(0, id, true);
      crc = crc32(idView, crc);
      crc = crc32(new Uint8Array(v.buffer, v.byteOffset, v.byteLength), crc);
    }
    return crc;
  }

  private put(id: number, v: Float32Array, index: number): void {
    const had = this.vectors.get(id);
    if (had !== undefined && sameVector(had, v)) return;
    this.vectors.set(id, v);
    this.noteNorm(id, v);
    this.version++;
    if (index > this.changedAt) this.changedAt = index;
    if (this.hnsw === undefined || this.adopting !== undefined) return;
    // A mark-deleted id keeps its slot: hnswlib unmarks it and updates the vector in place.
    const reused = this.deleted.delete(id);
    if (had === undefined && !reused && this.vectors.size + this.deleted.size > this.capacity) {
      this.capacity *= 2;
      this.hnsw.resizeIndex(this.capacity);
    }
    if (had !== undefined || reused || id <= this.lastAppended) this.inIdOrder = false;
    else this.lastAppended = id;
    this.hnsw.addPoint(Array.from(v), id);
    this.recent.note(id, v);
  }

  /**
   * At a build's publication, on every member and in every replay: makes the graph the one its
   * vectors give appended in id order, rebuilding it when writes during the build (or the order the
   * backfill met them in) made it otherwise. True when it rebuilt.
   */
  settleBuild(): boolean {
    if (this.hnsw === undefined || this.adopting !== undefined) return false;
    if (this.inIdOrder) {
      this.pruneRecent();
      return false;
    }
    this.rebuild(Math.max(vector_capacity_initial, this.vectors.size * 2));
    return true;
  }

  /** Mark-deleted slots waiting for a compaction. */
  deletedCount(): number {
    return this.deleted.size;
  }

  /** A fresh graph holding the live vectors only, inserted in id order (deterministic). */
  private compact(): void {
    this.rebuild(Math.max(vector_capacity_initial, this.vectors.size * 2));
    this.compactions++;
  }

  private rebuild(capacity: number): void {
    this.version++;
    const live = [...this.vectors.entries()].sort((a, b) => a[0] - b[0]);
    this.reset(capacity);
    for (const [id, v] of live) {
      this.hnsw?.addPoint(Array.from(v), id);
      this.recent.note(id, v);
    }
    this.lastAppended = live.at(-1)?.[0] ?? -1;
    this.pruneRecent();
  }

  private reset(capacity: number): void {
    this.capacity = capacity;
    this.deleted.clear();
    this.recent.clear();
    const space = spaceOf(this.metric);
    if (space === undefined) {
      this.hnsw = undefined;
      return;
    }
    this.hnsw = new HierarchicalNSW(space, this.dimensions);
    this.ef = -1;
    this.origin = 'built';
    this.inIdOrder = true;
    this.lastAppended = -1;
    this.hnsw.initIndex({ maxElements: capacity, m: this.spec.m, efConstruction: this.spec.ef_construction, randomSeed: hnsw_seed });
  }
}

/** What a saved graph is checked against at load (see `savedFacts`). */
export interface SavedGraphFacts {
  /** `digest()` of the vectors when the graph was saved. */
  readonly digest: number;
  /** Live vectors then. */
  readonly count: number;
  /** Ids mark-deleted in the graph then, ascending. */
  readonly deleted: readonly number[];
  /** Ids searched exactly beside the graph then, oldest first (absent in metas written before the list existed). */
  readonly recent?: readonly number[];
}

/** A fresh hnswlib graph of an index's space, to read a saved file into. */
export function emptyGraph(metric: VectorMetricName, dimensions: number): Hnsw | undefined {
  const space = spaceOf(metric);
  return space === undefined ? undefined : new HierarchicalNSW(space, dimensions);
}

export function spaceOf(metric: VectorMetricName): 'cosine' | 'l2' | 'ip' | undefined {
  switch (metric) {
    case 'COSINE':
      return 'cosine';
    case 'L2':
      return 'l2';
    case 'DOT':
      return 'ip';
    case 'L1':
      return undefined;
  }
}

/** hnswlib's distances in `vector_distance`'s terms: l2 is squared, ip is 1 - dot. */
function fromSpace(metric: VectorMetricName, d: number): number {
  switch (metric) {
    case 'L2':
      return Math.sqrt(Math.max(0, d));
    case 'DOT':
      return d - 1;
    case 'COSINE':
    case 'L1':
      return d;
  }
}

function sameVector(a: Float32Array, b: Float32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
