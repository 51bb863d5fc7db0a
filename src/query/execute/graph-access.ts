import { edgeElementId, encodeElementId } from '../../common/element-id.js';
import { nodeRef, type NodeRef, type RelationshipRef, type Value } from '../../common/values/value.js';
import type { EdgeState, LabelMembers, NodeState } from '../../projections/graph/records.js';
import { SnapshotView, type GraphReader } from '../../projections/graph/view.js';
import type { WriteSet } from '../../projections/graph/write-set.js';
import type { ReadLens } from '../../projections/graph/read-lens.js';
import { CypherError } from '../errors.js';
import type { FunctionContext, TemporalClock } from '../functions/context.js';

/**
 * How many reads of a property (or tests of a label) by node id an evaluator makes between asks for
 * the whole column (or bitmap): the store builds one once the asks add up to a share of the nodes.
 */
export const COLUMN_ASK_READS = 1024;

/**
 * Reads of nodes and relationships by reference, as expressions need them. A reference to an entity
 * the statement deleted fails with EntityNotFound/DeletedEntityAccess; one the snapshot does not hold
 * (a value carried from elsewhere) reads as having no labels and no properties.
 */
export class GraphAccess {
  /**
   * The node a scan produced last. Reads of the current row's properties then skip the lookup by id.
   * Only read-only statements use it: in a write statement a node's state changes under the scan.
   */
  private recent: NodeState | undefined;
  /**
   * When the scan reads a kept list of its label: the list and the node's position in it, so reads
   * of the node's properties can come from the list's columns (see `scannedColumn`).
   */
  private recentMembers: LabelMembers | undefined;
  private recentPosition = 0;
  readonly cacheable: boolean;

  constructor(
    readonly graph: GraphReader,
    private readonly writes: WriteSet | undefined,
    /**
     * Applied to every node a statement that writes reads (ExecuteContext.write_lens); a node it
     * would hide (created already expired) still reads as stored, since the statement wrote it.
     */
    private readonly lens?: ReadLens,
  ) {
    this.cacheable = writes === undefined;
  }

  /** Called by scans of read-only statements with the node they are about to emit. */
  scanned(node: NodeState, members?: LabelMembers, position?: number): void {
    this.recent = node;
    this.recentMembers = members;
    this.recentPosition = position ?? 0;
  }

  /**
   * The kept list the node with id `id` was just scanned from, with its position; undefined when it
   * is not the node the scan produced last or the scan read no list.
   */
  scannedFrom(id: number): LabelMembers | undefined {
    const r = this.recent;
    return r !== undefined && r.id === id ? this.recentMembers : undefined;
  }

  get scannedPosition(): number {
    return this.recentPosition;
  }

  /**
   * Nodes a CURRENT vector search found that the reader does not see (written after its snapshot):
   * reads of them answer from the state the search found.
   */
  private adopted: Map<number, NodeState> | undefined;

  adopt(node: NodeState): void {
    (this.adopted ??= new Map()).set(node.id, node);
  }

  node(id: number): NodeState | undefined {
    const r = this.recent;
    if (r !== undefined && r.id === id) return r;
    const n = this.graph.node(id) ?? this.adopted?.get(id);
    if (n === undefined && this.writes?.isNodeDeleted(id) === true) throw deletedAccess('node', id);
    return n === undefined || this.lens === undefined ? n : (this.lens.node(n) ?? n);
  }

  edge(id: number): EdgeState | undefined {
    const e = this.graph.edge(id);
    if (e === undefined && this.writes?.isEdgeDeleted(id) === true) throw deletedAccess('relationship', id);
    return e;
  }

  /**
   * Every node's stored `key` by node id, for read-only statements over a committed snapshot whose
   * nodes no write has changed since the column was built (GraphStore.nodeColumn); `reads` is how
   * many reads by id the caller made since it last asked.
   */
  nodeColumn(key: string, reads: number): readonly (Value | undefined)[] | undefined {
    return this.cacheable && this.graph instanceof SnapshotView ? this.graph.nodeColumn(key, reads) : undefined;
  }

  /** The stored `key` of every edge of `type` by edge id, on the same terms as `nodeColumn` (GraphStore.edgeColumn). */
  edgeColumn(type: string, key: string, reads: number): readonly (Value | undefined)[] | undefined {
    return this.cacheable && this.graph instanceof SnapshotView ? this.graph.edgeColumn(type, key, reads) : undefined;
  }

  /** Which nodes have `label`, by id, on the same terms as `nodeColumn`. */
  labelBitmap(label: string, reads: number): Uint8Array | undefined {
    return this.cacheable && this.graph instanceof SnapshotView ? this.graph.labelBitmap(label, reads) : undefined;
  }

  /** `n.key` for the node with id `id`. */
  nodeProperty(id: number, key: string): Value {
    return this.node(id)?.props.get(key) ?? null;
  }

  /** `n.key` for a node or relationship reference. */
  property(entity: NodeRef | RelationshipRef, key: string): Value {
    const s = entity.kind === 'node' ? this.node(entity.id) : this.edge(entity.id);
    if (s === undefined) return null;
    return s.props.get(key) ?? null;
  }

  /** A relationship's type; still known after this statement deleted the relationship. */
  relationshipType(id: number): string {
    const deleted = this.writes?.deletedEdgeType(id);
    if (deleted !== undefined) return deleted;
    return this.edge(id)?.type ?? '';
  }

  /** Whether a node was deleted by this statement (reading its labels is then an error too). */
  isDeleted(entity: NodeRef | RelationshipRef): boolean {
    if (this.writes === undefined) return false;
    return entity.kind === 'node' ? this.writes.isNodeDeleted(entity.id) : this.writes.isEdgeDeleted(entity.id);
  }
}

function deletedAccess(what: string, id: number): CypherError {
  return new CypherError('EntityNotFound', 'runtime', 'DeletedEntityAccess', `the ${what} ${id} was deleted by this statement`);
}

const EMPTY: ReadonlyMap<string, Value> = new Map();


export interface FunctionContextOptions {
  readonly clock: TemporalClock;
  readonly defaultTimeZone: string;
  readonly random: () => number;
}

/** The function library's view of the graph for one statement. */
export function functionContext(access: GraphAccess, options: FunctionContextOptions): FunctionContext {
  return {
    labelsOf: (n) => access.node(n.id)?.labels ?? [],
    typeOf: (r) => access.relationshipType(r.id),
    propertiesOf: (x) => (x.kind === 'node' ? access.node(x.id)?.props : access.edge(x.id)?.props) ?? EMPTY,
    startNodeOf: (r) => nodeRef(access.edge(r.id)?.source ?? -1),
    endNodeOf: (r) => nodeRef(access.edge(r.id)?.target ?? -1),
    elementIdOf: (x) => {
      if (x.kind === 'node') return encodeElementId(x.id);
      const e = access.edge(x.id);
      return e === undefined ? encodeElementId(x.id) : edgeElementId(e);
    },
    clock: options.clock,
    defaultTimeZone: options.defaultTimeZone,
    random: options.random,
    loadCsv: { line: null, file: null },
  };
}
