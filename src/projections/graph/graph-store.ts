import { assert } from '../../common/assert.js';
import type { PropertyMap, PropertyValue } from '../../common/property-value.js';
import type { GraphOp } from '../../log/events.js';
import { writeValidVersion } from '../temporal/valid-time.js';
import { adjacencyBytes, buildAdjacency, type TypeAdjacency } from './adjacency.js';
import { PropertyKeyCatalog } from './property-key-catalog.js';
import { EdgeRecord, LabelMembers, NodeRecord, visibleEdge, visibleNode, type EdgeVersion, type NodeVersion } from './records.js';
import { ScanCache, SLOT_BYTES, type CachedForm, type CachedFormKind } from './scan-cache.js';
import { SupersededForms } from './superseded-forms.js';

/**
 * The graph projection: nodes with labels and properties, typed edges with properties, adjacency both
 * ways, every record a chain of versions. `applyOps` is deterministic and synchronous; the checks that
 * decide whether a write may apply live in `checkOps`, so a refused write changes nothing.
 */
export interface GraphStats {
  readonly nodes: number;
  readonly edges: number;
  readonly label_counts: ReadonlyMap<string, number>;
  readonly edge_type_counts: ReadonlyMap<string, number>;
}

/** Why a write cannot apply; the write is refused whole, identically on every member. */
export interface Refusal {
  readonly code: 'NOT_FOUND' | 'FAILED_PRECONDITION' | 'ABORTED' | 'ALREADY_EXISTS' | 'INVALID_ARGUMENT';
  readonly reason: string;
  readonly message: string;
  readonly metadata: Readonly<Record<string, string>>;
}

/** What a statement read by predicate rather than by id: whole labels, edge types, or everything. */
export interface ScanSet {
  readonly labels: ReadonlySet<string>;
  readonly types: ReadonlySet<string>;
  /** Every node (a scan without a label). */
  readonly all_nodes: boolean;
  /** Every edge, or the edges of a node of any type (an expand without a type). */
  readonly all_edges: boolean;
}

export class GraphStore {
  /** Dense by id: ids are allocated in order by the proposer. Index 0 is never used. */
  private readonly nodes: (NodeRecord | undefined)[] = [undefined];
  private readonly edges: (EdgeRecord | undefined)[] = [undefined];
  private readonly byLabel = new Map<string, Set<NodeRecord>>();
  private readonly byEdgeType = new Map<string, Set<EdgeRecord>>();
  private readonly labelCounts = new Map<string, number>();
  private readonly edgeTypeCounts = new Map<string, number>();
  private readonly propertyKeys = new PropertyKeyCatalog();
  private liveNodes = 0;
  private liveEdges = 0;
  /** Records each not-yet-committed entry touched, newest last, so a lost leadership can undo them. */
  private readonly undo: { index: number; nodes: NodeRecord[]; edges: EdgeRecord[] }[] = [];
  /**
   * Versions at or below this index that are shadowed by a newer version also at or below it can be
   * dropped: no reader reads below it. Set by the host from the retention window and open snapshots.
   */
  horizonIndex = 0;
  /**
   * Deletions the horizon has not passed yet, in the order they applied (log order), consumed from
   * `*Collected`; `collect()` drops the records the horizon has passed. A checkpoint restores them out
   * of order, which `unsorted` notes.
   */
  private readonly nodeDeletions: NodeVersion[] = [];
  private readonly edgeDeletions: EdgeVersion[] = [];
  private nodesCollected = 0;
  /**
   * Per label, the log index of the newest version of any node that has or had the label: past
   * it, every reader sees the same nodes of the label, so their list can be kept (`members`).
   */
  private readonly labelWritten = new Map<string, number>();
  private readonly memberLists = new Map<string, LabelMembers>();
  /** What `labelWritten` was at the last scan that found no list, so a list is built only for a label read twice unchanged. */
  private readonly scannedAt = new Map<string, number>();
  /**
   * Bounds what every form built for scanning and every form derived from one hold together; sized by the
   * graph unless the host sets the limit (`scan_cache_mb`).
   */
  readonly scanCache = new ScanCache(() => scanCacheAutoBytes(this.nodes.length, this.edges.length));
  /** Per form kept (a list, a CSR, a column's array, a bitmap), its entry in the scan cache. */
  private readonly cachedForms = new WeakMap<object, CachedForm>();
  /** Forms writes made stale, kept while a pinned reader older than the write may read them. */
  readonly superseded = new SupersededForms();
  /**
   * The oldest read index a reader holds pinned (a transaction's snapshot, a sliced read), or undefined when
   * none does; the host sets it. Superseded forms are kept only for such readers.
   */
  oldestPinned: () => number | undefined = () => undefined;
  /** True while pending entries are undone: the forms they drop picture nothing any reader reads. */
  private undoing = false;
  private edgesCollected = 0;
  private unsorted = false;
  /**
   * Whether a label is temporal (SPEC 2.4): its nodes keep one version per valid_from. The schema
   * projection answers from the catalog, which is itself a fold of the log, so apply stays pure.
   */
  temporalLabel: (label: string) => boolean = () => false;
  /** Per edge type, the log index of the newest version of any edge of the type (see `adjacency`). */
  private readonly typeWritten = new Map<string, number>();
  private readonly adjacencies = new Map<string, TypeAdjacency>();
  /** Per edge type, edges walked record by record since its last write: what a CSR would have saved. */
  private readonly adjacencyDemand = new Map<string, number>();
  /** The log index of the newest version of any node (see `nodeColumn`). */
  private nodesWritten = 0;
  /** Per property key, every node's value by id, built at `nodesWritten` (see `nodeColumn`). */
  private readonly nodeColumns = new Map<string, { readonly written: number; readonly values: readonly (PropertyValue | undefined)[] }>();
  /** Per property key (and per `:label`), reads of it by node id since the last node write. */
  private readonly nodeColumnDemand = new Map<string, number>();
  /** Per label, 1 at the id of each node that has it, as of `nodesWritten` (see `labelBitmap`). */
  private readonly labelBitmaps = new Map<string, Uint8Array>();
  /** Per edge type, then property key: every edge's value by edge id, built at the type's `typeWritten` (see `edgeColumn`). */
  private readonly edgeColumns = new Map<string, Map<string, { readonly written: number; readonly values: readonly (PropertyValue | undefined)[] }>>();
  /** Per edge type, then property key, edges read by id since the type's last write. */
  private readonly edgeColumnDemand = new Map<string, Map<string, number>>();

