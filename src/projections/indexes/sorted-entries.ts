import { assert } from '../../common/assert.js';
import type { PropertyValue } from '../../common/property-value.js';
import { orderCompare } from '../../common/values/index.js';

/**
 * The ordered half of a B-tree index: keys (tuples of property values, compared column by column in
 * the global Cypher order) each with the set of node ids holding them. Kept as a list of sorted chunks,
 * so an insert moves at most one chunk (`chunk_entries_max`) rather than the whole array, and a
 * lookup is two binary searches.
 */
export type IndexKey = readonly PropertyValue[];

export interface IndexEntry {
  readonly key: IndexKey;
  readonly ids: IdSet;
}

/**
 * The node ids of one entry. Nearly every entry holds one id (always, for a unique index), so the
 * first is kept inline and only further ids take an array: a Set per entry costs far more memory and
 * collection time across millions of entries.
 */
export class IdSet implements Iterable<number> {
  /** Invariant: `first` is meaningful only when size > 0; `rest` holds the ids after it, none repeated. */
  private first: number;
  private rest: number[] | undefined;
  size = 1;

  constructor(id: number) {
    this.first = id;
  }

  has(id: number): boolean {
    return (this.size > 0 && this.first === id) || (this.rest !== undefined && this.rest.includes(id));
  }

  add(id: number): void {
    if (this.has(id)) return;
    if (this.size === 0) this.first = id;
    else (this.rest ??= []).push(id);
    this.size++;
  }

  delete(id: number): boolean {
    if (this.size > 0 && this.first === id) {
      const next = this.rest?.shift();
      if (next !== undefined) this.first = next;
      this.size--;
      return true;
    }
    const i = this.rest?.indexOf(id) ?? -1;
    if (i < 0) return false;
    this.rest!.splice(i, 1);
    this.size--;
    return true;
  }

  *[Symbol.iterator](): IterableIterator<number> {
    if (this.size === 0) return;
    yield this.first;
    if (this.rest !== undefined) yield* [...this.rest];
  }
}

export const chunk_entries_max = 512;

export function compareKeys(a: IndexKey, b: IndexKey): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const c = orderCompare(a[i]!, b[i]!);
    if (c !== 0) return c;
  }
  return a.length - b.length;
}

/** Position of an entry: chunk and offset. */
interface Position {
  chunk: number;
  offset: number;
}

