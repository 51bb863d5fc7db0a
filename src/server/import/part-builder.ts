import type { PropertyValue } from '../../common/property-value.js';
import type { BulkColumn, BulkLoad } from '../../log/events.js';
import { bytesOf } from '../../projections/bulk/bulk-columns.js';

/**
 * One part of a bulk import being filled: nodes and edges in columns (typed arrays for ids, labels
 * and types; one array per property key), never one object per row. `toEvent` makes the log entry.
 */
export class PartBuilder {
  nodeCount = 0;
  edgeCount = 0;
  /** A rough size of the entry, in bytes, so a part stays far below the log's entry limit. */
  estimatedBytes = 0;
  private readonly labelSets: (readonly string[])[] = [];
  private readonly labelSetIndex = new Map<string, number>();
  /** The label set of the last node added, by identity: rows of one file mostly share one array. */
  private lastLabels: readonly string[] | undefined;
  private lastLabelSet = 0;
  private labelSetOf = new Uint32Array(1024);
  private readonly nodeColumns = new Map<string, (PropertyValue | null)[]>();
  private readonly types: string[] = [];
  private readonly typeIndex = new Map<string, number>();
  private typeOf = new Uint32Array(1024);
  private sources = new Float64Array(1024);
  private targets = new Float64Array(1024);
  private readonly edgeColumns = new Map<string, (PropertyValue | null)[]>();

  constructor(
    /** The id of this part's first node; its nodes' ids follow without gaps. */
    readonly firstNodeId: number,
    readonly firstEdgeId: number,
  ) {}

  get rows(): number {
    return this.nodeCount + this.edgeCount;
  }

  /** Adds a node; it takes id firstNodeId + (nodes added before). `labels` must be sorted and distinct. */
  addNode(labels: readonly string[], props: readonly (readonly [string, PropertyValue])[]): number {
    const row = this.nodeCount++;
    if (row === this.labelSetOf.length) this.labelSetOf = growU32(this.labelSetOf);
    if (labels !== this.lastLabels) {
      const key = labels.join('\u0000');
      let set = this.labelSetIndex.get(key);
      if (set === undefined) {
        set = this.labelSets.length;
        this.labelSets.push(labels);
        this.labelSetIndex.set(key, set);
      }
      this.lastLabels = labels;
      this.lastLabelSet = set;
    }
    this.labelSetOf[row] = this.lastLabelSet;
    this.estimatedBytes += 4;
    for (const [k, v] of props) setCell(this.nodeColumns, k, row, v, this);
    return this.firstNodeId + row;
  }

  addEdge(type: string, source: number, target: number, props: readonly (readonly [string, PropertyValue])[]): number {
    const row = this.edgeCount++;
    if (row === this.typeOf.length) {
      this.typeOf = growU32(this.typeOf);
      this.sources = growF64(this.sources);
      this.targets = growF64(this.targets);
    }
    let t = this.typeIndex.get(type);
    if (t === undefined) {
      t = this.types.length;
      this.types.push(type);
      this.typeIndex.set(type, t);
    }
    this.typeOf[row] = t;
    this.sources[row] = source;
    this.targets[row] = target;
    this.estimatedBytes += 20;
    for (const [k, v] of props) setCell(this.edgeColumns, k, row, v, this);
    return this.firstEdgeId + row;
  }

  toEvent(load: Uint8Array, part: number, last: boolean): BulkLoad {
    return {
      kind: 'bulk_load',
      load,
      part,
      last,
      nodes: {
        first_id: this.firstNodeId,
        count: this.nodeCount,
        label_sets: this.labelSets,
        label_set_of: bytesOf(this.labelSetOf.subarray(0, this.nodeCount)),
        columns: columnsOf(this.nodeColumns, this.nodeCount),
      },
      edges: {
        first_id: this.firstEdgeId,
        count: this.edgeCount,
        types: this.types,
        type_of: bytesOf(this.typeOf.subarray(0, this.edgeCount)),
        sources: bytesOf(this.sources.subarray(0, this.edgeCount)),
        targets: bytesOf(this.targets.subarray(0, this.edgeCount)),
        columns: columnsOf(this.edgeColumns, this.edgeCount),
      },
    };
  }
}

/** Sets row's cell of column `key`; rows before it that had no value hold null. */
function setCell(columns: Map<string, (PropertyValue | null)[]>, key: string, row: number, v: PropertyValue, part: PartBuilder): void {
  let col = columns.get(key);
  if (col === undefined) columns.set(key, (col = []));
  while (col.length < row) col.push(null);
  col.push(v);
  part.estimatedBytes += typeof v === 'string' ? v.length + 5 : 10;
}

function columnsOf(columns: Map<string, (PropertyValue | null)[]>, rows: number): BulkColumn[] {
  const out: BulkColumn[] = [];
  for (const [key, values] of columns) {
    while (values.length < rows) values.push(null);
    out.push({ key, values });
  }
  return out;
}

function growU32(a: Uint32Array): Uint32Array<ArrayBuffer> {
  const b = new Uint32Array(a.length * 2);
  b.set(a);
  return b;
}

function growF64(a: Float64Array): Float64Array<ArrayBuffer> {
  const b = new Float64Array(a.length * 2);
  b.set(a);
  return b;
}
