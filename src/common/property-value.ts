/**
 * A stored property value, as the log carries it and the graph projection keeps it. Integers are
 * `bigint` (64-bit signed), floats are `number`, so an integer never equals a float. Temporal values and
 * maps (SPEC's MAP and DOCUMENT types) are the immutable objects of the value library; `null` is never
 * stored: setting a property to null removes it.
 */
export type PropertyValue =
  | boolean
  | bigint
  | number
  | string
  | Uint8Array
  | Float32Array
  | readonly PropertyValue[]
  | object;

/** Properties in insertion order; keys are case-sensitive names. */
export type PropertyMap = ReadonlyMap<string, PropertyValue>;
