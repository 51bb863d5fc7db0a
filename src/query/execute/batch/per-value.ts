import type { Value } from '../../../common/values/value.js';
import type { BoundExpression, BoundVariable } from '../../bind/bound-expression.js';
import { mapChildren } from '../../bind/bound-walk.js';
import { any_type } from '../../bind/static-type.js';
import { lookupFunction } from '../../functions/catalog.js';
import { freeSlots, UNMOVABLE } from '../../plan/expressions.js';
import type { Evaluator, Row } from '../context.js';
import { BATCH_ROWS, NULL_BOOL, NULL_ID, valueBuffer, type Batch } from './batch.js';
import { EXACT_INTEGER_MAX, type TypedColumn } from './typed-columns.js';
import type { Vectorized } from './vector-expressions.js';

/**
 * Expressions of one column, evaluated once per value the column can hold rather than once per row.
 *
 * An expression whose only input that varies by row is one property of one node or relationship of the pipeline
 * (`toLower(b.city) ENDS WITH '7'`, `substring(p.name, 0, 8)`, `a.age / 10`, `p.city IN $cities`, a CASE
 * over `b.age`), with literals, parameters and the values of the argument row around it, is a function of
 * that property's value. When the property's typed column is dictionary-coded (strings) or holds small exact
 * integers, the row evaluator runs it once per dictionary entry (or per integer in the column's bound) and
 * once for null, into a table; a batch then reads each row's answer by its code or value. The table is typed
 * when its answers are (all booleans, all strings as a new dictionary, all exact integers, all floats), so
 * what is built over it (comparisons, grouping keys, aggregates) stays typed too.
 *
 * Semantics are the row evaluator's own: it computes every answer. When any entry fails (an error for a
 * value the rows may never hold), the expression is not taken here and runs row by row, so an error is
 * raised exactly where the row path raises it. Non-deterministic functions (rand()) are never taken.
 * Tables are kept per column and expression while the column lives (a WeakMap keyed by the typed column,
 * which itself lives as long as the store's column), and made again when the parameters or argument values
 * the expression reads have changed.
 */

/** Entries beyond this are not evaluated per value: an integer column wider than this stays per row. */
export const PER_VALUE_INT_MAGNITUDE_MAX = 4096;
/** A dictionary larger than this is not evaluated per value (each entry costs one row evaluation). */
export const PER_VALUE_DICTIONARY_MAX = 1 << 17;

/** What the pipeline offers the evaluation: where an entity slot sits, its typed columns, the row evaluator. */
export interface PerValueScope {
  position(slot: number): { readonly column: number; readonly nullable: boolean } | undefined;
  columnOf(slot: number, key: string): TypedColumn | undefined;
  readonly params: ReadonlyMap<string, Value>;
  readonly arg: Row;
  /** The row evaluator of `e`. */
  evaluator(e: BoundExpression): Evaluator;
}

/** The answers per input value: index 0 is null's answer, then one per code (or per integer from -bound). */
export type PerValueTable =
  | { readonly kind: 'bool'; readonly table: Uint8Array }
  | { readonly kind: 'code'; readonly table: Int32Array; readonly dictionary: readonly string[]; readonly index: ReadonlyMap<string, number> }
  | { readonly kind: 'num'; readonly integer: boolean; readonly max_abs: number; readonly table: Float64Array; readonly nulls: Uint8Array }
  | { readonly kind: 'any'; readonly table: readonly Value[] };


/** The one property `e` reads of the pipeline's nodes, or undefined when it reads something else per row. */
function singleInput(e: BoundExpression, scope: PerValueScope): { readonly slot: number; readonly key: string } | undefined {
  let found: { slot: number; key: string } | undefined;
  let other = false;
  const visit = (x: BoundExpression): BoundExpression => {
    if (x.kind === 'property' && x.object.kind === 'variable' && scope.position(x.object.variable.id) !== undefined) {
      const slot = x.object.variable.id;
      if (found === undefined) found = { slot, key: x.key };
      else if (found.slot !== slot || found.key !== x.key) other = true;
      return x;
    }
    if (x.kind === 'function' && lookupFunction(x.name)?.deterministic === false) other = true;
    return mapChildren(x, visit);
  };
  visit(e);
  return other ? undefined : found;
}

/** `e` with each read of `slot.key` replaced by a read of `scratch`. */
function substituted(e: BoundExpression, slot: number, key: string, scratch: BoundVariable): BoundExpression {
  const swap = (x: BoundExpression): BoundExpression =>
    x.kind === 'property' && x.key === key && x.object.kind === 'variable' && x.object.variable.id === slot ? { kind: 'variable', variable: scratch, type: x.type, span: x.span } : mapChildren(x, swap);
  return swap(e);
}

/** The parameters an expression reads, by name. */
function parameterNames(e: BoundExpression, out: Set<string> = new Set()): Set<string> {
  if (e.kind === 'parameter') out.add(e.name);
  mapChildren(e, (x) => {
    parameterNames(x, out);
    return x;
  });
  return out;
}

