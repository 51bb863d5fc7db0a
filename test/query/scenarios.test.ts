import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TckEngine } from '../tck/engine.js';
import { featureFiles, loadFeatures } from '../tck/features.js';
import { runCase } from '../tck/runner.js';
import { openWeftTckEngine } from '../tck/weft-engine.js';

/**
 * Scenarios of the query engine's statements beyond openCypher 9 (keywords as names, the forms of
 * `CALL { } IN TRANSACTIONS`, the SHOW commands, LOAD CSV): feature files under ./features in the TCK's
 * step grammar, run by the TCK runner against the embedded engine as test/conformance runs its own. Each
 * file is one test; every scenario must pass at the strict level. LOAD CSV reads its `file:///` URLs
 * from ./features/csv.
 */
const FEATURES_DIR = join(dirname(fileURLToPath(import.meta.url)), 'features');
const CSV_DIR = join(FEATURES_DIR, 'csv');
/** Bound on one scenario; the scenarios are small queries over graphs of a few elements. */
const CASE_TIMEOUT_MS = 10_000;

describe('query engine scenarios against the embedded engine', () => {
  let engine: TckEngine;
  beforeAll(async () => {
    engine = await openWeftTckEngine({ load_csv_import_dir: CSV_DIR });
  });
  afterAll(async () => {
    await engine.close?.();
  });

  for (const file of featureFiles(FEATURES_DIR)) {
    const name = file.slice(FEATURES_DIR.length + 1);
    it(name, async () => {
      const { cases } = loadFeatures(FEATURES_DIR, `${name}|`);
      expect(cases.length).toBeGreaterThan(0);
      const failures: string[] = [];
      for (const c of cases) {
        const r = await runCase(c, engine, { graphsDir: FEATURES_DIR, caseTimeoutMs: CASE_TIMEOUT_MS });
        if (r.outcomes.strict !== 'pass') failures.push(`${c.id} ${c.name}: ${r.message ?? r.outcomes.strict}`);
      }
      expect(failures).toEqual([]);
    }, 60_000);
  }
});