  get nextNodeId(): number {
    return this.nodes.length;
  }

  get nextEdgeId(): number {
    return this.edges.length;
  }

  nodeRecord(id: number): NodeRecord | undefined {
    return Number.isSafeInteger(id) && id > 0 ? this.nodes[id] : undefined;
  }

  edgeRecord(id: number): EdgeRecord | undefined {
    return Number.isSafeInteger(id) && id > 0 ? this.edges[id] : undefined;
  }

  /** Every node record, in id order (visibility is the reader's to check). */
  *nodeRecords(): IterableIterator<NodeRecord> {
    for (let i = 1; i < this.nodes.length; i++) {
      const r = this.nodes[i];
      if (r !== undefined) yield r;
    }
  }

  *edgeRecords(): IterableIterator<EdgeRecord> {
    for (let i = 1; i < this.edges.length; i++) {
      const r = this.edges[i];
      if (r !== undefined) yield r;
    }
  }

  /**
   * The nodes of `label` a reader at `readIndex` sees, in the label set's order, when no write to
   * the label is newer than the reader; undefined otherwise (the caller then walks the records).
   * A list is built on the second scan of an unchanged label and kept until the label is written.
   */
  members(label: string, readIndex: number): LabelMembers | undefined {
    const written = this.labelWritten.get(label) ?? 0;
    if (written > readIndex) return this.supersededFor<LabelMembers>('label list', label, readIndex);
    const kept = this.memberLists.get(label);
    if (kept !== undefined && kept.written === written) return this.used(kept);
    if (this.scannedAt.get(label) !== written) {
      this.scannedAt.set(label, written);
      return undefined;
    }
    this.dropMembers(label);
    // The records of the label bound the list's length; forms least recently used make room if they must.
    const records = this.recordsWithLabel(label);
    const bytes = SLOT_BYTES * records.size + 64;
    if (!this.scanCache.fits(bytes)) return undefined;
    const nodes: NodeVersion[] = [];
    for (const r of records) {
      const v = visibleNode(r, readIndex);
      if (v !== undefined && v.labels.includes(label)) nodes.push(v);
    }
    const members = new LabelMembers(written, nodes);
    const admitted = this.keep('label list', bytes, members, [nodes], () => {
      if (this.memberLists.get(label) === members) this.memberLists.delete(label);
    });
    if (!admitted) return undefined;
    this.memberLists.set(label, members);
    return members;
  }

  /**
   * The kept list of `label` when one is kept and a reader at `readIndex` sees exactly it; unlike
   * `members`, it neither builds a list nor counts as a scan of the label.
   */
  keptMembers(label: string, readIndex: number): LabelMembers | undefined {
    const written = this.labelWritten.get(label) ?? 0;
    if (written > readIndex) return this.supersededFor<LabelMembers>('label list', label, readIndex);
    const kept = this.memberLists.get(label);
    return kept !== undefined && kept.written === written ? kept : undefined;
  }

  /**
   * The CSR of `type` when one is kept and a reader at `readIndex` sees exactly it; unlike `adjacency`,
   * it neither builds one nor counts as demand for one.
   */
  keptAdjacency(type: string, readIndex: number): TypeAdjacency | undefined {
    const written = this.typeWritten.get(type) ?? 0;
    if (written > readIndex) return this.supersededFor<TypeAdjacency>('csr', type, readIndex);
    const kept = this.adjacencies.get(type);
    return kept !== undefined && kept.written === written ? kept : undefined;
  }

  /**
   * The CSR of edge type `type` when a reader at `readIndex` sees exactly the edges it holds (no edge
   * of the type written since). `walked` is how many edges the caller walked record by record since
   * it last asked: a CSR is built once that work adds up to a quarter of the type's edges, so an
   * anchored query never pays for a whole-type build, and a whole-graph one pays once per write.
   */
  adjacency(type: string, readIndex: number, walked: number): TypeAdjacency | undefined {
    const written = this.typeWritten.get(type) ?? 0;
    if (written > readIndex) return this.supersededFor<TypeAdjacency>('csr', type, readIndex);
    const kept = this.adjacencies.get(type);
    if (kept !== undefined && kept.written === written) return this.used(kept);
    const demand = (this.adjacencyDemand.get(type) ?? 0) + walked;
    this.adjacencyDemand.set(type, demand);
    const count = this.edgeTypeCounts.get(type) ?? 0;
    if (demand * ADJACENCY_DEMAND_SHARE < count) return undefined;
    this.dropAdjacency(type);
    // Estimated from the live count before the build; the build holds what it measured.
    if (!this.scanCache.fits(adjacencyBytes(this.nodes.length, count))) return undefined;
    const built = buildAdjacency(this.recordsOfType(type), readIndex, this.nodes.length, written);
    if (built === undefined) return undefined;
    const admitted = this.keep('csr', built.bytes, built, [built.out, built.into], () => {
      if (this.adjacencies.get(type) === built) this.adjacencies.delete(type);
    });
    if (!admitted) return undefined;
    this.adjacencies.set(type, built);
    return built;
  }

