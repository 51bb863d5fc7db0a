import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TckEngine } from './engine.js';
import { featureFiles, loadFeatures } from './features.js';
import { runCase } from './runner.js';
import { openWeftTckEngine } from './weft-engine.js';

/** Bound on one scenario; the scenarios are small queries over graphs of a few elements. */
const CASE_TIMEOUT_MS = 10_000;

/**
 * Weft's own scenarios in the TCK's step grammar (see the TCK's STEPS.md): every feature file under
 * `dir` is one test, run by the TCK runner against the embedded engine, and every scenario in it
 * must pass at the strict level (error type, phase and detail code all as written).
 */
export function describeFeatureFiles(title: string, dir: string): void {
  describe(title, () => {
    let engine: TckEngine;
    beforeAll(async () => {
      engine = await openWeftTckEngine();
    });
    afterAll(async () => {
      await engine.close?.();
    });

    for (const file of featureFiles(dir)) {
      const name = file.slice(dir.length + 1);
      it(name, async () => {
        const { cases } = loadFeatures(dir, `${name}|`);
        expect(cases.length).toBeGreaterThan(0);
        const failures: string[] = [];
        for (const c of cases) {
          const r = await runCase(c, engine, { graphsDir: dir, caseTimeoutMs: CASE_TIMEOUT_MS });
          if (r.outcomes.strict !== 'pass') failures.push(`${c.id} ${c.name}: ${r.message ?? r.outcomes.strict}`);
        }
        expect(failures).toEqual([]);
      }, 60_000);
    }
  });
}
