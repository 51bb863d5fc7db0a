import { parseCommandFlags } from '../../src/cli/certs-command.js';
import { type ChaosOptions, default_chaos_options, runChaos } from './chaos-run.js';
import { all_faults, type FaultKind } from './faults.js';

/**
 * `npm run chaos -- --seed N --members M --rounds R [--workload rw|cas] [--round-ms MS] [--clients C] [--registers K] [--run-ms-max MS]
 *   [--faults kind,kind,...] [--member-settings name=value,...] [--disk-mb MB]`
 * Prints every fault as it happens and a summary; exits 1 when the history is not linearizable.
 * The same seed replays the same schedule of operations and faults.
 */
function faultsOf(list: string): FaultKind[] {
  const kinds = list.split(',').map((k) => k.trim()).filter((k) => k !== '');
  for (const k of kinds) if (!(all_faults as readonly string[]).includes(k)) throw new Error(`--faults: unknown fault '${k}'; one of ${all_faults.join(', ')}`);
  if (kinds.length === 0) throw new Error('--faults names no fault');
  return kinds as FaultKind[];
}

/** `name=value,name=value` (no spaces, which npm's argument passing would split) as member flags `--name value`. */
function memberArgsOf(list: string): string[] {
  return list.split(',').filter((p) => p !== '').flatMap((pair) => {
    const [name, value, ...rest] = pair.split('=');
    if (name === undefined || value === undefined || rest.length > 0) throw new Error(`--member-settings: '${pair}' is not name=value`);
    return [`--${name}`, value];
  });
}

function workloadOf(name: string): ChaosOptions['workload'] {
  if (name === 'rw' || name === 'cas') return name;
  throw new Error(`--workload must be rw or cas, got '${name}'`);
}

/** Size of each member's disk in a run with `diskfull`: two 64 MiB segments (one a spare) and checkpoints. */
const default_disk_mb = 256;

async function main(): Promise<number> {
  const flags = parseCommandFlags(process.argv.slice(2));
  const number = (name: string, fallback: number): number => {
    const raw = flags.get(name);
    const n = raw === undefined ? fallback : Number(raw);
    if (!Number.isSafeInteger(n) || n < 0) throw new Error(`--${name} must be a whole number, got '${raw}'`);
    return n;
  };
  const seed = number('seed', Math.floor(Math.random() * 2 ** 31));
  const options: ChaosOptions = {
    seed,
    members: number('members', default_chaos_options.members),
    rounds: number('rounds', default_chaos_options.rounds),
    round_ms: number('round-ms', default_chaos_options.round_ms),
    clients: number('clients', default_chaos_options.clients),
    registers: number('registers', default_chaos_options.registers),
    run_ms_max: number('run-ms-max', default_chaos_options.run_ms_max),
    workload: workloadOf(flags.get('workload') ?? default_chaos_options.workload),
    ...(flags.get('faults') !== undefined ? { faults: faultsOf(flags.get('faults')!) } : {}),
    ...(flags.get('member-settings') !== undefined ? { member_args: memberArgsOf(flags.get('member-settings')!) } : {}),
    // A run that fills disks puts each member on a tmpfs of its own: 256 MiB unless named.
    ...(flags.get('disk-mb') !== undefined || flags.get('faults')?.includes('diskfull') === true ? { disk_bytes: number('disk-mb', default_disk_mb) * 1024 * 1024 } : {}),
    log: (line) => process.stdout.write(`${line}\n`),
  };
  process.stdout.write(`chaos: seed ${seed} (replay with --seed ${seed}), ${options.members} member(s), ${options.rounds} rounds of ${options.round_ms} ms\n`);
  const report = await runChaos(options);
  const rows: [string, string][] = [
    ['seed', String(report.seed)],
    ['members', String(report.members)],
    ['workload', options.workload],
    ['rounds done', String(report.rounds_done)],
    ['faults', Object.entries(report.faults).map(([k, n]) => `${k} ${n}`).join(', ')],
    ...(report.faults.diskfull !== undefined ? ([['diskfull rounds with ENOSPC', `${report.diskfull_enospc} of ${report.faults.diskfull}`]] as [string, string][]) : []),
    ['operations recorded', String(report.operations)],
    ['answered', String(report.counts.ok)],
    ['unknown outcome (writes)', String(report.counts.unknown)],
    ['failed reads (not recorded)', String(report.counts.failed_reads)],
    ['writes refused unsent', String(report.counts.refused)],
    ['compare-and-set refused', String(report.counts.cas_refused)],
    ['duration', `${(report.duration_ms / 1000).toFixed(1)} s`],
    ['linearizable', report.result.ok ? 'yes' : report.result.verdict === 'undecided' ? `UNDECIDED (register ${report.result.key}: the search passed its bound)` : `NO (register ${report.result.key})`],
    ['converged', report.not_converged === undefined ? 'yes' : `NO: ${report.not_converged}`],
    ...(report.kept_dir !== undefined ? ([['kept for a look', `${report.kept_dir} (data directories, logs/member-<id>.log)`]] as [string, string][]) : []),
  ];
  for (const [k, v] of rows) process.stdout.write(`${k.padEnd(28)} ${v}\n`);
  if (!report.result.ok) {
    process.stdout.write(`history of register ${report.result.key}:\n`);
    for (const op of report.result.ops) process.stdout.write(`  ${JSON.stringify(op)}\n`);
  }
  return report.result.ok && report.not_converged === undefined ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`chaos: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(2);
  },
);
