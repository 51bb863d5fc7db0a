import type { NodeRef, PathValue, RelationshipRef, Value } from './values/value.js';

/**
 * A stored property value, as the log carries it and the graph projection keeps it: a Cypher value
 * other than null and graph references (src/common/values/storable.ts says which are storable).
 * Integers are `bigint`, floats are `number`, so an integer never equals a float. `null` is never
 * stored: setting a property to null removes it.
 */
export type PropertyValue = Exclude<Value, null | NodeRef | RelationshipRef | PathValue>;

/** Properties in insertion order; keys are case-sensitive names. */
export type PropertyMap = ReadonlyMap<string, PropertyValue>;
