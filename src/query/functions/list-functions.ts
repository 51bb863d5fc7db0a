import { equals } from '../../common/values/equality.js';
import { isNode, isPath, isRelationship, nodeRef, relationshipRef, type Value } from '../../common/values/value.js';
import { runtimeTypeError, argumentError } from '../errors.js';
import { arg, listArg, wrongType } from './args.js';
import { codePointLength } from './code-points.js';
import { scalar, type ScalarFunction } from './definition.js';

/**
 * Functions over lists, maps and graph elements: scalar graph accessors (id, type, labels,
 * properties, keys, startNode, endNode) and list functions (range, head, last, tail, size,
 * reverse, nodes, relationships, length, coalesce).
 */

/** Upper bound on the elements `range()` may build, so one call cannot exhaust memory. */
export const RANGE_ELEMENTS_MAX = 10_000_000;

export const listFunctions: readonly ScalarFunction[] = [
  scalar('coalesce', 1, Infinity, (args) => {
    for (const a of args) if (a !== null) return a;
    return null;
  }),
  // nullIf(a, b): null when a = b is true, else a (so a null b, or an unknown comparison, keeps a).
  scalar('nullif', 2, 2, (args) => (equals(arg(args, 0), arg(args, 1)) === true ? null : arg(args, 0))),
  scalar('id', 1, 1, ([v = null]) => {
    if (v === null) return null;
    if (isNode(v) || isRelationship(v)) return BigInt(v.id);
    return wrongType('id', 'a NODE or RELATIONSHIP', v);
  }),
  scalar('elementid', 1, 1, ([v = null], ctx) => {
    if (v === null) return null;
    if (isNode(v) || isRelationship(v)) return ctx.elementIdOf(v);
    return wrongType('elementId', 'a NODE or RELATIONSHIP', v);
  }),
  scalar('type', 1, 1, ([v = null], ctx) => {
    if (v === null) return null;
    if (isRelationship(v)) return ctx.typeOf(v);
    return wrongType('type', 'a RELATIONSHIP', v);
  }),
  scalar('labels', 1, 1, ([v = null], ctx) => {
    if (v === null) return null;
    if (isNode(v)) return [...ctx.labelsOf(v)];
    return wrongType('labels', 'a NODE', v);
  }),
  scalar('properties', 1, 1, ([v = null], ctx) => {
    if (v === null) return null;
    if (v instanceof Map) return v;
    if (isNode(v) || isRelationship(v)) return new Map(ctx.propertiesOf(v));
    return wrongType('properties', 'a MAP, NODE or RELATIONSHIP', v);
  }),
  scalar('keys', 1, 1, ([v = null], ctx) => {
    if (v === null) return null;
    if (v instanceof Map) return [...(v as ReadonlyMap<string, Value>).keys()];
    if (isNode(v) || isRelationship(v)) return [...ctx.propertiesOf(v).keys()];
    return wrongType('keys', 'a MAP, NODE or RELATIONSHIP', v);
  }),
  scalar('startnode', 1, 1, ([v = null], ctx) => {
    if (v === null) return null;
    if (isRelationship(v)) return ctx.startNodeOf(v);
    return wrongType('startNode', 'a RELATIONSHIP', v);
  }),
  scalar('endnode', 1, 1, ([v = null], ctx) => {
    if (v === null) return null;
    if (isRelationship(v)) return ctx.endNodeOf(v);
    return wrongType('endNode', 'a RELATIONSHIP', v);
  }),
  scalar('nodes', 1, 1, ([v = null]) => {
    if (v === null) return null;
    if (isPath(v)) return v.nodes.map(nodeRef);
    return wrongType('nodes', 'a PATH', v);
  }),
  scalar('relationships', 1, 1, ([v = null]) => {
    if (v === null) return null;
    if (isPath(v)) return v.rels.map(relationshipRef);
    return wrongType('relationships', 'a PATH', v);
  }),
  scalar('length', 1, 1, ([v = null]) => {
    if (v === null) return null;
    if (isPath(v)) return BigInt(v.rels.length);
    return wrongType('length', 'a PATH', v);
  }),
  scalar('size', 1, 1, ([v = null]) => {
    if (v === null) return null;
    if (typeof v === 'string') return BigInt(codePointLength(v));
    if (Array.isArray(v)) return BigInt(v.length);
    return wrongType('size', 'a STRING or LIST', v);
  }),
  scalar('head', 1, 1, ([v = null]) => {
    if (v === null) return null;
    const l = listArg('head', v);
    return l.length === 0 ? null : (l[0] as Value);
  }),
  scalar('last', 1, 1, ([v = null]) => {
    if (v === null) return null;
    const l = listArg('last', v);
    return l.length === 0 ? null : (l[l.length - 1] as Value);
  }),
  scalar('tail', 1, 1, ([v = null]) => {
    if (v === null) return null;
    return listArg('tail', v).slice(1);
  }),
  scalar('reverse', 1, 1, ([v = null]) => {
    if (v === null) return null;
    if (typeof v === 'string') return [...v].reverse().join('');
    if (Array.isArray(v)) return [...(v as readonly Value[])].reverse();
    return wrongType('reverse', 'a STRING or LIST', v);
  }),
  scalar('range', 2, 3, (args) => range(arg(args, 0), arg(args, 1), args.length > 2 ? arg(args, 2) : 1n)),
  scalar('isempty', 1, 1, ([v = null]) => {
    if (v === null) return null;
    if (typeof v === 'string') return v.length === 0;
    if (Array.isArray(v)) return v.length === 0;
    if (v instanceof Map) return v.size === 0;
    return wrongType('isEmpty', 'a STRING, LIST or MAP', v);
  }),
];

function rangeInt(v: Value): bigint {
  if (typeof v !== 'bigint') {
    // The TCK expects this detail for range(); the type is the generic one.
    throw runtimeTypeError('InvalidArgumentType', `range() expects INTEGER arguments, got ${v === null ? 'null' : typeof v}`);
  }
  return v;
}

function range(startV: Value, endV: Value, stepV: Value): Value {
  const start = rangeInt(startV);
  const end = rangeInt(endV);
  const step = rangeInt(stepV);
  if (step === 0n) throw argumentError('NumberOutOfRange', 'range() step must not be zero');
  const count = step > 0n ? (end >= start ? (end - start) / step + 1n : 0n) : start >= end ? (start - end) / -step + 1n : 0n;
  if (count > BigInt(RANGE_ELEMENTS_MAX)) {
    throw argumentError('NumberOutOfRange', `range() would build ${count} elements, more than ${RANGE_ELEMENTS_MAX}`);
  }
  const out = new Array<Value>(Number(count));
  let x = start;
  for (let i = 0; i < out.length; i++, x += step) out[i] = x;
  return out;
}

