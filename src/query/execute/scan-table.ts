import type { Value } from '../../common/values/value.js';
import type { NodeState } from '../../projections/graph/records.js';
import type { SnapshotView } from '../../projections/graph/view.js';
import type { PropertyPredicate } from '../plan/logical.js';
import { freeSlots } from '../plan/expressions.js';
import type { Deadline, MemoryBudget } from './budget.js';
import { typedCandidates } from './batch/scan-candidates.js';
import { propertyEquals } from './read-ops.js';

/**
 * A label scan whose inline equality takes its value from the row (`MATCH (a:Person) ... MATCH (b:Person)
 * WHERE b.city = a.city`) is a join on a property. As a nested loop it reads the whole label once per
 * input row. Over a committed snapshot, which cannot change while the statement runs, the scan instead
 * reads the label once, on its second run, into a table from the joined property's value to the nodes that
 * hold it and pass the scan's equalities on literals and parameters, in scan order. Each later run walks
 * only its bucket, and the scan still checks every equality on each node it walks, so the rows, their order
 * and any error are the nested loop's. The first run scans as before: a scan run once costs no table.
 */

/**
 * The key two values share whenever Cypher's `=` can hold between them: a string, a boolean, or a number
 * (an INTEGER as its nearest double, so equal INTEGERs and FLOATs meet in one bucket; values that share a
 * key but differ are told apart by the scan's own check). Undefined for every other kind of value.
 */
export type BucketKey = string | number | boolean;

export function bucketKey(v: Value): BucketKey | undefined {
  switch (typeof v) {
    case 'string':
    case 'boolean':
    case 'number':
      return v;
    case 'bigint':
      return Number(v);
    default:
      return undefined;
  }
}

/** Runs of a scan before its table is built: the first run scans the label as it always did. */
const scan_runs_before_table = 1;
/** Bytes a node in a bucket costs (its slot in an array), and a bucket beyond its nodes. */
const bucket_entry_bytes = 8;
const bucket_overhead_bytes = 64;

const EMPTY: readonly NodeState[] = [];

/** Whether `=` between two values with this key is true whenever their keys are equal (no NaN, no INTEGER a double rounds). */
function exactKey(v: Value): boolean {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return !Number.isNaN(v);
    case 'bigint':
      return v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= -BigInt(Number.MAX_SAFE_INTEGER);
    default:
      return false;
  }
}

export class ScanTable {
  private runs = 0;
  private table: Map<BucketKey, NodeState[]> | undefined;
  /** Keys of buckets holding a value whose key does not decide `=` (NaN, an INTEGER beyond 2^53). */
  private readonly inexact = new Set<BucketKey>();
  /**
   * Set by each `candidates` that returns a bucket: true when every node of the bucket is known to pass
   * every equality of the scan for that run (the joined one by an exact key, the shared ones at the
   * build, and there are no others), so the scan need not check them again.
   */
  checked = false;

  private constructor(
    private readonly snapshot: SnapshotView,
    private readonly label: string,
    private readonly keys: readonly string[],
    /** The equality whose value the row gives: its position in `keys`. */
    private readonly joined: number,
    /** Positions in `keys` of equalities on literals and parameters, which every run shares. */
    private readonly shared: readonly number[],
    private readonly deadline: Deadline,
    private readonly memory: MemoryBudget,
  ) {}

  /**
   * A table for a scan of `label` with inline equalities `props`, when one of them reads the row and
   * the scan reads a committed snapshot; undefined otherwise (the scan stays a nested loop).
   */
  static forScan(
    snapshot: SnapshotView | undefined,
    label: string | undefined,
    props: readonly PropertyPredicate[],
    deadline: Deadline,
    memory: MemoryBudget,
  ): ScanTable | undefined {
    if (snapshot === undefined || label === undefined) return undefined;
    const joined = props.findIndex((p) => freeSlots(p.value).size > 0);
    if (joined < 0) return undefined;
    const shared: number[] = [];
    props.forEach((p, i) => {
      if (p.value.kind === 'literal' || p.value.kind === 'parameter') shared.push(i);
    });
    return new ScanTable(snapshot, label, props.map((p) => p.key), joined, shared, deadline, memory);
  }

  /**
   * The nodes this run of the scan needs to check, given the values of its equalities for the row; undefined
   * when the run must read the whole label (its first run, or a joined value no bucket can hold).
   */
  candidates(wanted: readonly Value[]): readonly NodeState[] | undefined {
    if (this.runs < scan_runs_before_table) {
      this.runs++;
      return undefined;
    }
    const value = wanted[this.joined] as Value;
    // A comparison with null is null: no node passes.
    if (value === null) {
      this.checked = true;
      return EMPTY;
    }
    const key = bucketKey(value);
    if (key === undefined) return undefined;
    const table = this.table ?? this.build(wanted);
    this.checked = this.shared.length + 1 === this.keys.length && exactKey(value) && !this.inexact.has(key);
    return table.get(key) ?? EMPTY;
  }

  private build(wanted: readonly Value[]): Map<BucketKey, NodeState[]> {
    const table = new Map<BucketKey, NodeState[]>();
    const { keys, shared, deadline } = this;
    const joinedKey = keys[this.joined] as string;
    let entries = 0;
    const add = (node: NodeState): boolean => {
      deadline.tick();
      for (const i of shared) if (!propertyEquals(node.props.get(keys[i] as string), wanted[i] as Value)) return true;
      const v = node.props.get(joinedKey);
      const key = v === undefined ? undefined : bucketKey(v);
      if (key === undefined) return true;
      if (!exactKey(v as Value)) this.inexact.add(key);
      const bucket = table.get(key);
      if (bucket === undefined) table.set(key, [node]);
      else bucket.push(node);
      entries++;
      return true;
    };
    // The shared equalities on typed columns pick the members to read (each is still checked as above);
    // the kept list is the label's nodes in scan order, so the buckets keep that order either way.
    const members = this.snapshot.keptMembers(this.label);
    const picked =
      members === undefined
        ? undefined
        : typedCandidates(
            members,
            shared.map((i) => ({ column: this.snapshot.nodeColumn(keys[i] as string, members.nodes.length), wanted: wanted[i] as Value })),
          );
    if (members !== undefined && picked !== undefined) {
      for (let j = 0; j < picked.length; j++) add(members.nodes[picked.positions[j] as number] as NodeState);
    } else this.snapshot.forEachNode(this.label, add);
    // Held until the statement ends, like the other operators' tables.
    this.memory.reserve(entries * bucket_entry_bytes + table.size * bucket_overhead_bytes);
    this.table = table;
    return table;
  }
}
