/**
 * A linearizability checker for a key-value store, in the style of Porcupine/Knossos: the history
 * is split per key (a map of registers is linearizable iff each register is: P-compositionality),
 * and each register's history is searched with the Wing-Gong algorithm plus Lowe's memoization of
 * (linearized set, state), with the prunings of checkRegister for writes of unknown outcome.
 */

import { assertNever } from '../../src/common/assert.js';

export interface Operation {
  readonly client: number;
  readonly kind: 'put' | 'get' | 'cas';
  readonly key: string;
  /** put and cas: the value written; get: the value observed (null when the key was absent). */
  readonly value: string | null;
  /** cas: the value the register must hold for the write to happen. */
  readonly expect?: string | null;
  /** cas: whether it wrote; absent when the outcome is unknown (then it wrote exactly if `expect` held). */
  readonly cas_outcome?: 'wrote' | 'refused';
  /** Logical times: every call and return of the run gets a distinct, increasing number. */
  readonly call: number;
  /** Infinity when the outcome is unknown (a put that timed out or whose member crashed). */
  readonly ret: number;
}

/**
 * `not_linearizable`: no order of the key's operations explains what they returned (a lost write shows
 * so). `undecided`: the search passed its bound first; a harness treats it as a failure, never a pass.
 */
export type LinearizabilityResult =
  | { readonly ok: true }
  | { readonly ok: false; readonly verdict: 'not_linearizable' | 'undecided'; readonly key: string; readonly ops: readonly Operation[] };

/** Bound on search steps per key: a history too tangled to decide fails loudly rather than hanging. */
export const search_steps_max = 5_000_000;

export function checkLinearizable(history: readonly Operation[], steps_max = search_steps_max): LinearizabilityResult {
  const by_key = new Map<string, Operation[]>();
  for (const op of history) {
    const list = by_key.get(op.key);
    if (list) list.push(op);
    else by_key.set(op.key, [op]);
  }
  for (const [key, ops] of [...by_key].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const verdict = checkRegister(ops, steps_max);
    if (verdict !== 'linearizable') return { ok: false, verdict, key, ops };
  }
  return { ok: true };
}

interface Node {
  readonly op: number;
  readonly is_call: boolean;
  /** For a call: its return node. */
  match: Node | undefined;
  prev: Node | undefined;
  next: Node | undefined;
}

/**
 * Register semantics: the state after `op`, or undefined when `op` cannot happen in `state`. A put
 * always succeeds; a get must observe the current value; a compare-and-set writes exactly when the
 * register holds its `expect`, so an answered one must agree with that and an unknown one follows it.
 */
function step(state: string | null, op: Operation): string | null | undefined {
  switch (op.kind) {
    case 'put':
      return op.value;
    case 'get':
      return op.value === state ? state : undefined;
    case 'cas': {
      const holds = state === (op.expect ?? null);
      if (op.cas_outcome === 'wrote') return holds ? op.value : undefined;
      if (op.cas_outcome === 'refused') return holds ? undefined : state;
      return holds ? op.value : state;
    }
    default:
      return assertNever(op.kind, 'operation kind');
  }
}

/**
 * The state a write leaves when nothing ever observes its value: no read returned it and no
 * compare-and-set expected it. Every such state behaves alike (reads fail, a compare-and-set is
 * refused), so they are one state to the memo.
 */
const UNOBSERVED = '\u0000unobserved';

/**
 * What makes one register's search finish on the histories chaos produces, where hundreds of writes
 * have an unknown outcome (a timeout, a killed member) and stay open to the end:
 * - A write of unknown outcome whose value an answered operation saw is placed by that one's return
 *   (forcedReturns); only writes nobody certainly saw stay open.
 * - A value leaves the register only once every operation that read it is placed (values are
 *   written once, so all its readers fall in its one stretch).
 * - An open write is placed only right before a refused compare-and-set (the one thing it can make
 *   possible) or an open compare-and-set that writes over it; anywhere else it could as well come last.
 * - An operation of unknown outcome can always take effect last (a put always can; a
 *   compare-and-set whose outcome is unknown writes or not as the state says). So once every
 *   operation with a known return is placed, the history is linearizable; and placing an unknown
 *   one where it changes nothing is never needed (the same order with it moved last works too).
 * - Unknown puts whose value nobody observed are interchangeable (same effect, open forever), and
 *   so are unknown compare-and-sets of one expected value whose value nobody observed: only the
 *   earliest called one of each class still open is tried.
 * - The memo key is a 64-bit hash of the placed set (an XOR of a random word pair per operation)
 *   and the state, instead of the whole set: a collision could only prune a branch (a false
 *   rejection), never accept a history that is not linearizable.
 */
