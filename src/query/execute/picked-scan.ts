import type { Value } from '../../common/values/value.js';
import type { LabelMembers } from '../../projections/graph/records.js';
import type { SnapshotView } from '../../projections/graph/view.js';
import { typedCandidates, type Candidates } from './batch/scan-candidates.js';
import type { GraphAccess } from './graph-access.js';

/**
 * A row-at-a-time label scan with inline equalities (`MATCH (b:Person) WHERE b.age = 18`, nested under
 * another scan, in OPTIONAL MATCH, after WITH) over a committed snapshot whose kept list of the label
 * exists: the members whose typed columns pass the equalities are picked first (scan-candidates.ts), and
 * the scan reads only those, in list order, checking every equality on each as it always does. A scan
 * that runs once per input row with the same wanted values (literals, parameters) picks once.
 */
export interface Picked {
  readonly members: LabelMembers;
  readonly candidates: Candidates;
}

export class PickedMembers {
  private last: { readonly members: LabelMembers; readonly wanted: readonly Value[]; readonly picked: Picked | undefined } | undefined;

  constructor(
    private readonly snapshot: SnapshotView,
    private readonly label: string,
    private readonly keys: readonly string[],
    private readonly access: GraphAccess,
  ) {}

  /** The picked members for this run's wanted values; undefined when the scan reads the label as before. */
  pick(wanted: readonly Value[]): Picked | undefined {
    const members = this.snapshot.keptMembers(this.label);
    if (members === undefined) return undefined;
    const last = this.last;
    if (last !== undefined && last.members === members && sameValues(last.wanted, wanted)) return last.picked;
    const n = members.nodes.length;
    const candidates = typedCandidates(
      members,
      this.keys.map((key, i) => ({ column: this.access.nodeColumn(key, n), wanted: wanted[i] as Value })),
    );
    const picked = candidates === undefined ? undefined : { members, candidates };
    this.last = { members, wanted: wanted.slice(), picked };
    return picked;
  }
}

/** Identical primitives (bigints and strings by value); anything else is not reused. */
function sameValues(a: readonly Value[], b: readonly Value[]): boolean {
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    if (x !== b[i] || (x !== null && typeof x === 'object')) return false;
  }
  return true;
}