  /**
   * Every node's value of `key`, indexed by node id (undefined where absent or no node), when a
   * reader at `readIndex` sees the nodes as they were at the build (no node written since). Built
   * once `reads` since the last write add up to an eighth of the nodes, as `adjacency` is.
   */
  nodeColumn(key: string, readIndex: number, reads: number): readonly (PropertyValue | undefined)[] | undefined {
    if (this.nodesWritten > readIndex) return this.supersededFor<readonly (PropertyValue | undefined)[]>('node column', key, readIndex);
    const kept = this.nodeColumns.get(key);
    if (kept !== undefined && kept.written === this.nodesWritten) return this.used(kept.values);
    const demand = (this.nodeColumnDemand.get(key) ?? 0) + reads;
    this.nodeColumnDemand.set(key, demand);
    if (demand * NODE_COLUMN_DEMAND_SHARE < this.liveNodes) return undefined;
    if (!this.scanCache.fits(SLOT_BYTES * this.nodes.length)) return undefined;
    let copies = 0;
    // Pushed, not preallocated: `new Array(n)` with n of 100,000 or more is a slow dictionary array.
    const values: (PropertyValue | undefined)[] = [undefined];
    for (let i = 1; i < this.nodes.length; i++) {
      const r = this.nodes[i];
      const v = r === undefined ? undefined : visibleNode(r, readIndex)?.props.get(key);
      // A fresh copy of an INTEGER, so the column's BigInts sit side by side in memory rather than
      // each beside its node's map: comparisons over the column then read a dense block.
      if (typeof v === 'bigint') copies++;
      values.push(typeof v === 'bigint' ? -(-v) : v);
    }
    const bytes = SLOT_BYTES * this.nodes.length + BIGINT_COPY_BYTES * copies;
    const entry = { written: this.nodesWritten, values };
    const admitted = this.keep('node column', bytes, values, [], () => {
      if (this.nodeColumns.get(key) === entry) this.nodeColumns.delete(key);
    });
    if (!admitted) return undefined;
    this.nodeColumns.set(key, entry);
    return values;
  }

  /**
   * The value of `key` of every edge of `type`, indexed by edge id (undefined where absent or not of the
   * type), when a reader at `readIndex` sees the type's edges as they were at the build (none written
   * since), on the same terms as the type's CSR; `reads` is how many edges the caller read by id since
   * it last asked. Dropped with the type's CSR on its next write.
   */
  edgeColumn(type: string, key: string, readIndex: number, reads: number): readonly (PropertyValue | undefined)[] | undefined {
    const written = this.typeWritten.get(type) ?? 0;
    if (written > readIndex) return this.supersededFor<readonly (PropertyValue | undefined)[]>('edge column', edgeColumnKey(type, key), readIndex);
    let byKey = this.edgeColumns.get(type);
    const kept = byKey?.get(key);
    if (kept !== undefined && kept.written === written) return this.used(kept.values);
    let demands = this.edgeColumnDemand.get(type);
    if (demands === undefined) this.edgeColumnDemand.set(type, (demands = new Map()));
    const demand = (demands.get(key) ?? 0) + reads;
    demands.set(key, demand);
    if (demand * ADJACENCY_DEMAND_SHARE < (this.edgeTypeCounts.get(type) ?? 0)) return undefined;
    const bytes = SLOT_BYTES * this.edges.length;
    if (!this.scanCache.fits(bytes)) return undefined;
    // Pushed, not preallocated, as node columns are (a large `new Array(n)` is a slow dictionary array).
    const values: (PropertyValue | undefined)[] = [];
    for (let i = 0; i < this.edges.length; i++) values.push(undefined);
    // The records' own values, not fresh copies of INTEGERs as node columns make: batched runs read the typed
    // form made from this column (doubles or codes), so copies would only add a BigInt per edge to a large heap
    // at each build, and the marking that allocation sets off costs the next runs more than the copies save.
    for (const r of this.recordsOfType(type)) values[r.id] = visibleEdge(r, readIndex)?.props.get(key);
    const entry = { written, values };
    const admitted = this.keep('edge column', bytes, values, [], () => {
      if (this.edgeColumns.get(type)?.get(key) === entry) this.edgeColumns.get(type)?.delete(key);
    });
    if (!admitted) return undefined;
    if (byKey === undefined) this.edgeColumns.set(type, (byKey = new Map()));
    byKey.set(key, entry);
    return values;
  }

  /**
   * Which nodes have `label`, one byte per node id, when a reader at `readIndex` sees the nodes as
   * they were at the build (no node written since). Built once `reads` since the last node write
   * add up to an eighth of the label's nodes.
   */
  labelBitmap(label: string, readIndex: number, reads: number): Uint8Array | undefined {
    if (this.nodesWritten > readIndex) return this.supersededFor<Uint8Array>('label bitmap', label, readIndex);
    const kept = this.labelBitmaps.get(label);
    if (kept !== undefined) return this.used(kept);
    const key = `:${label}`;
    const demand = (this.nodeColumnDemand.get(key) ?? 0) + reads;
    this.nodeColumnDemand.set(key, demand);
    if (demand * NODE_COLUMN_DEMAND_SHARE < (this.labelCounts.get(label) ?? 0)) return undefined;
    if (!this.scanCache.fits(this.nodes.length)) return undefined;
    const bits = new Uint8Array(this.nodes.length);
    for (const r of this.recordsWithLabel(label)) if (visibleNode(r, readIndex)?.labels.includes(label) === true) bits[r.id] = 1;
    const admitted = this.keep('label bitmap', bits.length, bits, [], () => {
      if (this.labelBitmaps.get(label) === bits) this.labelBitmaps.delete(label);
    });
    if (!admitted) return undefined;
    this.labelBitmaps.set(label, bits);
    return bits;
  }

  /** Records that carry (or once carried) `label`; a superset of the visible ones. */
  recordsWithLabel(label: string): ReadonlySet<NodeRecord> {
    return this.byLabel.get(label) ?? EMPTY_NODES;
  }

