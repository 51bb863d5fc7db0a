/**
 * Node, relationship and path values at query level. They are references by id: the evaluator reads
 * labels, types, properties and endpoints from the graph snapshot through the function context, so a
 * row holding a node costs one small object, and a node deleted later in the statement can still be
 * told apart by id. The shapes live in src/common/values/value.ts because equality, ordering and
 * hashing must know them.
 */
export {
  isNode,
  isPath,
  isRelationship,
  nodeRef,
  pathValue,
  relationshipRef,
  type NodeRef,
  type PathValue,
  type RelationshipRef,
} from '../../common/values/value.js';

import type { PathValue } from '../../common/values/value.js';

/** Number of relationships in a path (`length(p)`). */
export function pathLength(p: PathValue): number {
  return p.rels.length;
}
