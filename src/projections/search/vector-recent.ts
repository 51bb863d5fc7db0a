import type { VectorMetricName } from './vector-metrics.js';

/**
 * The ids a vector index last put into its HNSW graph, with their vectors in one contiguous block,
 * measured exactly by every approximate search (docs/vector.md, section 3a).
 *
 * A search scans all of them, so their vectors sit side by side in `block` (slot s at
 * `s * dimensions`): one sequential pass over at most `capacity x dimensions` floats, instead of a
 * map lookup and a scattered vector (two cold reads) per id. The distances are computed as
 * `vectorMetricDistance` computes them (same operations in the same order on the same 32-bit
 * values), so they are `vector_distance`'s, exactly.
 */
/** Slots the block holds at first. */
const slots_initial = 16;

export class RecentVectors {
  /** Ids, oldest first (a Set keeps insertion order). Invariant: exactly the ids holding a slot. */
  private readonly order = new Set<number>();
  /** Slot of each listed id. */
  private readonly slotOf = new Map<number, number>();
  /** Id in each slot, -1 when free. Invariant: `slotIds[slotOf.get(id)] === id`. */
  private readonly slotIds: Float64Array;
  /** Free slots (below `used`). */
  private readonly free: number[] = [];
  /** Slots ever taken since the last clear: the scan reads slots below it. */
  private used = 0;
  /**
   * Vectors by slot, `dimensions` floats each; grown by doubling up to `capacity` slots, so a wide
   * index with a short list does not hold `capacity` vectors' worth of memory.
   */
  private block: Float32Array;
  /** The last scan's distance per slot (meaningless for a free slot). */
  private readonly distances: Float64Array;

  constructor(
    readonly capacity: number,
    private readonly dimensions: number,
  ) {
    this.slotIds = new Float64Array(capacity).fill(-1);
    this.block = new Float32Array(Math.min(capacity, slots_initial) * dimensions);
    this.distances = new Float64Array(capacity);
  }

  get size(): number {
    return this.order.size;
  }

  has(id: number): boolean {
    return this.order.has(id);
  }

  /** Ids, oldest first. */
  ids(): number[] {
    return [...this.order];
  }

  /** `id` as the newest, with vector `v` (a listed id moves to the end); the oldest leaves when full. */
  note(id: number, v: Float32Array): void {
    let slot = this.slotOf.get(id);
    if (slot !== undefined) this.order.delete(id);
    else {
      if (this.order.size >= this.capacity) this.delete(this.order.values().next().value as number);
      slot = this.free.pop() ?? this.used++;
      if ((slot + 1) * this.dimensions > this.block.length) {
        const grown = new Float32Array(Math.min(this.capacity, (slot + 1) * 2) * this.dimensions);
        grown.set(this.block);
        this.block = grown;
      }
      this.slotOf.set(id, slot);
      this.slotIds[slot] = id;
    }
    this.order.add(id);
    this.block.set(v, slot * this.dimensions);
  }

  delete(id: number): boolean {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return false;
    this.order.delete(id);
    this.slotOf.delete(id);
    this.slotIds[slot] = -1;
    this.free.push(slot);
    return true;
  }

  clear(): void {
    this.order.clear();
    this.slotOf.clear();
    this.slotIds.fill(-1);
    this.free.length = 0;
    this.used = 0;
  }

  /**
   * The listed vectors nearer to `query` than `bound` (strictly), as [id, distance] pairs ordered by
   * distance, then id: an order that depends on the vectors only, not on the slots they happen to
   * hold, so every member and every restart merges them alike.
   */
  nearerThan(metric: VectorMetricName, query: Float32Array, bound: number): [number, number][] {
    this.measure(metric, query);
    const out: [number, number][] = [];
    for (let s = 0; s < this.used; s++) {
      const d = this.distances[s]!;
      if (this.slotIds[s]! >= 0 && d < bound) out.push([this.slotIds[s]!, d]);
    }
    out.sort((a, b) => a[1] - b[1] || a[0] - b[0]);
    return out;
  }

