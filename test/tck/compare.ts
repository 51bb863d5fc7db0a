import { showTckValue, type TckValue } from './expected-value.js';

/**
 * Equality of TCK values as the reference runner defines it: structural and recursive; an INTEGER
 * never equals a FLOAT; floats compare as exact doubles with NaN equal to NaN; map keys and node labels
 * are unordered; lists are ordered unless `unorderedLists`, which makes every list at any depth a
 * multiset.
 */
export function tckEquals(a: TckValue, b: TckValue, unorderedLists: boolean): boolean {
  switch (a.k) {
    case 'null':
      return b.k === 'null';
    case 'bool':
    case 'int':
    case 'string':
      return b.k === a.k && b.v === a.v;
    case 'float':
      return b.k === 'float' && (Object.is(a.v, b.v) || a.v === b.v || (Number.isNaN(a.v) && Number.isNaN(b.v)));
    case 'list':
      if (b.k !== 'list' || a.items.length !== b.items.length) return false;
      if (unorderedLists) return sameMultiset(a.items, b.items, (x, y) => tckEquals(x, y, true));
      return a.items.every((x, i) => tckEquals(x, b.items[i] as TckValue, false));
    case 'map':
      return b.k === 'map' && sameProps(a.entries, b.entries, unorderedLists);
    case 'node':
      return (
        b.k === 'node' &&
        a.labels.length === b.labels.length &&
        new Set(a.labels).size === new Set([...a.labels, ...b.labels]).size &&
        sameProps(a.props, b.props, unorderedLists)
      );
    case 'rel':
      return b.k === 'rel' && a.type === b.type && sameProps(a.props, b.props, unorderedLists);
    case 'path':
      return (
        b.k === 'path' &&
        a.hops.length === b.hops.length &&
        tckEquals(a.start, b.start, unorderedLists) &&
        a.hops.every((h, i) => {
          const o = b.hops[i];
          return o !== undefined && o.dir === h.dir && tckEquals(h.rel, o.rel, unorderedLists) && tckEquals(h.node, o.node, unorderedLists);
        })
      );
  }
}

function sameProps(a: ReadonlyMap<string, TckValue>, b: ReadonlyMap<string, TckValue>, unordered: boolean): boolean {
  if (a.size !== b.size) return false;
  for (const [k, x] of a) {
    const y = b.get(k);
    if (y === undefined || !tckEquals(x, y, unordered)) return false;
  }
  return true;
}

/**
 * Multiset equality under an equivalence relation. Greedy matching is exact here: with an equivalence,
 * any element equal to an expected one is interchangeable with every other such element.
 */
export function sameMultiset<T>(expected: readonly T[], actual: readonly T[], eq: (x: T, y: T) => boolean): boolean {
  if (expected.length !== actual.length) return false;
  const used = new Array<boolean>(actual.length).fill(false);
  outer: for (const e of expected) {
    for (let j = 0; j < actual.length; j++) {
      if (!used[j] && eq(e, actual[j] as T)) {
        used[j] = true;
        continue outer;
      }
    }
    return false;
  }
  return true;
}

export type RowOrder = 'ordered' | 'any';

export interface ExpectedTable {
  readonly columns: readonly string[];
  readonly rows: readonly (readonly TckValue[])[];
}

/** Compares a result table; undefined when it matches, else a description of the first difference. */
export function compareTables(
  expected: ExpectedTable,
  actual: ExpectedTable,
  order: RowOrder,
  unorderedLists: boolean,
): string | undefined {
  if (expected.columns.length !== actual.columns.length || expected.columns.some((c, i) => c !== actual.columns[i])) {
    return `columns differ: expected [${expected.columns.join(', ')}], got [${actual.columns.join(', ')}]`;
  }
  const rowEq = (x: readonly TckValue[], y: readonly TckValue[]): boolean =>
    x.length === y.length && x.every((v, i) => tckEquals(v, y[i] as TckValue, unorderedLists));
  if (expected.rows.length !== actual.rows.length) {
    return `expected ${expected.rows.length} rows, got ${actual.rows.length}`;
  }
  const show = (r: readonly TckValue[]): string => `| ${r.map(showTckValue).join(' | ')} |`;
  if (order === 'ordered') {
    const i = expected.rows.findIndex((r, j) => !rowEq(r, actual.rows[j] as readonly TckValue[]));
    if (i < 0) return undefined;
    return `row ${i} differs: expected ${show(expected.rows[i] as readonly TckValue[])}, got ${show(actual.rows[i] as readonly TckValue[])}`;
  }
  if (sameMultiset(expected.rows, actual.rows, rowEq)) return undefined;
  const missing = expected.rows.find((e) => !actual.rows.some((a) => rowEq(e, a)));
  const extra = actual.rows.find((a) => !expected.rows.some((e) => rowEq(e, a)));
  return `rows differ (as a multiset): expected ${missing === undefined ? 'other counts' : show(missing)}, got ${extra === undefined ? 'other counts' : show(extra)}`;
}
