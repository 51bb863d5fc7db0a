import { assertNever } from '../../common/assert.js';
import type { PropertyValue } from '../../common/property-value.js';
import { DateTimeValue } from '../../common/values/index.js';
import type { ComputedPropertySpec } from '../../log/events.js';
import type { Catalog } from '../catalog/catalog.js';
import type { ReadLens } from '../graph/read-lens.js';
import type { EdgeState, NodeState } from '../graph/records.js';
import { decayValue, vectorDecayMultiplier } from './decay.js';

/**
 * Computed properties as a reader sees them at one read time (SPEC 2.4): DECAY and VECTOR_DECAY
 * values evaluated from the anchor TIMESTAMP, and TTL expiry applied at once, before the expiry
 * entry reaches the log: a NODE-scoped expired node is invisible (its edges with it), a FIELD- or
 * SUBTREE-scoped one loses the property. A TTL property reads as its expiry instant (UTC).
 * Nothing here reads a clock: the read time is given.
 */
const micros_per_day = 86_400_000_000;

/** Epoch microseconds of a TIMESTAMP value; undefined for anything else. */
export function instantMicros(v: PropertyValue | undefined): number | undefined {
  if (!(v instanceof DateTimeValue)) return undefined;
  return v.utcEpochDay * micros_per_day + Math.floor(v.utcNanoOfDay / 1000);
}

export function instantOfMicros(us: number): DateTimeValue {
  const day = Math.floor(us / micros_per_day);
  return new DateTimeValue(day, (us - day * micros_per_day) * 1000, 0, null);
}

/** When a TTL of `spec` expires for a node with this anchor, in epoch microseconds. */
export function expiryMicros(spec: ComputedPropertySpec, anchor_us: number): number {
  return anchor_us + spec.duration_secs * 1_000_000;
}

export class ComputedReads implements ReadLens {
  private constructor(
    /** Computed properties by label; only labels that declare some. */
    private readonly byLabel: ReadonlyMap<string, readonly ComputedPropertySpec[]>,
    /** Epoch microseconds the values are evaluated at. */
    readonly read_ts_us: number,
  ) {}

  /** Undefined when no label declares a computed property: readers then take their fast paths. */
  static of(catalog: Catalog, read_ts_us: number): ComputedReads | undefined {
    const byLabel = new Map<string, readonly ComputedPropertySpec[]>();
    for (const def of catalog.labels.values()) if (def.computed.length > 0) byLabel.set(def.name, def.computed);
    return byLabel.size === 0 ? undefined : new ComputedReads(byLabel, read_ts_us);
  }

  affects(label: string): boolean {
    return this.byLabel.has(label);
  }

  /** Edges carry no computed properties; one hidden with an expired end is the reader's to drop. */
  edge(edge: EdgeState): EdgeState {
    return edge;
  }

  /** The node as read at `read_ts_us`, or undefined when a NODE-scoped TTL has expired it. */
  node<N extends NodeState>(node: N): N | undefined {
    let specs: ComputedPropertySpec[] | undefined;
    for (const label of node.labels) {
      const own = this.byLabel.get(label);
      if (own !== undefined) (specs ??= []).push(...own);
    }
    if (specs === undefined) return node;
    const props = new Map(node.props);
    for (const spec of specs) {
      const anchor = instantMicros(node.props.get(spec.anchor_field));
      if (anchor === undefined) {
        props.delete(spec.name);
        continue;
      }
      const elapsed_secs = (this.read_ts_us - anchor) / 1_000_000;
      switch (spec.computed_type) {
        case 'DECAY':
          props.set(spec.name, decayValue(spec, elapsed_secs));
          break;
        case 'VECTOR_DECAY':
          props.set(spec.name, vectorDecayMultiplier(spec, elapsed_secs));
          break;
        case 'TTL': {
          const expiry = expiryMicros(spec, anchor);
          if (expiry > this.read_ts_us) {
            props.set(spec.name, instantOfMicros(expiry));
            break;
          }
          if (spec.scope === 'NODE') return undefined;
          props.delete(spec.name);
          props.delete(spec.scope === 'FIELD' ? spec.anchor_field : spec.target_field);
          break;
        }
        default:
          return assertNever(spec.computed_type, 'computed type');
      }
    }
    return { ...node, props };
  }
}