  recordsOfType(type: string): ReadonlySet<EdgeRecord> {
    return this.byEdgeType.get(type) ?? EMPTY_EDGES;
  }

  labels(): IterableIterator<string> {
    return this.byLabel.keys();
  }

  edgeTypes(): IterableIterator<string> {
    return this.byEdgeType.keys();
  }

  stats(): GraphStats {
    return { nodes: this.liveNodes, edges: this.liveEdges, label_counts: this.labelCounts, edge_type_counts: this.edgeTypeCounts };
  }

  /**
   * Per property key, the live nodes and relationships holding it as a reader at `readIndex` sees
   * them (keys in the order they first appeared, some with 0), when the catalog is exact for that
   * reader; undefined when a write newer than the reader makes it walk the records instead.
   */
  propertyKeyCounts(readIndex: number): ReadonlyMap<string, number> | undefined {
    return this.propertyKeys.at(readIndex);
  }

  /**
   * Whether `ops` can apply to the latest state (pending entries included). Checks run against a
   * small overlay so that later ops may refer to nodes the same batch creates or deletes.
   */
  checkOps(ops: readonly GraphOp[]): Refusal | undefined {
    const created = new Set<number>();
    const deletedNodes = new Set<number>();
    const createdEdges = new Map<number, { source: number; target: number }>();
    const deletedEdges = new Set<number>();
    const nodeLive = (id: number): boolean =>
      !deletedNodes.has(id) && (created.has(id) || this.latestNode(id) !== undefined);
    const edgeLive = (id: number): boolean =>
      !deletedEdges.has(id) && (createdEdges.has(id) || this.latestEdge(id) !== undefined);
    for (const op of ops) {
      switch (op.op) {
        case 'create_node':
          assert(this.nodeRecord(op.id) === undefined && !created.has(op.id), `node id ${op.id} allocated twice`);
          created.add(op.id);
          break;
        case 'update_node':
          if (!nodeLive(op.id)) return missing('node', op.id);
          break;
        case 'delete_node': {
          if (!nodeLive(op.id)) return missing('node', op.id);
          const rec = this.nodeRecord(op.id);
          const attached = rec === undefined ? [] : [...rec.out, ...rec.in].filter((e) => edgeLive(e.id));
          const attachedNew = [...createdEdges].filter(([id, e]) => !deletedEdges.has(id) && (e.source === op.id || e.target === op.id));
          if (attached.length + attachedNew.length > 0) {
            return {
              code: 'FAILED_PRECONDITION',
              reason: 'NODE_HAS_EDGES',
              message: `node ${op.id} still has ${attached.length + attachedNew.length} edge(s); delete them first or use DETACH DELETE`,
              metadata: { node_id: String(op.id) },
            };
          }
          deletedNodes.add(op.id);
          break;
        }
        case 'create_edge':
          assert(this.edgeRecord(op.id) === undefined && !createdEdges.has(op.id), `edge id ${op.id} allocated twice`);
          if (!nodeLive(op.source)) return missing('node', op.source);
          if (!nodeLive(op.target)) return missing('node', op.target);
          createdEdges.set(op.id, { source: op.source, target: op.target });
          break;
        case 'update_edge':
          if (!edgeLive(op.id)) return missing('edge', op.id);
          break;
        case 'delete_edge':
          if (!edgeLive(op.id)) return missing('edge', op.id);
          deletedEdges.add(op.id);
          break;
      }
    }
    return undefined;
  }

  /** Applies checked ops as entry `index` at `ts`. */
  applyOps(ops: readonly GraphOp[], index: number, ts: number, committed: boolean): void {
    const touched = committed ? undefined : { index, nodes: [] as NodeRecord[], edges: [] as EdgeRecord[] };
    for (const op of ops) {
      switch (op.op) {
        case 'create_node': {
          const record = new NodeRecord(op.id);
          while (this.nodes.length < op.id) this.nodes.push(undefined);
          this.nodes[op.id] = record;
          this.pushNode(record, index, ts, op.labels, new Map(op.props), false);
          touched?.nodes.push(record);
          break;
        }
        case 'update_node': {
          const record = this.nodeRecord(op.id)!;
          const current = record.head;
          const labels = applyLabelChange(current.labels, op.add_labels, op.remove_labels);
          const props = applyPropertyChange(current.props, op.set, op.replace);
          if (labels.some(this.temporalLabel)) {
            // A node that only now takes a temporal label starts its valid-time history here.
            const earlier = current.labels.some(this.temporalLabel) ? (current.earlier ?? []) : [];
            const valid = writeValidVersion(current.props, earlier, props);
            this.pushNode(record, index, ts, labels, valid.props, false, valid.earlier);
          } else this.pushNode(record, index, ts, labels, props, false);
          touched?.nodes.push(record);
          break;
        }
        case 'delete_node': {
          const record = this.nodeRecord(op.id)!;
          this.pushNode(record, index, ts, record.head.labels, record.head.props, true, record.head.earlier);
          touched?.nodes.push(record);
          break;
        }
        case 'create_edge': {
          const source = this.nodeRecord(op.source)!;
          const target = this.nodeRecord(op.target)!;
          const record = new EdgeRecord(op.id, op.type, source, target);
          while (this.edges.length < op.id) this.edges.push(undefined);
          this.edges[op.id] = record;
          source.out.push(record);
          target.in.push(record);
          addTo(this.byEdgeType, op.type, record);
          this.pushEdge(record, index, ts, new Map(op.props), false);
          touched?.edges.push(record);
          break;
        }
        case 'update_edge': {
          const record = this.edgeRecord(op.id)!;
          this.pushEdge(record, index, ts, applyPropertyChange(record.head.props, op.set, op.replace), false);
          touched?.edges.push(record);
          break;
        }
        case 'delete_edge': {
          const record = this.edgeRecord(op.id)!;
          this.pushEdge(record, index, ts, record.head.props, true);
          touched?.edges.push(record);
          break;
        }
      }
    }
    if (touched) this.undo.push(touched);
  }

