import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadFeatures } from '../tck/features.js';
import { runCase } from '../tck/runner.js';
import { LiteralEngine } from './literal-engine.js';

/**
 * The function library and value operators against the TCK itself, before the engine exists: every
 * case the graph-free fixture engine can run (literals, parameters, UNWIND/WITH/RETURN, node-only
 * CREATE and MATCH) must pass strictly. Cases needing relationships, the binder's compile-time checks
 * or other clauses are left to the real engine; the counts below keep this from quietly shrinking.
 */
const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const tck = join(repo, '..', 'shared', 'tck');

async function runAll(): Promise<{ passed: Map<string, number>; failures: string[] }> {
  const loaded = loadFeatures(join(tck, 'features'));
  const engine = new LiteralEngine();
  const passed = new Map<string, number>();
  const failures: string[] = [];
  for (const c of loaded.cases) {
    if (c.steps.some((s) => /should be raised at compile time/.test(s.text))) continue;
    const r = await runCase(c, engine, { graphsDir: join(tck, 'graphs') });
    if (r.message !== undefined && /Unsupported/.test(r.message)) continue;
    const folder = c.path.slice(0, c.path.lastIndexOf('/'));
    if (r.outcomes.strict === 'pass') passed.set(folder, (passed.get(folder) ?? 0) + 1);
    else failures.push(`${c.id}: ${r.message ?? 'failed'}`);
  }
  return { passed, failures };
}

describe('the function library against TCK cases that need no graph engine', () => {
  it('passes every case the fixture engine can run', async () => {
    const r = await runAll();
    expect(r.failures).toEqual([]);
    const total = (prefix: string): number => [...r.passed].filter(([f]) => f.startsWith(prefix)).reduce((n, [, k]) => n + k, 0);
    // Every temporal case runs here: constructors, accessors, comparison, arithmetic, truncation.
    expect(total('expressions/temporal')).toBe(803);
    expect(total('expressions/')).toBeGreaterThanOrEqual(1770);
    expect(total('clauses/')).toBeGreaterThanOrEqual(237);
  });
});
