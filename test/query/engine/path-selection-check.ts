import { expect } from 'vitest';
import type { Db } from '../../../src/index.js';

/*
 * What a path selector must keep, checked against every match of the same pattern without one: the
 * path selector tests (path-selector-search.test.ts, path-selector-parts.test.ts) compare the two on
 * seeded random graphs built here.
 */

/** One returned match: its partition, its length, and what identifies it (relationships, group values). */
export interface Match {
  readonly partition: string;
  readonly length: number;
  readonly key: string;
}

/** What a match returns; `ys` lists a group variable's values where the pattern has one. */
export const returned = (ys: string): string => `RETURN id(a) AS a, id(b) AS b, length(p) AS length, [e IN relationships(p) | id(e)] AS rels, ${ys} AS ys`;

export function matches(rows: readonly (readonly unknown[])[]): Match[] {
  return rows.map((r) => ({ partition: `${r[0]}:${r[1]}`, length: Number(r[2]), key: JSON.stringify([r[0], r[1], r[3], r[4]], (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v)) }));
}

export function byPartition(list: readonly Match[]): Map<string, Match[]> {
  const out = new Map<string, Match[]>();
  for (const m of list) out.set(m.partition, [...(out.get(m.partition) ?? []), m]);
  return out;
}

/** Checks `got` (the selector's answer) against `all` (every match), for selector `kind` with count `k`. */
export function checkSelection(all: readonly Match[], got: readonly Match[], kind: 'shortest' | 'groups' | 'any', k: number, context: string): void {
  const everything = new Set(all.map((m) => m.key));
  for (const m of got) expect(everything.has(m.key), `${context}: ${m.key} is a match`).toBe(true);
  expect(new Set(got.map((m) => m.key)).size, `${context}: no path twice`).toBe(got.length);
  const mine = byPartition(got);
  for (const [partition, list] of byPartition(all)) {
    const sorted = list.map((m) => m.length).sort((a, b) => a - b);
    const kept = mine.get(partition) ?? [];
    switch (kind) {
      case 'shortest':
        expect(kept.map((m) => m.length).sort((a, b) => a - b), `${context}, ${partition}`).toEqual(sorted.slice(0, k));
        break;
      case 'groups': {
        const lengths = new Set([...new Set(sorted)].slice(0, k));
        expect(kept.map((m) => m.key).sort(), `${context}, ${partition}`).toEqual(list.filter((m) => lengths.has(m.length)).map((m) => m.key).sort());
        break;
      }
      case 'any':
        expect(kept.length, `${context}, ${partition}`).toBe(Math.min(k, list.length));
        break;
    }
  }
  for (const partition of mine.keys()) expect(byPartition(all).has(partition), `${context}: ${partition} has matches`).toBe(true);
}

export async function randomGraph(db: Db, r: () => number, nodes: number, rels: number): Promise<void> {
  await db.query('UNWIND range(0, $n - 1) AS i CREATE (:V {i: i, k: i % 3})', { n: BigInt(nodes) });
  for (let e = 0; e < rels; e++) {
    const a = BigInt(Math.floor(r() * nodes));
    const b = BigInt(Math.floor(r() * nodes));
    await db.query(`MATCH (a:V {i: $a}), (b:V {i: $b}) CREATE (a)-[:${r() < 0.6 ? 'R' : 'S'} {w: $w}]->(b)`, { a, b, w: BigInt(Math.floor(r() * 3)) });
  }
}
