import { LEVELS, type CaseResult, type Level } from './runner.js';

/** Totals of a run, overall and per feature folder, and the per-case file written with `--json`. */
export interface LevelTotals {
  passed: number;
  failed: number;
}

export interface RunReport {
  readonly features: string;
  readonly expandedScenarios: number;
  readonly rawScenarios: number;
  readonly skipped: readonly string[];
  readonly harnessErrors: number;
  readonly totals: Record<Level, LevelTotals>;
  readonly folders: Record<string, Record<Level, LevelTotals>>;
  readonly scenarios: Record<string, { strict: string; type: string; lenient: string; message?: string }>;
}

function emptyTotals(): Record<Level, LevelTotals> {
  return { strict: { passed: 0, failed: 0 }, type: { passed: 0, failed: 0 }, lenient: { passed: 0, failed: 0 } };
}

export function buildReport(features: string, rawScenarios: number, skipped: readonly string[], results: readonly CaseResult[]): RunReport {
  const totals = emptyTotals();
  const folders: Record<string, Record<Level, LevelTotals>> = {};
  const scenarios: RunReport['scenarios'] = {};
  let harnessErrors = 0;
  for (const r of results) {
    const path = r.id.split('|')[0] ?? '';
    const folder = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '.';
    const f = (folders[folder] ??= emptyTotals());
    if (r.outcomes.strict === 'harness-error') harnessErrors++;
    for (const level of LEVELS) {
      const ok = r.outcomes[level] === 'pass';
      totals[level][ok ? 'passed' : 'failed']++;
      f[level][ok ? 'passed' : 'failed']++;
    }
    scenarios[r.id] = { ...r.outcomes, ...(r.message === undefined ? {} : { message: r.message }) };
  }
  return { features, expandedScenarios: results.length, rawScenarios, skipped, harnessErrors, totals, folders, scenarios };
}

export function formatReport(r: RunReport): string {
  const lines: string[] = [];
  const t = r.totals;
  lines.push(`tck: ${t.strict.passed} passed, ${t.strict.failed} failed`);
  lines.push(
    `levels: strict ${t.strict.passed}/${r.expandedScenarios}, type ${t.type.passed}/${r.expandedScenarios}, lenient ${t.lenient.passed}/${r.expandedScenarios}`,
  );
  lines.push(
    `scenarios: ${r.expandedScenarios} expanded from ${r.rawScenarios} raw; ${r.harnessErrors} harness errors (counted as failures); ${r.skipped.length} skipped by @ignore`,
  );
  const width = Math.max(0, ...Object.keys(r.folders).map((k) => k.length));
  for (const [folder, f] of Object.entries(r.folders).sort(([a], [b]) => a.localeCompare(b))) {
    const n = f.strict.passed + f.strict.failed;
    lines.push(`  ${folder.padEnd(width)}  strict ${f.strict.passed}/${n}  type ${f.type.passed}/${n}  lenient ${f.lenient.passed}/${n}`);
  }
  return lines.join('\n');
}
