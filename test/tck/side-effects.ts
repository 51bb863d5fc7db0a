import { toJsonValue } from '../../src/query/values/convert.js';
import type { Value } from '../../src/common/values/value.js';
import type { TckGraphState } from './engine.js';

/** The eight side-effect counters of the TCK, computed from the graph state before and after a query. */
export const SIDE_EFFECT_KEYS = [
  '+nodes',
  '-nodes',
  '+relationships',
  '-relationships',
  '+properties',
  '-properties',
  '+labels',
  '-labels',
] as const;
export type SideEffectKey = (typeof SIDE_EFFECT_KEYS)[number];
export type SideEffects = Record<SideEffectKey, number>;

export function zeroSideEffects(): SideEffects {
  return Object.fromEntries(SIDE_EFFECT_KEYS.map((k) => [k, 0])) as SideEffects;
}

/**
 * Only observable changes count: nodes and relationships by id sets, labels as the set of distinct label
 * names present in the graph, properties as the multiset of (element, key, value) triples, so changing
 * a value counts one removal and one addition and setting the same value counts nothing.
 */
export function sideEffects(before: TckGraphState, after: TckGraphState): SideEffects {
  const nodes = setDiff(new Set(before.nodes.keys()), new Set(after.nodes.keys()));
  const rels = setDiff(new Set(before.relationships.keys()), new Set(after.relationships.keys()));
  const labels = setDiff(labelSet(before), labelSet(after));
  const props = multisetDiff(propertyTriples(before), propertyTriples(after));
  return {
    '+nodes': nodes.added,
    '-nodes': nodes.removed,
    '+relationships': rels.added,
    '-relationships': rels.removed,
    '+properties': props.added,
    '-properties': props.removed,
    '+labels': labels.added,
    '-labels': labels.removed,
  };
}

function labelSet(s: TckGraphState): Set<string> {
  const out = new Set<string>();
  for (const n of s.nodes.values()) for (const l of n.labels) out.add(l);
  return out;
}

function valueKey(v: Value): string {
  return JSON.stringify(toJsonValue(v));
}

function propertyTriples(s: TckGraphState): Map<string, number> {
  const out = new Map<string, number>();
  const add = (k: string): void => {
    out.set(k, (out.get(k) ?? 0) + 1);
  };
  for (const [id, n] of s.nodes) for (const [key, v] of n.properties) add(`n${id}\u0000${key}\u0000${valueKey(v)}`);
  for (const [id, r] of s.relationships) for (const [key, v] of r.properties) add(`r${id}\u0000${key}\u0000${valueKey(v)}`);
  return out;
}

function setDiff<T>(before: Set<T>, after: Set<T>): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const x of after) if (!before.has(x)) added++;
  for (const x of before) if (!after.has(x)) removed++;
  return { added, removed };
}

function multisetDiff(before: Map<string, number>, after: Map<string, number>): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const [k, n] of after) added += Math.max(0, n - (before.get(k) ?? 0));
  for (const [k, n] of before) removed += Math.max(0, n - (after.get(k) ?? 0));
  return { added, removed };
}
