import type { EdgeState, NodeState } from './records.js';

/**
 * How a reader shows stored records at its read time: computed properties evaluated, a temporal
 * node's valid version chosen, records hidden that the read time does not see (an expired TTL, a
 * fact not valid then). A lens is pure: the times it reads at are given when it is made.
 */
export interface ReadLens {
  /** The node as read, or undefined when this reading hides it. */
  node<N extends NodeState>(node: N): N | undefined;
  /**
   * The edge as read, or undefined when this reading hides it. `siblings` lists the edges of its
   * type between the same endpoints, in the same direction, as the reader sees them (itself included).
   */
  edge(edge: EdgeState, siblings: () => Iterable<EdgeState>): EdgeState | undefined;
}

/** `first` then `second`: each sees what the other leaves. Undefined when neither has anything to do. */
export function chainLenses(first: ReadLens | undefined, second: ReadLens | undefined): ReadLens | undefined {
  if (first === undefined) return second;
  if (second === undefined) return first;
  return {
    node: <N extends NodeState>(node: N): N | undefined => {
      const v = first.node(node);
      return v === undefined ? undefined : second.node(v);
    },
    edge: (edge, siblings) => {
      const e = first.edge(edge, siblings);
      return e === undefined ? undefined : second.edge(e, siblings);
    },
  };
}
