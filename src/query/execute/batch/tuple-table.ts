/**
 * A hash table from tuples of doubles to groups, each group a chain of rows in the order they were
 * added: the build side of a batched value join (value-join-batches.ts). Keys are typed values as
 * doubles (exact integers, floats, dictionary codes, booleans as 0 and 1), so a row costs a slot in a
 * few typed arrays and no object; a tuple is compared by its doubles, which is Cypher's `=` for the
 * values they stand for once NaN is left out and -0.0 is written as 0 (the caller's part).
 */

/** Groups and rows a table starts with room for; each array doubles when full. */
const initial_groups = 64;
const initial_rows = 1024;

/** An empty slot of `slots`; a full one holds its group + 1. */
const EMPTY = 0;
/** The end of a chain (no row). */
export const NO_ROW = -1;

const scratch = new Float64Array(1);
const halves = new Uint32Array(scratch.buffer);

export class TupleTable {
  /** Open addressing: the group + 1 whose tuple hashes here, or EMPTY. Invariant: length a power of 2, at most half full. */
  private slots = new Int32Array(2 * initial_groups);
  /** Group g's tuple at [g * width, (g + 1) * width). */
  private keys: Float64Array;
  /** Per group, its first and last row. */
  private heads = new Int32Array(initial_groups);
  private tails = new Int32Array(initial_groups);
  /** Per row, the next row of its group, or NO_ROW. */
  private nexts = new Int32Array(initial_rows);
  groups = 0;
  rows = 0;

  constructor(
    readonly width: number,
    /** Told of every growth in bytes, for the statement's memory budget. */
    private readonly grew: (bytes: number) => void,
  ) {
    this.keys = new Float64Array(initial_groups * width);
    grew(this.slots.byteLength + this.keys.byteLength + this.heads.byteLength + this.tails.byteLength + this.nexts.byteLength);
  }

  /**
   * Makes room for `groups` groups at once while the table is empty (a table built from rows already counted),
   * so that it does not grow and rehash its way there.
   */
  reserve(groups: number): void {
    if (this.groups > 0 || groups <= this.heads.length) return;
    const room = 2 ** Math.ceil(Math.log2(groups));
    const before = this.slots.byteLength + this.keys.byteLength + this.heads.byteLength + this.tails.byteLength;
    this.slots = new Int32Array(2 * room);
    this.keys = new Float64Array(room * this.width);
    this.heads = new Int32Array(room);
    this.tails = new Int32Array(room);
    this.grew(this.slots.byteLength + this.keys.byteLength + this.heads.byteLength + this.tails.byteLength - before);
  }

  /** The group of `tuple` (its first `width` doubles), or -1. */
  find(tuple: Float64Array): number {
    return this.findAt(tuple, 0);
  }

  /** The group of the tuple at [base, base + width) of `tuples` (a batch of tuples side by side), or -1. */
  findAt(tuples: Float64Array, base: number): number {
    const mask = this.slots.length - 1;
    for (let s = hash(tuples, base, this.width) & mask; ; s = (s + 1) & mask) {
      const g = (this.slots[s] as number) - 1;
      if (g < 0) return -1;
      if (this.matches(g, tuples, base)) return g;
    }
  }

  /** The group of `tuple`, made (with no rows) when new. */
  intern(tuple: Float64Array): number {
    const mask = this.slots.length - 1;
    let s = hash(tuple, 0, this.width) & mask;
    for (; ; s = (s + 1) & mask) {
      const at = (this.slots[s] as number) - 1;
      if (at < 0) break;
      if (this.matches(at, tuple, 0)) return at;
    }
    const g = this.groups++;
    if (g >= this.heads.length) {
      this.heads = this.grow(this.heads, NO_ROW);
      this.tails = this.grow(this.tails, NO_ROW);
      const keys = new Float64Array(this.keys.length * 2);
      keys.set(this.keys);
      this.grew(keys.byteLength - this.keys.byteLength);
      this.keys = keys;
    }
    for (let k = 0; k < this.width; k++) this.keys[g * this.width + k] = tuple[k] as number;
    this.heads[g] = NO_ROW;
    this.tails[g] = NO_ROW;
    this.slots[s] = g + 1;
    if (2 * this.groups > this.slots.length) this.rehash();
    return g;
  }

  /** Adds a row at the end of group `g`'s chain; answers the row's index. */
  append(g: number): number {
    const row = this.rows++;
    if (row >= this.nexts.length) this.nexts = this.grow(this.nexts, NO_ROW);
    this.nexts[row] = NO_ROW;
    const tail = this.tails[g] as number;
    if (tail === NO_ROW) this.heads[g] = row;
    else this.nexts[tail] = row;
    this.tails[g] = row;
    return row;
  }

  /** The first row of group `g`, or NO_ROW. */
  first(g: number): number {
    return this.heads[g] as number;
  }

  /** The row after `row` in its group, or NO_ROW. */
  next(row: number): number {
    return this.nexts[row] as number;
  }

  /** Key `k` of group `g`. */
  key(g: number, k: number): number {
    return this.keys[g * this.width + k] as number;
  }

  private matches(g: number, tuples: Float64Array, base: number): boolean {
    const at = g * this.width;
    for (let k = 0; k < this.width; k++) if (this.keys[at + k] !== tuples[base + k]) return false;
    return true;
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    const tuple = new Float64Array(this.width);
    for (let g = 0; g < this.groups; g++) {
      for (let k = 0; k < this.width; k++) tuple[k] = this.keys[g * this.width + k] as number;
      let s = hash(tuple, 0, this.width) & mask;
      while (slots[s] !== EMPTY) s = (s + 1) & mask;
      slots[s] = g + 1;
    }
    this.grew(slots.byteLength - this.slots.byteLength);
    this.slots = slots;
  }

  private grow(a: Int32Array, fill: number): Int32Array<ArrayBuffer> {
    const out = new Int32Array(a.length * 2).fill(fill, a.length);
    out.set(a);
    this.grew(out.byteLength - a.byteLength);
    return out;
  }
}

/** Doubles the length of a per-row array of ids, keeping its contents; the caller charges the bytes. */
export function grownIds(a: Int32Array): Int32Array<ArrayBuffer> {
  const out = new Int32Array(a.length * 2);
  out.set(a);
  return out;
}

/** A hash of the bits of the tuple at [base, base + width) (murmur-style mixing of each double's two halves). */
function hash(tuples: Float64Array, base: number, width: number): number {
  let h = 0x811c9dc5;
  for (let k = 0; k < width; k++) {
    scratch[0] = tuples[base + k] as number;
    h = Math.imul(h ^ (halves[0] as number), 0x9e3779b1);
    h = Math.imul(h ^ (halves[1] as number), 0x85ebca6b);
  }
  h ^= h >>> 15;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 13)) >>> 0;
}
