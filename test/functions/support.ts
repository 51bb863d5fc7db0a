import type { Value } from '../../src/common/values/value.js';
import { lookupFunction } from '../../src/query/functions/catalog.js';
import type { FunctionContext } from '../../src/query/functions/context.js';
import { CypherError } from '../../src/query/errors.js';

/** A function context over a two-node graph with a fixed clock, for calling functions directly. */
export const testContext: FunctionContext = {
  labelsOf: (n) => (n.id === 1 ? ['A', 'B'] : []),
  typeOf: () => 'KNOWS',
  propertiesOf: (e) => new Map<string, Value>(e.kind === 'node' ? [['name', `n${e.id}`]] : [['since', 2020n]]),
  startNodeOf: () => ({ kind: 'node', id: 1 }),
  endNodeOf: () => ({ kind: 'node', id: 2 }),
  elementIdOf: (e) => `${e.kind}-${e.id}`,
  clock: {
    statement: () => ({ epochSecond: 469_020_674, nano: 645_876_123 }), // 1984-11-11T11:31:14.645876123Z
    transaction: () => ({ epochSecond: 0, nano: 0 }),
    realtime: () => ({ epochSecond: 86_400, nano: 1 }),
  },
  defaultTimeZone: 'UTC',
  random: () => 0.25,
  loadCsv: { line: null, file: null },
};

export function call(name: string, ...args: Value[]): Value {
  const f = lookupFunction(name);
  if (f === undefined || f.kind !== 'scalar') throw new Error(`no scalar function ${name}`);
  return f.call(args, testContext);
}

export function text(name: string, ...args: Value[]): string {
  return String(call(name, ...args));
}

export function errorOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof CypherError) return `${e.type}/${e.detail}`;
    throw e;
  }
  return 'no error';
}

export const m = (o: Record<string, Value>): Value => new Map(Object.entries(o));

/** A map whose integral JS numbers become INTEGER values, as Cypher literals would. */
export const mi = (o: Record<string, Value>): Value =>
  new Map(Object.entries(o).map(([k, v]) => [k, typeof v === 'number' && Number.isInteger(v) ? BigInt(v) : v] as const));
