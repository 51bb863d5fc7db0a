import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Value } from '../../../src/common/values/value.js';
import { open, type Db, type OpenOptions } from '../../../src/index.js';
import type { GraphReader } from '../../../src/projections/graph/view.js';
import type { ExecuteContext, QueryEngine } from '../../../src/query/engine.js';
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

/** A statement's rows in order, or the code of the error it raised. */
export type Outcome = { readonly rows: string[] } | { readonly error: string };

/**
 * `text` run by `engine` on `graph` with `params`: its rows in order, -0.0, NaN and the infinities spelled out
 * (JSON would write 0 and null), or its error's code; for comparing a batched engine with a row-at-a-time one.
 */
export function outcome(engine: QueryEngine, text: string, graph: GraphReader, params: ReadonlyMap<string, Value>): Outcome {
  const ctx: ExecuteContext = { params, memory_limit_bytes: 1 << 28, now_us: 0 };
  try {
    const spell = (v: unknown): unknown => (typeof v === 'number' && (Object.is(v, -0) || !Number.isFinite(v)) ? `float ${Object.is(v, -0) ? '-0' : String(v)}` : v);
    return { rows: canonical(engine.execute(engine.prepare(text), graph, ctx).rows.map((row) => row.map(spell)), true) };
  } catch (e) {
    return { error: (e as { code?: string }).code ?? (e as Error).name };
  }
}