function checkRegister(ops: readonly Operation[], steps_max: number): 'linearizable' | 'not_linearizable' | 'undecided' {
  const observed = new Set<string | null>([null]);
  for (const op of ops) {
    if (op.kind === 'get') observed.add(op.value);
    else if (op.kind === 'cas') observed.add(op.expect ?? null);
  }
  const canonical = (state: string | null): string | null => (state === null || observed.has(state) ? state : UNOBSERVED);
  // The register starts absent (null): a write of null writes it a second time.
  const written_twice = new Set<string | null>();
  const written = new Set<string | null>([null]);
  for (const op of ops) {
    if (op.kind === 'get') continue;
    if (written.has(op.value)) written_twice.add(op.value);
    written.add(op.value);
  }
  const ret = forcedReturns(ops);
  // A compare-and-set forced (its value was seen) wrote: had it not, its value would never have been there.
  const forced = ops.map((op, i): Operation => (op.kind === 'cas' && op.cas_outcome === undefined && op.ret === Infinity && ret[i] !== Infinity ? { ...op, cas_outcome: 'wrote' } : op));
  // A read never has an unknown outcome (a failed one is not recorded); one that did would be placed like any other.
  const unknown = ops.map((op, i) => ret[i] === Infinity && op.kind !== 'get');
  const known_total = unknown.filter((u) => !u).length;
  // Interchangeable unknown writes: class id per op (-1: none), each class's ops in call order.
  const class_of = new Int32Array(ops.length).fill(-1);
  const classes: number[][] = [];
  const class_ids = new Map<string, number>();
  const by_call = ops.map((_, i) => i).sort((a, b) => ops[a]!.call - ops[b]!.call || a - b);
  for (const i of by_call) {
    const op = ops[i]!;
    if (!unknown[i] || op.kind === 'get' || observed.has(op.value)) continue;
    const name = op.kind === 'put' ? 'put' : `cas:${op.expect ?? '\u0000null'}`;
    let id = class_ids.get(name);
    if (id === undefined) {
      id = classes.length;
      class_ids.set(name, id);
      classes.push([]);
    }
    class_of[i] = id;
    classes[id]!.push(i);
  }
  const class_done = new Int32Array(classes.length);

  // The event list in time order; returns at Infinity go last, in op order.
  const events: { time: number; node: Node }[] = [];
  ops.forEach((op, i) => {
    const ret_node: Node = { op: i, is_call: false, match: undefined, prev: undefined, next: undefined };
    const call: Node = { op: i, is_call: true, match: ret_node, prev: undefined, next: undefined };
    events.push({ time: op.call, node: call }, { time: ret[i]!, node: ret_node });
  });
  events.sort((a, b) => a.time - b.time || (a.node.is_call === b.node.is_call ? a.node.op - b.node.op : a.node.is_call ? -1 : 1));
  const head: Node = { op: -1, is_call: false, match: undefined, prev: undefined, next: undefined };
  let tail = head;
  for (const e of events) {
    e.node.prev = tail;
    tail.next = e.node;
    tail = e.node;
  }

  const lift = (n: Node): void => {
    n.prev!.next = n.next;
    if (n.next) n.next.prev = n.prev;
    const m = n.match!;
    m.prev!.next = m.next;
    if (m.next) m.next.prev = m.prev;
  };
  const unlift = (n: Node): void => {
    const m = n.match!;
    m.prev!.next = m;
    if (m.next) m.next.prev = m;
    n.prev!.next = n;
    if (n.next) n.next.prev = n;
  };

  // Two 32-bit words per operation, fixed by its index, so a run replays exactly.
  const words = new Uint32Array(ops.length * 2);
  for (let i = 0; i < words.length; i++) words[i] = mix32(i + 1);
  let h1 = 0;
  let h2 = 0;
  const toggle = (i: number): void => {
    h1 ^= words[2 * i]!;
    h2 ^= words[2 * i + 1]!;
  };
  const cache = new Set<string>();
  const stack: { node: Node; state: string | null; after_open: boolean }[] = [];
  let state: string | null = null;
  let known_placed = 0;
  let entry = head.next;
  // Every value is in the register for one stretch (written once), so every operation that read it
  // (a read, a compare-and-set that wrote over it) comes within that stretch: the register may leave
  // a value only once all its readers are placed. (A value written twice is not held to this.)
  const readers_total = new Map<string | null, number>();
  const reads = ops.map((op, i): string | null | undefined => {
    if (unknown[i] && op.kind !== 'cas') return undefined;
    const v = op.kind === 'get' ? op.value : forced[i]!.kind === 'cas' && forced[i]!.cas_outcome === 'wrote' ? (op.expect ?? null) : undefined;
    if (v === undefined || written_twice.has(v)) return undefined;
    readers_total.set(v, (readers_total.get(v) ?? 0) + 1);
    return v;
  });
  const readers_placed = new Map<string | null, number>();
  const mayLeave = (value: string | null, by: number): boolean => (readers_total.get(value) ?? 0) === (readers_placed.get(value) ?? 0) + (reads[by] === value ? 1 : 0);
  /** Set while the last placement was an open write: the next one must be what it was placed for. */
  let after_open = false;
  for (let steps = 0; known_placed < known_total; ) {
    if (steps > steps_max) return 'undecided';
    if (entry === undefined) return 'not_linearizable';
    if (entry.is_call) {
      const i = entry.op;
      const op = forced[i]!;
      const cls = class_of[i]!;
      const next = step(state, op);
      const candidate =
        next !== undefined &&
        // An unknown operation that changes nothing here can as well come last (see above).
        !(unknown[i] && canonical(next) === state) &&
        // Only the earliest open one of its interchangeable class.
        (cls < 0 || classes[cls]![class_done[cls]!] === i) &&
        // An open write placed is followed by a refused compare-and-set, or an open one that writes over it.
        (!after_open || (op.kind === 'cas' && (op.cas_outcome === 'refused' || (unknown[i] && canonical(next) !== state)))) &&
        (canonical(next) === state || mayLeave(state, i));
      if (candidate) {
        const next_state = canonical(next);
        toggle(i);
        const key = `${h1}:${h2}|${unknown[i] ? 'o' : ''}|${next_state}`;
        if (!cache.has(key)) {
          cache.add(key);
          steps++;
          stack.push({ node: entry, state, after_open });
          state = next_state;
          after_open = unknown[i]!;
          if (!unknown[i]) known_placed++;
          if (cls >= 0) class_done[cls]!++;
          const r = reads[i];
          if (r !== undefined) readers_placed.set(r, (readers_placed.get(r) ?? 0) + 1);
          lift(entry);
          entry = head.next;
          continue;
        }
        toggle(i);
      }
      entry = entry.next;
    } else {
      // A return whose operation is not linearized yet (or an open write nothing could follow): undo the last choice.
      const top = stack.pop();
      if (!top) return 'not_linearizable';
      steps++;
      const i = top.node.op;
      state = top.state;
      after_open = top.after_open;
      toggle(i);
      if (!unknown[i]) known_placed--;
      if (class_of[i]! >= 0) class_done[class_of[i]!]!--;
      const r = reads[i];
      if (r !== undefined) readers_placed.set(r, readers_placed.get(r)! - 1);
      unlift(top.node);
      entry = top.node.next;
    }
  }
  return 'linearizable';
}

