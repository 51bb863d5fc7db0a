import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open, type Db, type OpenOptions } from '../../../src/index.js';
import type { QueryPlan } from '../../../src/query/plan/explain.js';

/** A database in a fresh temp directory, closed and removed after `body`. */
export async function withDb<T>(body: (db: Db) => Promise<T>, options: OpenOptions = {}): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-engine-test-'));
  const db = await open(dir, options);
  try {
    return await body(db);
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Operator names of a plan, depth first (root first). */
export function operators(plan: QueryPlan): string[] {
  return [plan.operator, ...plan.children.flatMap(operators)];
}

/** The first operator of a plan with this name, depth first. */
export function find(plan: QueryPlan, operator: string): QueryPlan | undefined {
  if (plan.operator === operator) return plan;
  for (const c of plan.children) {
    const f = find(c, operator);
    if (f !== undefined) return f;
  }
  return undefined;
}

/** Rows as plain JSON-comparable text (bigints, maps and references spelled out), sorted for multiset comparison. */
export function canonical(rows: readonly (readonly unknown[])[], ordered = false): string[] {
  const text = rows.map((r) => JSON.stringify(r, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v instanceof Map ? Object.fromEntries(v) : v)));
  return ordered ? text : text.sort();
}