  /**
   * Creates `count` nodes with ids from `first_id` for one entry (a bulk import): what applyOps does
   * for create_node ops, without an op object or a copied property map per node. The maps `propsOf`
   * returns become the versions' own and must not be changed after (no version's map ever is).
   */
  createNodes(
    first_id: number,
    count: number,
    labelsOf: (i: number) => readonly string[],
    propsOf: (i: number) => PropertyMap,
    index: number,
    ts: number,
    committed: boolean,
  ): void {
    const touched = committed ? undefined : { index, nodes: [] as NodeRecord[], edges: [] as EdgeRecord[] };
    while (this.nodes.length < first_id) this.nodes.push(undefined);
    // What pushNode does per version, done once for the entry: the cached columns and lists go, and
    // label counts are summed per label set (rows of one set share its array), not per node.
    if (count > 0) this.nodesWrittenAt(index);
    const perSet = new Map<readonly string[], number>();
    let members: Set<NodeRecord>[] = [];
    let membersOf: readonly string[] | undefined;
    for (let i = 0; i < count; i++) {
      const id = first_id + i;
      const record = new NodeRecord(id);
      this.nodes[id] = record;
      const labels = labelsOf(i);
      record.head = { id, ref: record.ref, record, index, ts, labels, props: propsOf(i), deleted: false, prev: undefined };
      if (labels !== membersOf) {
        membersOf = labels;
        members = labels.map((label) => setOf(this.byLabel, label));
      }
      for (const set of members) set.add(record);
      perSet.set(labels, (perSet.get(labels) ?? 0) + 1);
      this.propertyKeys.count(record.head.props, +1, index);
      touched?.nodes.push(record);
    }
    for (const [labels, n] of perSet) {
      this.countNode(labels, n);
      this.labelsWritten(labels, index);
    }
    if (touched) this.undo.push(touched);
  }

  /** Creates `count` edges with ids from `first_id` for one entry, as createNodes does for nodes. */
  createEdges(
    first_id: number,
    count: number,
    typeOf: (i: number) => string,
    sources: Float64Array,
    targets: Float64Array,
    propsOf: (i: number) => PropertyMap,
    index: number,
    ts: number,
    committed: boolean,
  ): void {
    const touched = committed ? undefined : { index, nodes: [] as NodeRecord[], edges: [] as EdgeRecord[] };
    while (this.edges.length < first_id) this.edges.push(undefined);
    // As createNodes: the per-type bookkeeping of pushEdge is done once per type run, not per edge.
    let type: string | undefined;
    let ofType: Set<EdgeRecord> = new Set();
    let run = 0;
    for (let i = 0; i < count; i++) {
      const source = this.nodeRecord(sources[i]!)!;
      const target = this.nodeRecord(targets[i]!)!;
      const t = typeOf(i);
      if (t !== type) {
        if (type !== undefined) this.countEdge(type, run);
        type = t;
        run = 0;
        ofType = setOf(this.byEdgeType, t);
        this.typeWrittenAt(t, index);
      }
      const id = first_id + i;
      const record = new EdgeRecord(id, t, source, target);
      this.edges[id] = record;
      ofType.add(record);
      record.head = { id, ref: record.ref, type: t, source: source.id, target: target.id, record, index, ts, props: propsOf(i), deleted: false, prev: undefined };
      this.propertyKeys.count(record.head.props, +1, index);
      run++;
      touched?.edges.push(record);
    }
    if (type !== undefined) this.countEdge(type, run);
    this.attach(first_id, count, sources, 'out');
    this.attach(first_id, count, targets, 'in');
    if (touched) this.undo.push(touched);
  }

  /**
   * Appends edges first_id .. first_id + count - 1 to their endpoints' lists (`ends` holds the source
   * or the target of each), node by node: a counting sort by endpoint, stable in edge id, gives the
   * same lists in the same order as pushing edge by edge, but writes each list in one run instead of
   * touching a random list per edge (several times faster on a large import).
   */
  private attach(first_id: number, count: number, ends: Float64Array, side: 'out' | 'in'): void {
    const nodes = this.nodes.length;
    // start[n] .. start[n + 1] - 1: the positions in `order` of node n's edges.
    const start = new Uint32Array(nodes + 1);
    for (let i = 0; i < count; i++) start[ends[i]! + 1]!++;
    for (let n = 1; n <= nodes; n++) start[n]! += start[n - 1]!;
    const next = start.slice(0, nodes);
    const order = new Uint32Array(count);
    for (let i = 0; i < count; i++) order[next[ends[i]!]!++] = i;
    for (let n = 1; n < nodes; n++) {
      const to = start[n + 1]!;
      if (start[n] === to) continue;
      const list = this.nodes[n]![side];
      for (let k = start[n]!; k < to; k++) list.push(this.edges[first_id + order[k]!]!);
    }
  }