/** Same value and same type, deeply (1 and 1.0 differ: an answer may show which it was). */
function identical(a: Value, b: Value): boolean {
  if (typeof a !== typeof b) return false;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => identical(x as Value, (b as readonly Value[])[i] as Value));
  if (a instanceof Map) {
    if (!(b instanceof Map) || a.size !== b.size) return false;
    for (const [k, v] of a as Map<string, Value>) if (!(b as Map<string, Value>).has(k) || !identical(v, (b as Map<string, Value>).get(k) as Value)) return false;
    return true;
  }
  return Object.is(a, b);
}

/** Whether `e` calls a function of no arguments (the clock, a constant of the statement): its table is not kept past the run. */
function readsStatement(e: BoundExpression): boolean {
  let found = false;
  const visit = (x: BoundExpression): BoundExpression => {
    if (x.kind === 'function' && x.args.length === 0) found = true;
    return mapChildren(x, visit);
  };
  visit(e);
  return found;
}

interface CachedTable {
  /** The parameter and argument values the table was made with. */
  readonly inputs: readonly Value[];
  /** Undefined: some entry failed, so the expression runs per row. */
  readonly table: PerValueTable | undefined;
}

const tables = new WeakMap<TypedColumn, WeakMap<BoundExpression, CachedTable>>();

/** Whether `domain` lists the column's values (without listing them). */
function hasDomain(column: TypedColumn): boolean {
  return (column.kind === 'string' && column.dictionary.length <= PER_VALUE_DICTIONARY_MAX) || (column.kind === 'int' && column.max_abs <= PER_VALUE_INT_MAGNITUDE_MAX);
}

/** The input values of the column as the row evaluator sees them, null first. */
function domain(column: TypedColumn): readonly Value[] | undefined {
  switch (column.kind) {
    case 'string':
      return column.dictionary.length > PER_VALUE_DICTIONARY_MAX ? undefined : [null, ...column.dictionary];
    case 'int': {
      if (column.max_abs > PER_VALUE_INT_MAGNITUDE_MAX) return undefined;
      const out: Value[] = [null];
      for (let v = -column.max_abs; v <= column.max_abs; v++) out.push(BigInt(v));
      return out;
    }
    case 'float':
    case 'any':
      return undefined;
  }
}

/** Evaluates `f` at each input value in the scratch slot; undefined when any evaluation fails. */
function evaluate(f: Evaluator, row: Row, scratch: number, inputs: readonly Value[]): Value[] | undefined {
  const out: Value[] = [];
  try {
    for (const v of inputs) {
      row[scratch] = v;
      out.push(f(row));
    }
  } catch {
    // An entry fails: the row path decides whether a row reaches it, and raises its error there.
    return undefined;
  }
  return out;
}

/** The answers, typed when they all are one type (nulls allowed). */
function classify(answers: readonly Value[]): PerValueTable {
  const n = answers.length;
  if (answers.every((a) => a === null || typeof a === 'boolean')) {
    return { kind: 'bool', table: Uint8Array.from(answers, (a) => (a === null ? NULL_BOOL : a ? 1 : 0)) };
  }
  if (answers.every((a) => a === null || typeof a === 'string')) {
    const dictionary: string[] = [];
    const index = new Map<string, number>();
    const table = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const a = answers[i] as string | null;
      if (a === null) {
        table[i] = -1;
        continue;
      }
      let c = index.get(a);
      if (c === undefined) {
        c = dictionary.length;
        dictionary.push(a);
        index.set(a, c);
      }
      table[i] = c;
    }
    return { kind: 'code', table, dictionary, index };
  }
  const exact = (a: Value): boolean => typeof a === 'bigint' && a <= BigInt(EXACT_INTEGER_MAX) && a >= -BigInt(EXACT_INTEGER_MAX);
  const ints = answers.every((a) => a === null || exact(a));
  const floats = !ints && answers.every((a) => a === null || (typeof a === 'number' && !Number.isNaN(a)));
  if (ints || floats) {
    const table = new Float64Array(n);
    const nulls = new Uint8Array(n);
    let max_abs = 0;
    for (let i = 0; i < n; i++) {
      const a = answers[i] as bigint | number | null;
      if (a === null) nulls[i] = 1;
      else {
        table[i] = Number(a);
        max_abs = Math.max(max_abs, Math.abs(table[i] as number));
      }
    }
    return { kind: 'num', integer: ints, max_abs: ints ? max_abs : Infinity, table, nulls };
  }
  return { kind: 'any', table: answers };
}

