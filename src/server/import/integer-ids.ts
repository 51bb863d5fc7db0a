/**
 * An ID space of integer ids (`--id-type integer`): id -> node id without an object per entry and
 * without allocating per lookup. Ids are most often small and dense (0..n or 1..n, what exports
 * hold), so those sit in a direct table indexed by the id (8 bytes per id in its range); ids far
 * outside it (negative, sparse, 64-bit) go to an open-addressing hash table kept in one typed array.
 * Both cost far less per lookup than a Map<number, number>, whose doubles take the generic hash path
 * and whose entries spread over the heap; relationship files make millions of lookups.
 */
export class IntegerIds {
  /** dense[id] is the node of id (0: none; node ids start at 1). */
  private dense = new Float64Array(integer_ids_dense_min);
  /** Ids outside the direct table. An id is in exactly one of the two. */
  private readonly sparse = new IdHash();
  size = 0;

  /** The node of `id`, or undefined. `id` is a safe integer. */
  get(id: number): number | undefined {
    if (id >= 0 && id < this.dense.length) {
      const node = this.dense[id]!;
      if (node !== 0) return node;
    }
    return this.sparse.size === 0 ? undefined : this.sparse.get(id);
  }

  has(id: number): boolean {
    return this.get(id) !== undefined;
  }

  /** Maps `id` to `node` (at least 1); `id` must not be mapped yet. */
  set(id: number, node: number): void {
    this.size++;
    if (id >= 0 && id >= this.dense.length && id < this.size * integer_ids_dense_spread + integer_ids_dense_min) this.growDense(id);
    if (id >= 0 && id < this.dense.length) this.dense[id] = node;
    else this.sparse.set(id, node);
  }

  private growDense(id: number): void {
    let length = this.dense.length;
    while (length <= id) length *= 2;
    const dense = new Float64Array(length);
    dense.set(this.dense);
    this.dense = dense;
  }
}

/** Ids the direct table covers before any is set. */
export const integer_ids_dense_min = 1 << 16;
/** The direct table grows to hold an id only while its range stays within this many slots per id held. */
export const integer_ids_dense_spread = 4;

/** Open addressing with linear probing over one typed array; a slot is the id and its node side by side. */
class IdHash {
  /** Slot s is [2s] the id, [2s + 1] its node, 0 when empty. Invariant: the slot count is a power of two, more than twice `size`. */
  private slots = new Float64Array(2 * 16);
  private mask = 15;
  size = 0;

  get(id: number): number | undefined {
    const slots = this.slots;
    for (let s = slotOf(id) & this.mask; ; s = (s + 1) & this.mask) {
      const node = slots[2 * s + 1]!;
      if (node === 0) return undefined;
      if (slots[2 * s] === id) return node;
    }
  }

  set(id: number, node: number): void {
    if ((this.size + 1) * 2 > this.mask + 1) this.grow();
    this.place(id, node);
    this.size++;
  }

  private place(id: number, node: number): void {
    const slots = this.slots;
    let s = slotOf(id) & this.mask;
    while (slots[2 * s + 1] !== 0) s = (s + 1) & this.mask;
    slots[2 * s] = id;
    slots[2 * s + 1] = node;
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Float64Array(old.length * 2);
    this.mask = this.slots.length / 2 - 1;
    for (let s = 0; s < old.length; s += 2) if (old[s + 1] !== 0) this.place(old[s]!, old[s + 1]!);
  }
}

/** Mixes both 32-bit halves of a safe integer (negative ones too) into a well-spread 32-bit hash. */
function slotOf(id: number): number {
  const lo = id >>> 0;
  const hi = Math.floor(id / 4294967296) | 0;
  let h = Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