  /**
   * Fills `distances` for every slot below `used`: one loop per metric over the block. Each vector's
   * sum runs in `vectorMetricDistance`'s order; four vectors are summed side by side, so that the
   * CPU adds into four independent sums instead of waiting on one sum's previous addition (a
   * 256-vector list then costs a search well under half what one vector at a time cost).
   */
  private measure(metric: VectorMetricName, q: Float32Array): void {
    const dims = this.dimensions;
    const b = this.block;
    const out = this.distances;
    const used = this.used;
    let s = 0;
    switch (metric) {
      case 'L2':
        for (; s + 4 <= used; s += 4) {
          const a0 = s * dims;
          const a1 = a0 + dims;
          const a2 = a1 + dims;
          const a3 = a2 + dims;
          let s0 = 0;
          let s1 = 0;
          let s2 = 0;
          let s3 = 0;
          for (let i = 0; i < dims; i++) {
            const y = q[i]!;
            const t0 = b[a0 + i]! - y;
            const t1 = b[a1 + i]! - y;
            const t2 = b[a2 + i]! - y;
            const t3 = b[a3 + i]! - y;
            s0 += t0 * t0;
            s1 += t1 * t1;
            s2 += t2 * t2;
            s3 += t3 * t3;
          }
          out[s] = Math.sqrt(s0);
          out[s + 1] = Math.sqrt(s1);
          out[s + 2] = Math.sqrt(s2);
          out[s + 3] = Math.sqrt(s3);
        }
        for (; s < used; s++) {
          let acc = 0;
          for (let i = 0, at = s * dims; i < dims; i++) {
            const t = b[at + i]! - q[i]!;
            acc += t * t;
          }
          out[s] = Math.sqrt(acc);
        }
        return;
      case 'DOT':
        for (; s + 4 <= used; s += 4) {
          const a0 = s * dims;
          const a1 = a0 + dims;
          const a2 = a1 + dims;
          const a3 = a2 + dims;
          let s0 = 0;
          let s1 = 0;
          let s2 = 0;
          let s3 = 0;
          for (let i = 0; i < dims; i++) {
            const y = q[i]!;
            s0 += b[a0 + i]! * y;
            s1 += b[a1 + i]! * y;
            s2 += b[a2 + i]! * y;
            s3 += b[a3 + i]! * y;
          }
          out[s] = -s0;
          out[s + 1] = -s1;
          out[s + 2] = -s2;
          out[s + 3] = -s3;
        }
        for (; s < used; s++) {
          let dot = 0;
          for (let i = 0, at = s * dims; i < dims; i++) dot += b[at + i]! * q[i]!;
          out[s] = -dot;
        }
        return;
      case 'COSINE': {
        // The query's sum of squares is the same in every row: summed once, in the same order.
        let nb = 0;
        for (let i = 0; i < dims; i++) nb += q[i]! * q[i]!;
        const cosine = (dot: number, na: number): number => (na === 0 || nb === 0 ? 1 : 1 - dot / Math.sqrt(na * nb));
        for (; s + 2 <= used; s += 2) {
          const a0 = s * dims;
          const a1 = a0 + dims;
          let d0 = 0;
          let d1 = 0;
          let n0 = 0;
          let n1 = 0;
          for (let i = 0; i < dims; i++) {
            const y = q[i]!;
            const x0 = b[a0 + i]!;
            const x1 = b[a1 + i]!;
            d0 += x0 * y;
            d1 += x1 * y;
            n0 += x0 * x0;
            n1 += x1 * x1;
          }
          out[s] = cosine(d0, n0);
          out[s + 1] = cosine(d1, n1);
        }
        for (; s < used; s++) {
          let dot = 0;
          let na = 0;
          for (let i = 0, at = s * dims; i < dims; i++) {
            const x = b[at + i]!;
            dot += x * q[i]!;
            na += x * x;
          }
          out[s] = cosine(dot, na);
        }
        return;
      }
      case 'L1':
        // An L1 index has no graph and so no list; measured one vector at a time.
        for (; s < used; s++) {
          let acc = 0;
          for (let i = 0, at = s * dims; i < dims; i++) acc += Math.abs(b[at + i]! - q[i]!);
          out[s] = acc;
        }
        return;
    }
  }
}
