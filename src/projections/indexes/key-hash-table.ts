/**
 * Key hashes to node ids, open addressing over typed arrays: the build's quick first pass puts one
 * entry per stored record here, millions at a time, where a Map would cost far more in time and in
 * collected memory. Many ids may share a hash (equal keys, or a collision); callers re-check each.
 */
export class KeyHashTable {
  /** Invariant: capacity is a power of two and at least twice the size (so probes stay short). */
  private hashes: Int32Array;
  private ids: Float64Array;
  /** 0 marks a free slot (node ids start at 1). */
  private count = 0;

  constructor(expected: number) {
    let capacity = 16;
    while (capacity < expected * 2) capacity *= 2;
    this.hashes = new Int32Array(capacity);
    this.ids = new Float64Array(capacity);
  }

  get size(): number {
    return this.count;
  }

  add(hash: number, id: number): void {
    if ((this.count + 1) * 2 > this.ids.length) this.grow();
    const mask = this.ids.length - 1;
    let i = hash & mask;
    while (this.ids[i] !== 0) i = (i + 1) & mask;
    this.hashes[i] = hash;
    this.ids[i] = id;
    this.count++;
  }

  /** Every id added under `hash`. */
  *idsOf(hash: number): IterableIterator<number> {
    const mask = this.ids.length - 1;
    for (let i = hash & mask; this.ids[i] !== 0; i = (i + 1) & mask) {
      if (this.hashes[i] === hash) yield this.ids[i]!;
    }
  }

  private grow(): void {
    const hashes = this.hashes;
    const ids = this.ids;
    this.hashes = new Int32Array(hashes.length * 2);
    this.ids = new Float64Array(ids.length * 2);
    this.count = 0;
    for (let i = 0; i < ids.length; i++) if (ids[i] !== 0) this.add(hashes[i]!, ids[i]!);
  }
}