  /**
   * Drops the records of nodes and edges deleted at or below the horizon: no reader can see them any
   * more, and a store that kept them would grow with every deletion and scan them forever. Ids are
   * not reused (`reserveIds`). Answers, for each node dropped, the labels its retained versions had,
   * so the indexes can forget it.
   */
  collect(): Map<number, readonly string[]> {
    if (this.unsorted) {
      sortFrom(this.nodeDeletions, this.nodesCollected);
      sortFrom(this.edgeDeletions, this.edgesCollected);
      this.unsorted = false;
    }
    const horizon = this.horizonIndex;
    const gone = new Set<EdgeRecord>();
    const ends = new Set<NodeRecord>();
    for (; this.edgesCollected < this.edgeDeletions.length; this.edgesCollected++) {
      const v = this.edgeDeletions[this.edgesCollected]!;
      if (v.index > horizon) break;
      const record = v.record;
      // An undone deletion is no longer the head; the edge lives on.
      if (record.head !== v) continue;
      this.edges[record.id] = undefined;
      this.byEdgeType.get(record.type)?.delete(record);
      gone.add(record);
      ends.add(record.source).add(record.target);
    }
    for (const node of ends) {
      keepOnly(node.out, gone);
      keepOnly(node.in, gone);
    }
    const dropped = new Map<number, readonly string[]>();
    for (; this.nodesCollected < this.nodeDeletions.length; this.nodesCollected++) {
      const v = this.nodeDeletions[this.nodesCollected]!;
      if (v.index > horizon) break;
      const record = v.record;
      if (record.head !== v) continue;
      this.nodes[record.id] = undefined;
      const labels = new Set<string>();
      for (let x: NodeVersion | undefined = v; x !== undefined; x = x.prev) for (const l of x.labels) labels.add(l);
      // A label the node lost before its pruned versions leaves it in that label's set; look in all.
      for (const set of this.byLabel.values()) set.delete(record);
      dropped.set(record.id, [...labels]);
    }
    compactQueue(this.nodeDeletions, this.nodesCollected, (n) => (this.nodesCollected = n));
    compactQueue(this.edgeDeletions, this.edgesCollected, (n) => (this.edgesCollected = n));
    return dropped;
  }

  /** Entries up to `index` committed: their versions can no longer be undone. */
  markCommitted(index: number): void {
    while (this.undo.length > 0 && this.undo[0]!.index <= index) this.undo.shift();
  }

  /** Undoes every pending entry after `index` (a leader that lost its term before they committed). */
  rollbackAfter(index: number): void {
    // What the undone entries superseded may picture them again, or not: every superseded form goes.
    for (const f of this.superseded.unreadable(undefined)) this.unkeep(f.form);
    this.undoing = true;
    try {
      while (this.undo.length > 0 && this.undo[this.undo.length - 1]!.index > index) {
        const { index: undone, nodes, edges } = this.undo.pop()!;
        for (const record of edges.reverse()) this.popEdge(record, undone);
        for (const record of nodes.reverse()) this.popNode(record, undone);
      }
    } finally {
      this.undoing = false;
    }
  }

  private latestNode(id: number): NodeVersion | undefined {
    const r = this.nodeRecord(id);
    return r === undefined ? undefined : visibleNode(r, Number.POSITIVE_INFINITY);
  }

  private latestEdge(id: number): EdgeVersion | undefined {
    const r = this.edgeRecord(id);
    return r === undefined ? undefined : visibleEdge(r, Number.POSITIVE_INFINITY);
  }

  private pushNode(
    record: NodeRecord,
    index: number,
    ts: number,
    labels: readonly string[],
    props: PropertyMap,
    deleted: boolean,
    earlier?: readonly PropertyMap[],
  ): void {
    const prev = record.head as NodeVersion | undefined;
    if (prev !== undefined && !prev.deleted) {
      this.countNode(prev.labels, -1);
      this.propertyKeys.count(prev.props, -1, index);
    }
    if (!deleted) {
      this.countNode(labels, +1);
      this.propertyKeys.count(props, +1, index);
    }
    for (const label of labels) addTo(this.byLabel, label, record);
    record.head = { id: record.id, ref: record.ref, record, index, ts, labels, props, deleted, prev, ...(earlier !== undefined && { earlier }) };
    this.nodesWrittenAt(index);
    if (deleted) this.nodeDeletions.push(record.head);
    this.labelsWritten(labels, index);
    if (prev !== undefined && prev.labels !== labels) this.labelsWritten(prev.labels, index);
    this.prune(record.head);
  }

  private pushEdge(record: EdgeRecord, index: number, ts: number, props: PropertyMap, deleted: boolean): void {
    const prev = record.head as EdgeVersion | undefined;
    if (prev !== undefined && !prev.deleted) {
      this.countEdge(record.type, -1);
      this.propertyKeys.count(prev.props, -1, index);
    }
    if (!deleted) {
      this.countEdge(record.type, +1);
      this.propertyKeys.count(props, +1, index);
    }
    record.head = { id: record.id, ref: record.ref, type: record.type, source: record.source.id, target: record.target.id, record, index, ts, props, deleted, prev };
    this.typeWrittenAt(record.type, index);
    if (deleted) this.edgeDeletions.push(record.head);
    this.prune(record.head);
  }

  private dropMembers(label: string): void {
    const members = this.memberLists.get(label);
    if (members === undefined) return;
    this.unkeep(members);
    this.memberLists.delete(label);
  }

  private labelsWritten(labels: readonly string[], index: number): void {
    for (const label of labels) {
      // A pending entry undone and written again reuses its index, so a list goes whatever the index.
      const members = this.memberLists.get(label);
      if (members !== undefined) {
        this.memberLists.delete(label);
        this.retire('label list', label, members, members.written, index);
      }
      if ((this.labelWritten.get(label) ?? 0) < index) this.labelWritten.set(label, index);
    }
  }

  /**
   * The first of `scans` written by an entry after `index`, or undefined: a label a node of which was
   * created, changed or deleted; an edge type an edge of which was; any node or edge at all for the
   * `all` scans. Entries undone and written again count too (a list only grows), which only errs
   * towards seeing a write.
   */
  writtenSince(scans: ScanSet, index: number): string | undefined {
    if (scans.all_nodes && this.nodesWritten > index) return 'any node';
    for (const label of scans.labels) if ((this.labelWritten.get(label) ?? 0) > index) return `label ${label}`;
    for (const [type, written] of this.typeWritten) {
      if (written > index && (scans.all_edges || scans.types.has(type))) return `relationship type ${type}`;
    }
    return undefined;
  }

