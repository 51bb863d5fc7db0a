import type { Value } from '../../../common/values/value.js';
import { dischargeDerived, keepDerived } from '../../../projections/graph/scan-cache.js';
import type { BoundExpression, BoundVariable } from '../../bind/bound-expression.js';
import { mapChildren } from '../../bind/bound-walk.js';
import { any_type } from '../../bind/static-type.js';
import { lookupFunction } from '../../functions/catalog.js';
import { freeSlots, UNMOVABLE } from '../../plan/expressions.js';
import type { Evaluator, Row } from '../context.js';
import { BATCH_ROWS, NULL_BOOL, valueBuffer } from './batch.js';
import { codedInput, type CodedInput, type EntryReader } from './per-value-inputs.js';
import { identical, parameterNames, readsStatement } from './run-inputs.js';
import { EXACT_INTEGER_MAX, SMALL_FORM_BYTES, type TypedColumn } from './typed-columns.js';
import type { Vectorized } from './vector-expressions.js';

/**
 * Expressions of one or two columns, evaluated once per value the columns can hold rather than once per row.
 *
 * An expression whose only inputs that vary by row are one property of one node or relationship of the
 * pipeline (`toLower(b.city) ENDS WITH '7'`, `substring(p.name, 0, 8)`, `a.age / 10`, `p.city IN $cities`,
 * a CASE over `b.age`), or two such properties (`p.city + toString(p.age)`), with literals, parameters and
 * the values of the argument row around them, is a function of those values. When each property's typed
 * column is a coded input (per-value-inputs.ts: dictionary-coded strings, small exact integers, or numbers
 * of few distinct values), the row evaluator runs it once per entry (per pair of entries for two columns,
 * while their product stays within PER_VALUE_PAIR_ENTRIES_MAX) into a table; a batch then reads each row's
 * answer by its entry. The table is typed when its answers are (all booleans, all strings as a new
 * dictionary, all exact integers, all floats), so what is built over it (comparisons, grouping keys,
 * aggregates) stays typed too.
 *
 * Semantics are the row evaluator's own: it computes every answer. When any entry fails (an error for a
 * value the rows may never hold), the expression is not taken here and runs row by row, so an error is
 * raised exactly where the row path raises it. Non-deterministic functions (rand(), timestamp()) are never
 * taken. Tables are kept per column and expression while the column lives (a WeakMap keyed by the first
 * typed column, which itself lives as long as the store's column), and made again when the parameters or
 * argument values the expression reads, or the second column, have changed.
 */

export { PER_VALUE_DICTIONARY_MAX, PER_VALUE_INT_MAGNITUDE_MAX } from './per-value-inputs.js';
/** A table over two columns holds at most this many entries (one row evaluation each). */
export const PER_VALUE_PAIR_ENTRIES_MAX = 1 << 16;

/** Tables evaluated since the process started, by number of inputs (tests check that their expressions were). */
export const perValueTables = { one: 0, two: 0 };

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
  | { readonly kind: 'num'; readonly integer: boolean; readonly max_abs: number; readonly min_abs: number; readonly table: Float64Array; readonly nulls: Uint8Array }
  | { readonly kind: 'any'; readonly table: readonly Value[] };


/** A property of an entity of the pipeline that an expression reads. */
interface Input {
  readonly slot: number;
  readonly key: string;
}

/** The one or two properties `e` reads of the pipeline's entities, or undefined when it reads anything else per row (or more). */
function inputsOf(e: BoundExpression, scope: PerValueScope): readonly Input[] | undefined {
  const found: Input[] = [];
  let other = false;
  const visit = (x: BoundExpression): BoundExpression => {
    if (x.kind === 'property' && x.object.kind === 'variable' && scope.position(x.object.variable.id) !== undefined) {
      const slot = x.object.variable.id;
      if (!found.some((f) => f.slot === slot && f.key === x.key)) found.push({ slot, key: x.key });
      return x;
    }
    if (x.kind === 'function' && lookupFunction(x.name)?.deterministic === false) other = true;
    return mapChildren(x, visit);
  };
  visit(e);
  return other || found.length === 0 || found.length > 2 ? undefined : found;
}

/** `e` with each read of `slot.key` replaced by a read of `scratch`. */
function substituted(e: BoundExpression, slot: number, key: string, scratch: BoundVariable): BoundExpression {
  const swap = (x: BoundExpression): BoundExpression =>
    x.kind === 'property' && x.key === key && x.object.kind === 'variable' && x.object.variable.id === slot ? { kind: 'variable', variable: scratch, type: x.type, span: x.span } : mapChildren(x, swap);
  return swap(e);
}

interface CachedTable {
  /** The parameter and argument values the table was made with. */
  readonly inputs: readonly Value[];
  /** The second column of a table over two (undefined over one). */
  readonly second: TypedColumn | undefined;
  /** Undefined: some entry failed, so the expression runs per row. */
  readonly table: PerValueTable | undefined;
}

const tables = new WeakMap<TypedColumn, WeakMap<BoundExpression, CachedTable>>();

/**
 * Evaluates `f` at each entry of the inputs in the scratch slots (for two inputs, entry i of the first and j of
 * the second at i * size2 + j); undefined when any evaluation fails.
 */
