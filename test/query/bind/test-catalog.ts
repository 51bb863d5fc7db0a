import type { FunctionCatalog, FunctionSignature } from '../../../src/query/functions/signature.js';
import type { ProcedureCatalog, ProcedureSignature } from '../../../src/query/bind/index.js';
import type { StaticType } from '../../../src/query/bind/static-type.js';

/**
 * The binder tests' own function catalog: openCypher's functions (and Weft's two) by name, arity and
 * kind, written from the openCypher function list, independent of the function library.
 */
const scalar: [string, number, number][] = [
  ['abs', 1, 1], ['ceil', 1, 1], ['floor', 1, 1], ['round', 1, 3], ['sign', 1, 1], ['rand', 0, 0], ['sqrt', 1, 1],
  ['exp', 1, 1], ['log', 1, 1], ['log10', 1, 1], ['e', 0, 0], ['pi', 0, 0], ['sin', 1, 1], ['cos', 1, 1], ['tan', 1, 1],
  ['cot', 1, 1], ['asin', 1, 1], ['acos', 1, 1], ['atan', 1, 1], ['atan2', 2, 2], ['degrees', 1, 1], ['radians', 1, 1],
  ['haversin', 1, 1], ['tostring', 1, 1], ['toupper', 1, 1], ['tolower', 1, 1], ['trim', 1, 1], ['ltrim', 1, 1],
  ['rtrim', 1, 1], ['substring', 2, 3], ['left', 2, 2], ['right', 2, 2], ['replace', 3, 3], ['reverse', 1, 1],
  ['split', 2, 2], ['size', 1, 1], ['length', 1, 1], ['tointeger', 1, 1], ['tofloat', 1, 1], ['toboolean', 1, 1],
  ['coalesce', 1, Infinity], ['head', 1, 1], ['last', 1, 1], ['tail', 1, 1], ['range', 2, 3], ['keys', 1, 1],
  ['labels', 1, 1], ['nodes', 1, 1], ['relationships', 1, 1], ['type', 1, 1], ['id', 1, 1], ['elementid', 1, 1],
  ['startnode', 1, 1], ['endnode', 1, 1], ['properties', 1, 1], ['exists', 1, 1], ['timestamp', 0, 0],
  ['date', 0, 1], ['time', 0, 1], ['localtime', 0, 1], ['datetime', 0, 1], ['localdatetime', 0, 1], ['duration', 1, 1],
  ['date.truncate', 2, 3], ['time.truncate', 2, 3], ['localtime.truncate', 2, 3], ['datetime.truncate', 2, 3],
  ['localdatetime.truncate', 2, 3], ['datetime.fromepoch', 2, 2], ['datetime.fromepochmillis', 1, 1],
  ['duration.between', 2, 2], ['duration.inmonths', 2, 2], ['duration.indays', 2, 2], ['duration.inseconds', 2, 2],
  ['vector_distance', 2, 2], ['text_match', 2, 2],
  ...['date', 'time', 'localtime', 'datetime', 'localdatetime'].flatMap((t): [string, number, number][] =>
    ['transaction', 'statement', 'realtime'].map((clock) => [`${t}.${clock}`, 0, 1]),
  ),
];
const aggregate: [string, number, number][] = [
  ['count', 1, 1], ['sum', 1, 1], ['avg', 1, 1], ['min', 1, 1], ['max', 1, 1], ['collect', 1, 1], ['stdev', 1, 1],
  ['stdevp', 1, 1], ['percentilecont', 2, 2], ['percentiledisc', 2, 2],
];

const signatures = new Map<string, FunctionSignature>();
for (const [name, min_args, max_args] of scalar) {
  signatures.set(name, { name, min_args, max_args, kind: 'scalar', deterministic: name !== 'rand' && name !== 'timestamp' });
}
for (const [name, min_args, max_args] of aggregate) {
  signatures.set(name, { name, min_args, max_args, kind: 'aggregate', deterministic: true });
}

export const test_functions: FunctionCatalog = { lookup: (name) => signatures.get(name.toLowerCase()) };

function typeOf(name: string): StaticType {
  switch (name.replace(/\?$/, '').toUpperCase()) {
    case 'INTEGER':
      return { kind: 'integer' };
    case 'FLOAT':
      return { kind: 'float' };
    case 'NUMBER':
      return { kind: 'number' };
    case 'STRING':
      return { kind: 'string' };
    case 'BOOLEAN':
      return { kind: 'boolean' };
    default:
      return { kind: 'any' };
  }
}

function fields(list: string): { name: string; type: StaticType }[] {
  return list
    .split(',')
    .map((f) => f.trim())
    .filter((f) => f !== '')
    .map((f) => {
      const [name, type] = f.split('::').map((x) => x.trim());
      return { name: name!, type: typeOf(type ?? '') };
    });
}

/** Reads a TCK procedure signature: `test.my.proc(in :: INTEGER?) :: (out :: STRING?)`. */
export function parseProcedureSignature(text: string): ProcedureSignature {
  const m = /^([\w.]+)\((.*?)\)\s*::\s*\((.*?)\)\s*$/.exec(text.trim());
  if (!m) throw new Error(`unreadable procedure signature: ${text}`);
  return { name: m[1]!, inputs: fields(m[2]!), outputs: fields(m[3]!) };
}

export function procedureCatalog(signatures: readonly string[]): ProcedureCatalog {
  const byName = new Map(signatures.map(parseProcedureSignature).map((p) => [p.name, p] as const));
  return { lookup: (name) => byName.get(name) };
}
