/**
 * Runs the openCypher TCK against Weft's engine and reports three pass levels.
 *
 *   npx tsx scripts/tck.ts [--features <dir>] [--graphs <dir>] [--json <file>] [--filter <substring>]
 *                          [--engine weft|literal] [--case-timeout-ms <n>]
 *
 * `--engine literal` runs the graph-free fixture engine of test/functions (expressions over literals,
 * node-only CREATE and MATCH): a check of the function library and of this runner before the real
 * engine exists. Everything it cannot run counts as failed.
 * Defaults: features `<repo>/../shared/tck/features`, graphs `<features>/../graphs`.
 * Prints `tck: N passed, M failed` (strict level), the other levels, and per-folder totals; with
 * `--json` writes every case's outcome keyed by `path|n|exampleRowIndex` plus the totals.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TckEngine } from '../test/tck/engine.js';
import { loadFeatures } from '../test/tck/features.js';
import { buildReport, formatReport } from '../test/tck/report.js';
import { CASE_TIMEOUT_MS_DEFAULT, runCase, type CaseResult } from '../test/tck/runner.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function option(args: readonly string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const v = args[i + 1];
  if (v === undefined || v.startsWith('--')) throw new Error(`${name} needs a value`);
  return v;
}

/** The engine under test: the adapter over the embedded API, once that API exists. */
async function openEngine(kind: string): Promise<TckEngine> {
  if (kind === 'literal') {
    const { LiteralEngine } = await import('../test/functions/literal-engine.js');
    return new LiteralEngine();
  }
  if (kind !== 'weft') throw new Error(`unknown engine ${kind} (weft or literal)`);
  const adapter = join(repo, 'test', 'tck', 'weft-engine.ts');
  try {
    const mod = (await import(adapter)) as { openWeftTckEngine?: () => Promise<TckEngine> };
    if (mod.openWeftTckEngine !== undefined) return await mod.openWeftTckEngine();
  } catch (e) {
    if (!(e instanceof Error && /Cannot find module|ERR_MODULE_NOT_FOUND/.test(`${(e as { code?: string }).code ?? ''} ${e.message}`))) throw e;
  }
  throw new Error('no engine adapter: test/tck/weft-engine.ts (exporting openWeftTckEngine) does not exist yet');
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const features = resolve(option(args, '--features') ?? join(repo, '..', 'shared', 'tck', 'features'));
  const graphs = resolve(option(args, '--graphs') ?? join(features, '..', 'graphs'));
  const jsonOut = option(args, '--json');
  const filter = option(args, '--filter');
  const timeout = option(args, '--case-timeout-ms');
  const caseTimeoutMs = timeout === undefined ? CASE_TIMEOUT_MS_DEFAULT : Number(timeout);
  if (!(caseTimeoutMs > 0)) throw new Error('--case-timeout-ms must be a positive number');
  const loaded = loadFeatures(features, filter);
  const engine = await openEngine(option(args, '--engine') ?? 'weft');
  const results: CaseResult[] = [];
  try {
    for (const c of loaded.cases) results.push(await runCase(c, engine, { graphsDir: graphs, caseTimeoutMs }));
  } finally {
    await engine.close?.();
  }
  const report = buildReport(features, loaded.rawScenarios, loaded.skipped, results);
  console.log(formatReport(report));
  if (jsonOut !== undefined) writeFileSync(jsonOut, `${JSON.stringify(report, null, 2)}\n`);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 2;
});
