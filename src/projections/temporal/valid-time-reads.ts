import type { Catalog } from '../catalog/catalog.js';
import type { ReadLens } from '../graph/read-lens.js';
import type { EdgeState, NodeState } from '../graph/records.js';
import { edgeAt, validFromMicros, versionAt } from './valid-time.js';

/**
 * Temporal labels and edge types read at one valid time (docs/temporal.md): a node of a temporal
 * label shows the version whose interval holds that instant and is hidden when none does; an edge of
 * a temporal type shows when its interval holds it. Other records pass unchanged.
 */
export class ValidTimeReads implements ReadLens {
  private constructor(
    private readonly labels: ReadonlySet<string>,
    /** Temporal edge types; true where edges are told apart by valid_from alone (no discriminator). */
    private readonly types: ReadonlyMap<string, boolean>,
    /** The valid time read at, epoch microseconds. */
    readonly valid_us: number,
  ) {}

  /** Undefined when nothing is temporal: readers then take their fast paths. */
  static of(catalog: Catalog, valid_us: number): ValidTimeReads | undefined {
    const labels = new Set<string>();
    for (const def of catalog.labels.values()) if (def.temporal) labels.add(def.name);
    const types = new Map<string, boolean>();
    for (const def of catalog.edgeTypes.values()) if (def.temporal) types.set(def.name, def.discriminator === '');
    return labels.size === 0 && types.size === 0 ? undefined : new ValidTimeReads(labels, types, valid_us);
  }

  node<N extends NodeState>(node: N): N | undefined {
    if (this.labels.size === 0 || !node.labels.some((l) => this.labels.has(l))) return node;
    const props = versionAt(node.props, node.earlier ?? [], this.valid_us);
    if (props === undefined) return undefined;
    return props === node.props ? node : { ...node, props };
  }

  edge(edge: EdgeState, siblings: () => Iterable<EdgeState>): EdgeState | undefined {
    const chained = this.types.get(edge.type);
    if (chained === undefined) return edge;
    let next_us = Number.POSITIVE_INFINITY;
    if (chained) {
      // Without a discriminator, the edges of a pair are versions of one fact: each ends where the next starts.
      const from = validFromMicros(edge.props);
      for (const s of siblings()) {
        const f = validFromMicros(s.props);
        if (f > from && f < next_us) next_us = f;
      }
    }
    const props = edgeAt(edge.props, next_us, this.valid_us);
    if (props === undefined) return undefined;
    return props === edge.props ? edge : { ...edge, props };
  }
}
