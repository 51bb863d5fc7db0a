/**
 * A linearizability checker for a key-value store, in the style of Porcupine/Knossos: the history
 * is split per key (a map of registers is linearizable iff each register is), and each register's
 * history is searched with the Wing-Gong algorithm plus Lowe's memoization of (linearized set, state).
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

export type LinearizabilityResult = { readonly ok: true } | { readonly ok: false; readonly key: string; readonly ops: readonly Operation[] };

/** Bound on search steps per key: a history too tangled to decide fails loudly rather than hanging. */
const SEARCH_STEPS_MAX = 5_000_000;

export function checkLinearizable(history: readonly Operation[]): LinearizabilityResult {
  const by_key = new Map<string, Operation[]>();
  for (const op of history) {
    const list = by_key.get(op.key);
    if (list) list.push(op);
    else by_key.set(op.key, [op]);
  }
  for (const [key, ops] of [...by_key].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    if (!checkRegister(ops)) return { ok: false, key, ops };
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

function checkRegister(ops: readonly Operation[]): boolean {
  // The event list in time order; returns at Infinity go last, in op order.
  const events: { time: number; node: Node }[] = [];
  ops.forEach((op, i) => {
    const ret: Node = { op: i, is_call: false, match: undefined, prev: undefined, next: undefined };
    const call: Node = { op: i, is_call: true, match: ret, prev: undefined, next: undefined };
    events.push({ time: op.call, node: call }, { time: op.ret, node: ret });
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

  const words = new Uint32Array(Math.ceil(ops.length / 32) + 1);
  const toggle = (i: number): void => {
    words[i >>> 5]! ^= 1 << (i & 31);
  };
  const cache = new Set<string>();
  const stack: { node: Node; state: string | null }[] = [];
  let state: string | null = null;
  let entry = head.next;
  for (let steps = 0; head.next !== undefined; steps++) {
    if (steps > SEARCH_STEPS_MAX) throw new Error(`linearizability search passed ${SEARCH_STEPS_MAX} steps`);
    if (entry === undefined) return false;
    if (entry.is_call) {
      const next_state = step(state, ops[entry.op]!);
      if (next_state !== undefined) {
        toggle(entry.op);
        const key = `${words.join(',')}|${next_state}`;
        if (!cache.has(key)) {
          cache.add(key);
          stack.push({ node: entry, state });
          state = next_state;
          lift(entry);
          entry = head.next;
          continue;
        }
        toggle(entry.op);
      }
      entry = entry.next;
    } else {
      // A return whose operation is not linearized yet: undo the last choice.
      const top = stack.pop();
      if (!top) return false;
      state = top.state;
      toggle(top.node.op);
      unlift(top.node);
      entry = top.node.next;
    }
  }
  return true;
}