/** The table of `e` for this run, from the cache when its inputs are unchanged. */
function tableOf(e: BoundExpression, slot: number, key: string, column: TypedColumn, scope: PerValueScope): PerValueTable | undefined {
  if (!hasDomain(column)) return undefined;
  const scratchId = scope.arg.length;
  const scratch: BoundVariable = { id: scratchId, name: ' value', kind: 'value', type: any_type, visible: false };
  const body = substituted(e, slot, key, scratch);
  const free = freeSlots(body);
  free.delete(scratchId);
  // Anything else it reads must be the argument row's (fixed for the run): no other pipeline slot, no nested query.
  for (const s of free) if (s === UNMOVABLE || s >= scope.arg.length || scope.position(s) !== undefined) return undefined;
  const params = [...parameterNames(body)];
  if (params.some((p) => !scope.params.has(p))) return undefined;
  const inputs = [...params.map((p) => scope.params.get(p) as Value), ...[...free].map((s) => scope.arg[s] as Value)];
  let byExpression = tables.get(column);
  if (byExpression === undefined) tables.set(column, (byExpression = new WeakMap()));
  const cached = byExpression.get(e);
  if (cached !== undefined && cached.inputs.length === inputs.length && cached.inputs.every((v, i) => identical(v, inputs[i] as Value))) return cached.table;
  // The domain is listed only on a miss: a dictionary of 100,000 names costs a copy per listing.
  const values = domain(column);
  if (values === undefined) return undefined;
  const row = [...scope.arg, null];
  const answers = evaluate(scope.evaluator(body), row, scratchId, values);
  const table = answers === undefined ? undefined : classify(answers);
  if (!readsStatement(body)) byExpression.set(e, { inputs, table });
  return table;
}

/**
 * `e` evaluated per value of the one node property it reads, or undefined when it reads anything else per
 * row, its column is neither coded nor small integers, or some value's answer fails.
 */
export function perValue(e: BoundExpression, scope: PerValueScope): Vectorized | undefined {
  if (e.kind === 'property' || e.kind === 'literal' || e.kind === 'parameter' || e.kind === 'variable') return undefined;
  const input = singleInput(e, scope);
  if (input === undefined) return undefined;
  const at = scope.position(input.slot);
  if (at === undefined) return undefined;
  const column = scope.columnOf(input.slot, input.key);
  if (column === undefined) return undefined;
  const table = tableOf(e, input.slot, input.key, column, scope);
  if (table === undefined) return undefined;
  const entries = entryReader(column, at.column, at.nullable);
  if (entries === undefined) return undefined;
  return reader(table, entries);
}

/** Writes each row's table index (0 for null) into `out`. */
type EntryReader = (b: Batch, out: Int32Array) => void;

function entryReader(column: TypedColumn, c: number, nullable: boolean): EntryReader | undefined {
  switch (column.kind) {
    case 'string': {
      const codes = column.codes;
      // Code -1 (no value) lands on entry 0, null's.
      return (b, out) => {
        const ids = b.columns[c] as Int32Array;
        if (nullable) for (let i = 0, n = b.length; i < n; i++) out[i] = ids[i] === NULL_ID ? 0 : (codes[ids[i] as number] as number) + 1;
        else for (let i = 0, n = b.length; i < n; i++) out[i] = (codes[ids[i] as number] as number) + 1;
      };
    }
    case 'int': {
      const { values, nulls } = column;
      const offset = column.max_abs + 1;
      return (b, out) => {
        const ids = b.columns[c] as Int32Array;
        for (let i = 0, n = b.length; i < n; i++) {
          const id = ids[i] as number;
          out[i] = (nullable && id === NULL_ID) || nulls[id] === 1 ? 0 : (values[id] as number) + offset;
        }
      };
    }
    case 'float':
    case 'any':
      return undefined;
  }
}

/** The table read for a batch, typed as its answers are. */
function reader(t: PerValueTable, entries: EntryReader): Vectorized {
  const at = new Int32Array(BATCH_ROWS);
  switch (t.kind) {
    case 'bool': {
      const vec = { kind: 'bool' as const, values: new Uint8Array(BATCH_ROWS) };
      const table = t.table;
      return {
        kind: 'bool',
        run: (b) => {
          entries(b, at);
          for (let i = 0, n = b.length; i < n; i++) vec.values[i] = table[at[i] as number] as number;
          return vec;
        },
      };
    }
    case 'code': {
      const vec = { kind: 'code' as const, codes: new Int32Array(BATCH_ROWS) };
      const table = t.table;
      return {
        kind: 'code',
        dictionary: t.dictionary,
        index: t.index,
        run: (b) => {
          entries(b, at);
          for (let i = 0, n = b.length; i < n; i++) vec.codes[i] = table[at[i] as number] as number;
          return vec;
        },
      };
    }
    case 'num': {
      const vec = { kind: 'num' as const, values: new Float64Array(BATCH_ROWS), nulls: new Uint8Array(BATCH_ROWS) };
      const { table, nulls } = t;
      return {
        kind: 'num',
        integer: t.integer,
        max_abs: t.max_abs,
        run: (b) => {
          entries(b, at);
          for (let i = 0, n = b.length; i < n; i++) {
            const k = at[i] as number;
            vec.values[i] = table[k] as number;
            vec.nulls[i] = nulls[k] as number;
          }
          return vec;
        },
      };
    }
    case 'any': {
      const vec = { kind: 'any' as const, values: valueBuffer() };
      const table = t.table;
      return {
        kind: 'any',
        run: (b) => {
          entries(b, at);
          for (let i = 0, n = b.length; i < n; i++) vec.values[i] = table[at[i] as number] as Value;
          return vec;
        },
      };
    }
  }
}