  /** A node version at `index`: columns by id no longer picture the nodes. */
  private nodesWrittenAt(index: number): void {
    // A pending entry undone and written again reuses its index, so columns go whatever the index.
    for (const [key, column] of this.nodeColumns) this.retire('node column', key, column.values, column.written, index);
    this.nodeColumns.clear();
    // A bitmap pictures the nodes as of the last node write before this one.
    for (const [label, bits] of this.labelBitmaps) this.retire('label bitmap', label, bits, this.nodesWritten, index);
    this.labelBitmaps.clear();
    this.nodeColumnDemand.clear();
    if (this.nodesWritten < index) this.nodesWritten = index;
  }

  /** An edge version of `type` at `index`: the type's CSR no longer pictures its edges. */
  private typeWrittenAt(type: string, index: number): void {
    this.dropAdjacency(type, index);
    this.adjacencyDemand.delete(type);
    this.edgeColumnDemand.delete(type);
    if ((this.typeWritten.get(type) ?? 0) < index) this.typeWritten.set(type, index);
  }

  /** Drops the type's CSR and columns: superseded by a write at `until`, or (undefined) stale already. */
  private dropAdjacency(type: string, until?: number): void {
    const columns = this.edgeColumns.get(type);
    if (columns !== undefined) {
      for (const [key, column] of columns) {
        if (until === undefined) this.unkeep(column.values);
        else this.retire('edge column', edgeColumnKey(type, key), column.values, column.written, until);
      }
      this.edgeColumns.delete(type);
    }
    const kept = this.adjacencies.get(type);
    if (kept === undefined) return;
    if (until === undefined) this.unkeep(kept);
    else this.retire('csr', type, kept, kept.written, until);
    this.adjacencies.delete(type);
  }

  /**
   * A form built at `from` that the write at `until` made stale: kept for the readers pinned in between while
   * any may be, else released. Forms that no pinned reader can read any more go first.
   */
  private retire(kind: CachedFormKind, key: string, form: object, from: number, until: number): void {
    this.sweepSuperseded();
    const oldest = this.oldestPinned();
    if (!this.undoing && from < until && oldest !== undefined && oldest < until && this.cachedForms.get(form)?.live === true) {
      this.superseded.add({ kind, key, from, until, form });
    } else this.unkeep(form);
  }

  /** Releases the superseded forms no pinned reader can read any more (each write does; so does the host's horizon). */
  sweepSuperseded(): void {
    if (this.superseded.size === 0) return;
    for (const f of this.superseded.unreadable(this.oldestPinned())) this.unkeep(f.form);
  }

  /** The superseded form of `kind` and `key` a reader at `readIndex` sees exactly, marked used; undefined when none is kept. */
  private supersededFor<T extends object>(kind: CachedFormKind, key: string, readIndex: number): T | undefined {
    if (this.superseded.size === 0) return undefined;
    const form = this.superseded.find(kind, key, readIndex);
    return form === undefined ? undefined : this.used(form as T);
  }

  /**
   * Admits `form` (reached by readers also through `holds`) to the scan cache at `bytes`; `evict` removes it
   * from this store's maps when the cache drops it to make room. False when it does not fit.
   */
  private keep(kind: CachedFormKind, bytes: number, form: object, holds: readonly object[], evict: () => void): boolean {
    const entry = this.scanCache.admit(kind, bytes, [form, ...holds], () => {
      evict();
      this.superseded.forget(form);
    });
    if (entry === undefined) return false;
    this.cachedForms.set(form, entry);
    return true;
  }

  /** Releases the scan cache's entry of `form`: a write made it stale. */
  private unkeep(form: object): void {
    this.scanCache.release(this.cachedForms.get(form));
  }

  /** `form`, marked used in the scan cache (so it is among the last evicted). */
  private used<T extends object>(form: T): T {
    const entry = this.cachedForms.get(form);
    if (entry !== undefined) this.scanCache.use(entry);
    return form;
  }

  private popNode(record: NodeRecord, index: number): void {
    const head = record.head;
    this.nodesWrittenAt(index);
    assert(head.index === index, `undo of node ${record.id} out of order`);
    // A list built by the writer's view may hold the version undone here.
    for (const label of head.labels) this.dropMembers(label);
    if (head.prev !== undefined) for (const label of head.prev.labels) this.dropMembers(label);
    if (!head.deleted) {
      this.countNode(head.labels, -1);
      this.propertyKeys.count(head.props, -1, index);
    }
    if (head.prev === undefined) {
      this.nodes[record.id] = undefined;
      for (const label of head.labels) this.byLabel.get(label)?.delete(record);
      return;
    }
    record.head = head.prev;
    if (!record.head.deleted) {
      this.countNode(record.head.labels, +1);
      this.propertyKeys.count(record.head.props, +1, index);
    }
  }

  private popEdge(record: EdgeRecord, index: number): void {
    const head = record.head;
    this.typeWrittenAt(record.type, index);
    assert(head.index === index, `undo of edge ${record.id} out of order`);
    if (!head.deleted) {
      this.countEdge(record.type, -1);
      this.propertyKeys.count(head.props, -1, index);
    }
    if (head.prev === undefined) {
      this.edges[record.id] = undefined;
      removeFrom(record.source.out, record);
      removeFrom(record.target.in, record);
      this.byEdgeType.get(record.type)?.delete(record);
      return;
    }
    record.head = head.prev;
    if (!record.head.deleted) {
      this.countEdge(record.type, +1);
      this.propertyKeys.count(record.head.props, +1, index);
    }
  }

  /** Drops versions no reader can reach: everything older than the newest one at or below the horizon. */
  private prune<V extends { readonly index: number; prev: V | undefined }>(head: V): void {
    for (let v: V = head; v.prev !== undefined; v = v.prev) {
      if (v.index <= this.horizonIndex) {
        v.prev = undefined;
        return;
      }
    }
  }

  private countNode(labels: readonly string[], delta: number): void {
    this.liveNodes += delta;
    for (const label of labels) this.labelCounts.set(label, (this.labelCounts.get(label) ?? 0) + delta);
  }