/**
 * The return by which each operation must have taken effect: its own, or, for a write of unknown
 * outcome whose value something certainly saw, the return of the first one that did. With every
 * value written once, a read that returned v, or a compare-and-set that wrote over v, came after
 * v's only writer, so that writer took effect before the reader returned: it is no longer open to
 * the end of the history, and the search places it like an answered one. A compare-and-set so
 * forced wrote, so the writer of the value it expected is forced too, by the same return.
 * (A value written twice forces nothing.) Returns are logical times; a forced one is placed just
 * after the return that forced it.
 */
function forcedReturns(ops: readonly Operation[]): number[] {
  const ret = ops.map((op) => op.ret);
  const writers = new Map<string, number>();
  const twice = new Set<string>();
  ops.forEach((op, i) => {
    if (op.kind === 'get' || op.value === null) return;
    if (writers.has(op.value)) twice.add(op.value);
    writers.set(op.value, i);
  });
  // Seen by: value -> the earliest return of an operation that certainly observed it.
  const force = (value: string | null | undefined, by: number, work: number[]): void => {
    if (value === null || value === undefined || twice.has(value)) return;
    const w = writers.get(value);
    if (w === undefined || ret[w]! <= by + 0.5) return;
    ret[w] = by + 0.5;
    if (ops[w]!.kind === 'cas') work.push(w);
  };
  const work: number[] = [];
  ops.forEach((op) => {
    if (op.ret === Infinity) return;
    if (op.kind === 'get') force(op.value, op.ret, work);
    else if (op.kind === 'cas' && op.cas_outcome === 'wrote') force(op.expect, op.ret, work);
  });
  // A forced compare-and-set (it wrote) forces the writer of what it expected, transitively.
  for (let w = work.pop(); w !== undefined; w = work.pop()) force(ops[w]!.expect, ret[w]!, work);
  return ret;
}

/** A fixed 32-bit mix of `x` (murmur3's finalizer). */
function mix32(x: number): number {
  let z = x >>> 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
  return (z ^ (z >>> 16)) >>> 0;
}