function evaluate(f: Evaluator, row: Row, scratch: readonly number[], inputs: readonly (readonly Value[])[]): Value[] | undefined {
  const out: Value[] = [];
  const first = inputs[0] as readonly Value[];
  const second = inputs[1];
  const a = scratch[0] as number;
  const b = scratch[1] as number;
  try {
    for (const v of first) {
      row[a] = v;
      if (second === undefined) out.push(f(row));
      else
        for (const w of second) {
          row[b] = w;
          out.push(f(row));
        }
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
    let min_abs = Infinity;
    for (let i = 0; i < n; i++) {
      const a = answers[i] as bigint | number | null;
      if (a === null) nulls[i] = 1;
      else {
        table[i] = Number(a);
        max_abs = Math.max(max_abs, Math.abs(table[i] as number));
        min_abs = Math.min(min_abs, Math.abs(table[i] as number));
      }
    }
    return { kind: 'num', integer: ints, max_abs, min_abs: min_abs === Infinity ? 0 : min_abs, table, nulls };
  }
  return { kind: 'any', table: answers };
}

/** The table of `e` for this run, from the cache when its inputs are unchanged. */
function tableOf(e: BoundExpression, inputs: readonly Input[], columns: readonly TypedColumn[], coded: readonly CodedInput[], scope: PerValueScope): PerValueTable | undefined {
  const scratch = inputs.map((_, i) => scope.arg.length + i);
  let body = e;
  inputs.forEach((input, i) => {
    const v: BoundVariable = { id: scratch[i] as number, name: ` value${i}`, kind: 'value', type: any_type, visible: false };
    body = substituted(body, input.slot, input.key, v);
  });
  const free = freeSlots(body);
  for (const s of scratch) free.delete(s);
  // Anything else it reads must be the argument row's (fixed for the run): no other pipeline slot, no nested query.
  for (const s of free) if (s === UNMOVABLE || s >= scope.arg.length || scope.position(s) !== undefined) return undefined;
  const params = [...parameterNames(body)];
  if (params.some((p) => !scope.params.has(p))) return undefined;
  const values = [...params.map((p) => scope.params.get(p) as Value), ...[...free].map((s) => scope.arg[s] as Value)];
  const first = columns[0] as TypedColumn;
  const second = columns[1];
  let byExpression = tables.get(first);
  if (byExpression === undefined) tables.set(first, (byExpression = new WeakMap()));
  const cached = byExpression.get(e);
  if (cached !== undefined && cached.second === second && cached.inputs.length === values.length && cached.inputs.every((v, i) => identical(v, values[i] as Value))) return cached.table;
  // The entries are listed only on a miss: a dictionary of 100,000 names costs a copy per listing.
  const row: Row = [...scope.arg, ...inputs.map(() => null)];
  const answers = evaluate(scope.evaluator(body), row, scratch, coded.map((c) => c.values()));
  const table = answers === undefined ? undefined : classify(answers);
  if (table !== undefined) perValueTables[inputs.length === 1 ? 'one' : 'two']++;
  const cached_now = { inputs: values, second, table };
  if (!readsStatement(body) && keepDerived(first, cached_now, tableBytes(table), 'per-value table')) {
    // The table made for other inputs goes: its bytes are given back.
    if (cached !== undefined) dischargeDerived(first, tableBytes(cached.table));
    byExpression.set(e, cached_now);
  }
  return table;
}

/** Bytes a table holds: its typed arrays, or a slot per boxed answer (answers are small values), and its record. */
function tableBytes(t: PerValueTable | undefined): number {
  if (t === undefined) return SMALL_FORM_BYTES;
  switch (t.kind) {
    case 'bool':
      return t.table.byteLength + SMALL_FORM_BYTES;
    case 'code':
      return t.table.byteLength + 56 * t.dictionary.length + SMALL_FORM_BYTES;
    case 'num':
      return t.table.byteLength + t.nulls.byteLength + SMALL_FORM_BYTES;
    case 'any':
      return 8 * t.table.length + SMALL_FORM_BYTES;
  }
}

/**
 * `e` evaluated per value (or pair of values) of the one or two entity properties it reads, or undefined when it
 * reads anything else per row, a column is not a coded input, a pair has too many entries, or some entry's
 * answer fails.
 */
export function perValue(e: BoundExpression, scope: PerValueScope): Vectorized | undefined {
  if (e.kind === 'property' || e.kind === 'literal' || e.kind === 'parameter' || e.kind === 'variable') return undefined;
  const inputs = inputsOf(e, scope);
  if (inputs === undefined) return undefined;
  const columns: TypedColumn[] = [];
  const coded: CodedInput[] = [];
  const readers: EntryReader[] = [];
  for (const input of inputs) {
    const at = scope.position(input.slot);
    const column = at === undefined ? undefined : scope.columnOf(input.slot, input.key);
    const c = column === undefined ? undefined : codedInput(column);
    if (at === undefined || column === undefined || c === undefined) return undefined;
    columns.push(column);
    coded.push(c);
    readers.push(c.reader(at.column, at.nullable));
  }
  const [one, two] = readers;
  if (two === undefined) {
    const table = tableOf(e, inputs, columns, coded, scope);
    return table === undefined ? undefined : reader(table, one as EntryReader);
  }
  const size = (coded[1] as CodedInput).size;
  if ((coded[0] as CodedInput).size * size > PER_VALUE_PAIR_ENTRIES_MAX) return undefined;
  const table = tableOf(e, inputs, columns, coded, scope);
  return table === undefined ? undefined : reader(table, pairReader(one as EntryReader, two, size));
}

/** Entries of a table over two inputs: entry i of the first and j of the second at i * size + j. */
function pairReader(first: EntryReader, second: EntryReader, size: number): EntryReader {
  const other = new Int32Array(BATCH_ROWS);
  return (b, out) => {
    first(b, out);
    second(b, other);
    for (let i = 0, n = b.length; i < n; i++) out[i] = (out[i] as number) * size + (other[i] as number);
  };
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
        min_abs: t.min_abs,
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
