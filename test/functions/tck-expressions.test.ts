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

async function runFolder(folder: string): Promise<{ passed: number; failures: string[] }> {
  const loaded = loadFeatures(join(tck, 'features'), folder);
  const engine = new LiteralEngine();
  let passed = 0;
  const failures: string[] = [];
  for (const c of loaded.cases) {
    if (c.steps.some((s) => /should be raised at compile time/.test(s.text))) continue;
    const r = await runCase(c, engine, { graphsDir: join(tck, 'graphs') });
    if (r.message !== undefined && /Unsupported/.test(r.message)) continue;
    if (r.outcomes.strict === 'pass') passed++;
    else failures.push(`${c.id}: ${r.message ?? 'failed'}`);
  }
  return { passed, failures };
}

describe('the function library against TCK cases that need no graph engine', () => {
  it('passes every runnable expressions/ case', async () => {
    const r = await runFolder('expressions/');
    expect(r.failures).toEqual([]);
    expect(r.passed).toBeGreaterThanOrEqual(1761);
  });

  it('passes every runnable temporal case (constructors, accessors, comparison, arithmetic, truncation)', async () => {
    const r = await runFolder('expressions/temporal/');
    expect(r.failures).toEqual([]);
    expect(r.passed).toBeGreaterThanOrEqual(803);
  });

  it('passes every runnable clauses/ case', async () => {
    const r = await runFolder('clauses/');
    expect(r.failures).toEqual([]);
    expect(r.passed).toBeGreaterThanOrEqual(237);
  });
});