export class SortedEntries {
  /** Invariant: every chunk is non-empty and sorted, and chunk i's last key < chunk i+1's first key. */
  private chunks: IndexEntry[][] = [];
  /** Invariant: lasts[i] is chunks[i]'s last key; the first binary search reads only these. */
  private lasts: IndexKey[] = [];
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** First position whose key is >= `key` (or > with `after`), by a prefix comparison when `prefix`. */
  private lowerBound(key: IndexKey, after: boolean): Position {
    let lo = 0;
    let hi = this.chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const c = comparePrefix(this.lasts[mid]!, key);
      if (c < 0 || (after && c === 0)) lo = mid + 1;
      else hi = mid;
    }
    if (lo === this.chunks.length) return { chunk: lo, offset: 0 };
    const chunk = this.chunks[lo]!;
    let l = 0;
    let h = chunk.length;
    while (l < h) {
      const m = (l + h) >> 1;
      const c = comparePrefix(chunk[m]!.key, key);
      if (c < 0 || (after && c === 0)) l = m + 1;
      else h = m;
    }
    return { chunk: lo, offset: l };
  }

  get(key: IndexKey): IndexEntry | undefined {
    const p = this.lowerBound(key, false);
    const e = this.chunks[p.chunk]?.[p.offset];
    return e !== undefined && compareKeys(e.key, key) === 0 ? e : undefined;
  }

  add(key: IndexKey, id: number): void {
    const p = this.lowerBound(key, false);
    const chunk = this.chunks[p.chunk];
    const e = chunk?.[p.offset];
    if (e !== undefined && compareKeys(e.key, key) === 0) {
      e.ids.add(id);
      return;
    }
    const entry: IndexEntry = { key, ids: new IdSet(id) };
    this.count++;
    if (chunk === undefined) {
      const tail = this.chunks[this.chunks.length - 1];
      if (tail !== undefined && tail.length < chunk_entries_max) {
        tail.push(entry);
        this.lasts[this.lasts.length - 1] = key;
      } else {
        this.chunks.push([entry]);
        this.lasts.push(key);
      }
      return;
    }
    // The chunk's last key is >= this one, so it stays the chunk's last.
    chunk.splice(p.offset, 0, entry);
    if (chunk.length > chunk_entries_max) {
      const a = chunk.slice(0, chunk.length >> 1);
      const b = chunk.slice(chunk.length >> 1);
      this.chunks.splice(p.chunk, 1, a, b);
      this.lasts.splice(p.chunk, 1, a[a.length - 1]!.key, b[b.length - 1]!.key);
    }
  }

  remove(key: IndexKey, id: number): boolean {
    const p = this.lowerBound(key, false);
    const chunk = this.chunks[p.chunk];
    const e = chunk?.[p.offset];
    if (chunk === undefined || e === undefined || compareKeys(e.key, key) !== 0 || !e.ids.delete(id)) return false;
    if (e.ids.size === 0) {
      chunk.splice(p.offset, 1);
      this.count--;
      if (chunk.length === 0) {
        this.chunks.splice(p.chunk, 1);
        this.lasts.splice(p.chunk, 1);
      } else if (p.offset === chunk.length) {
        this.lasts[p.chunk] = chunk[chunk.length - 1]!.key;
      }
    }
    return true;
  }

  /**
   * Entries from `from` (a key prefix; inclusive unless `from_exclusive`) in ascending order, or all
   * entries when `from` is undefined. The caller stops the iteration where its range ends.
   */
  *ascending(from?: IndexKey, from_exclusive = false): IterableIterator<IndexEntry> {
    const p = from === undefined ? { chunk: 0, offset: 0 } : this.lowerBound(from, from_exclusive);
    for (let c = p.chunk; c < this.chunks.length; c++) {
      const chunk = this.chunks[c]!;
      for (let i = c === p.chunk ? p.offset : 0; i < chunk.length; i++) yield chunk[i]!;
    }
  }

  /** Entries up to `to` (a key prefix; inclusive unless `to_exclusive`) in descending order. */
  *descending(to?: IndexKey, to_exclusive = false): IterableIterator<IndexEntry> {
    const p = to === undefined ? { chunk: this.chunks.length, offset: 0 } : this.lowerBound(to, !to_exclusive);
    let c = p.chunk;
    let i = p.offset - 1;
    if (i < 0) {
      c--;
      i = (this.chunks[c]?.length ?? 0) - 1;
    }
    for (; c >= 0; c--) {
      const chunk = this.chunks[c]!;
      for (; i >= 0; i--) yield chunk[i]!;
      i = (this.chunks[c - 1]?.length ?? 0) - 1;
    }
  }

  /** Checks the ordering invariant (tests and index checks). */
  assertOrdered(): void {
    let prev: IndexKey | undefined;
    assert(this.lasts.length === this.chunks.length, 'one last key per chunk');
    for (const [i, chunk] of this.chunks.entries()) {
      assert(chunk.length > 0, 'an index chunk is never empty');
      assert(this.lasts[i] === chunk[chunk.length - 1]!.key, 'lasts mirror the chunks');
      for (const e of chunk) {
        assert(prev === undefined || compareKeys(prev, e.key) < 0, 'index keys are strictly ascending');
        prev = e.key;
      }
    }
  }
}

/** Compares `key` against a prefix: equal when the key starts with the prefix's values. */
export function comparePrefix(key: IndexKey, prefix: IndexKey): number {
  const n = Math.min(key.length, prefix.length);
  for (let i = 0; i < n; i++) {
    const c = orderCompare(key[i]!, prefix[i]!);
    if (c !== 0) return c;
  }
  return key.length < prefix.length ? -1 : 0;
}
