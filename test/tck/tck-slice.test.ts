import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { prng } from '../support/prng.js';
import { loadFeatures, type TckCase } from './features.js';
import { runCase, type CaseResult } from './runner.js';
import { openWeftTckEngine } from './weft-engine.js';

/**
 * A fixed, representative slice of the openCypher TCK run on every test run: a seeded sample of the
 * expanded scenarios of every feature folder (at least a few from each, more from large folders), so a
 * regression anywhere in the language shows here without the full run (`npx tsx scripts/tck.ts`).
 * The strict pass rate may not fall below the committed floor; raise the floor as the engine improves.
 */
const SLICE_SEED = 20_260_522;
/** Fraction of each folder's scenarios in the slice, and the least taken from any folder. */
const SLICE_FRACTION = 0.15;
const SLICE_PER_FOLDER_MIN = 4;
/** Strict pass rate of the slice at the last raise; a lower rate fails the test. */
const STRICT_PASS_RATE_FLOOR = 1.0;

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const features = resolve(process.env['WEFT_TCK_FEATURES'] ?? join(repo, '..', 'shared', 'tck', 'features'));
const graphs = join(features, '..', 'graphs');

function folderOf(c: TckCase): string {
  return c.path.split('/').slice(0, 2).join('/');
}

/** The slice: per folder, a seeded shuffle of its cases, the first SLICE_FRACTION of them (at least the minimum). */
function slice(cases: readonly TckCase[]): TckCase[] {
  const random = prng(SLICE_SEED);
  const byFolder = new Map<string, TckCase[]>();
  for (const c of cases) {
    const list = byFolder.get(folderOf(c)) ?? [];
    list.push(c);
    byFolder.set(folderOf(c), list);
  }
  const out: TckCase[] = [];
  for (const folder of [...byFolder.keys()].sort()) {
    const list = [...(byFolder.get(folder) as TckCase[])];
    for (let i = list.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [list[i], list[j]] = [list[j] as TckCase, list[i] as TckCase];
    }
    out.push(...list.slice(0, Math.max(SLICE_PER_FOLDER_MIN, Math.ceil(list.length * SLICE_FRACTION))));
  }
  return out;
}

describe('openCypher TCK slice against the embedded engine', () => {
  it(`keeps a strict pass rate of at least ${STRICT_PASS_RATE_FLOOR}`, async () => {
    const cases = slice(loadFeatures(features).cases);
    const engine = await openWeftTckEngine();
    const results: CaseResult[] = [];
    try {
      for (const c of cases) results.push(await runCase(c, engine, { graphsDir: graphs, caseTimeoutMs: 10_000 }));
    } finally {
      await engine.close?.();
    }
    const failed = results.filter((r) => r.outcomes.strict !== 'pass');
    for (const f of failed) console.log(`tck slice: ${f.id} ${f.outcomes.strict}: ${f.message ?? ''}`);
    const rate = (results.length - failed.length) / results.length;
    console.log(`tck slice: ${results.length - failed.length}/${results.length} strict (${(rate * 100).toFixed(1)}%)`);
    expect(results.length).toBeGreaterThan(300);
    expect(rate).toBeGreaterThanOrEqual(STRICT_PASS_RATE_FLOOR);
  }, 120_000);
});