  private countEdge(type: string, delta: number): void {
    this.liveEdges += delta;
    this.edgeTypeCounts.set(type, (this.edgeTypeCounts.get(type) ?? 0) + delta);
  }

  /** Restores a record set from a checkpoint (versions oldest first per record). */
  restoreNode(id: number, versions: readonly Pick<NodeVersion, 'index' | 'ts' | 'labels' | 'props' | 'deleted' | 'earlier'>[]): void {
    const record = new NodeRecord(id);
    while (this.nodes.length < id) this.nodes.push(undefined);
    this.nodes[id] = record;
    for (const v of versions) this.pushNode(record, v.index, v.ts, v.labels, v.props, v.deleted, v.earlier);
    this.unsorted ||= record.head.deleted;
  }

  restoreEdge(id: number, type: string, source: number, target: number, versions: readonly Pick<EdgeVersion, 'index' | 'ts' | 'props' | 'deleted'>[]): void {
    const s = this.nodeRecord(source);
    const t = this.nodeRecord(target);
    assert(s !== undefined && t !== undefined, `checkpoint edge ${id} has no endpoints`);
    const record = new EdgeRecord(id, type, s, t);
    while (this.edges.length < id) this.edges.push(undefined);
    this.edges[id] = record;
    s.out.push(record);
    t.in.push(record);
    addTo(this.byEdgeType, type, record);
    for (const v of versions) this.pushEdge(record, v.index, v.ts, v.props, v.deleted);
    this.unsorted ||= record.head.deleted;
  }

  /** Keeps id allocation past ids that were used and then collected away. */
  reserveIds(nextNodeId: number, nextEdgeId: number): void {
    while (this.nodes.length < nextNodeId) this.nodes.push(undefined);
    while (this.edges.length < nextEdgeId) this.edges.push(undefined);
  }
}

/** A CSR is built once record-by-record walks since the last write reach 1/this of the type's edges. */
const ADJACENCY_DEMAND_SHARE = 4;

/**
 * Bytes V8 gives a BigInt of one 64-bit digit (a map, a length word and the digit): what a node column's copy of
 * an INTEGER holds beside its slot. Larger INTEGERs are rare in a column, and counted at this.
 */
const BIGINT_COPY_BYTES = 24;

/** The key a relationship column is kept under among superseded forms. */
function edgeColumnKey(type: string, key: string): string {
  return `${type}\u0000${key}`;
}

/** The least the scan cache holds when its size is the graph's (`scan_cache_mb` unset). */
export const SCAN_CACHE_FLOOR_BYTES = 256 * 1024 * 1024;
/**
 * Bytes per node and per relationship id slot when the scan cache is sized by the graph: room for a CSR (offsets
 * and a reference per node, ids and ends per relationship), a few node columns and bitmaps, and two relationship
 * properties by id, typed and in adjacency order both ways (see docs/query-engine.md, "Scan cache").
 */
export const SCAN_CACHE_NODE_SLOT_BYTES = 128;
export const SCAN_CACHE_EDGE_SLOT_BYTES = 96;

/** The scan cache's size by the graph's id bounds. */
export function scanCacheAutoBytes(node_id_bound: number, edge_id_bound: number): number {
  return Math.max(SCAN_CACHE_FLOOR_BYTES, SCAN_CACHE_NODE_SLOT_BYTES * node_id_bound + SCAN_CACHE_EDGE_SLOT_BYTES * edge_id_bound);
}
/** A column by id is built once reads by id since the last node write reach 1/this of the nodes. */
const NODE_COLUMN_DEMAND_SHARE = 8;

const EMPTY_NODES: ReadonlySet<NodeRecord> = new Set();
const EMPTY_EDGES: ReadonlySet<EdgeRecord> = new Set();

function missing(what: 'node' | 'edge', id: number): Refusal {
  return { code: 'NOT_FOUND', reason: '', message: `${what} ${id} does not exist`, metadata: { [`${what}_id`]: String(id) } };
}

function applyLabelChange(labels: readonly string[], add: readonly string[], remove: readonly string[]): readonly string[] {
  if (add.length === 0 && remove.length === 0) return labels;
  const out = labels.filter((l) => !remove.includes(l));
  for (const l of add) if (!out.includes(l)) out.push(l);
  return out;
}

function applyPropertyChange(
  props: PropertyMap,
  set: readonly (readonly [string, PropertyValue | null])[],
  replace: boolean,
): PropertyMap {
  const out = replace ? new Map<string, PropertyValue>() : new Map(props);
  for (const [key, value] of set) {
    if (value === null) out.delete(key);
    else out.set(key, value);
  }
  return out;
}

function addTo<T>(index: Map<string, Set<T>>, key: string, value: T): void {
  setOf(index, key).add(value);
}

function setOf<T>(index: Map<string, Set<T>>, key: string): Set<T> {
  let set = index.get(key);
  if (set === undefined) index.set(key, (set = new Set()));
  return set;
}

/** Removes from `list`, in place and in one pass, the edges in `gone`. */
function keepOnly(list: EdgeRecord[], gone: ReadonlySet<EdgeRecord>): void {
  let w = 0;
  for (const e of list) if (!gone.has(e)) list[w++] = e;
  list.length = w;
}

function sortFrom<V extends { readonly index: number }>(queue: V[], from: number): void {
  const rest = queue.splice(from).sort((a, b) => a.index - b.index);
  for (const v of rest) queue.push(v);
}

/** Drops the consumed front of a deletion queue once it is most of the array. */
function compactQueue<V>(queue: V[], consumed: number, setConsumed: (n: number) => void): void {
  if (consumed < 1024 || consumed * 2 < queue.length) return;
  queue.splice(0, consumed);
  setConsumed(0);
}

function removeFrom<T>(list: T[], value: T): void {
  const i = list.lastIndexOf(value);
  if (i >= 0) list.splice(i, 1);
}
