/**
 * `weft backup --from <ops address> --to DIR` and `weft restore --from DIR --data-dir NEWDIR`
 * (docs/backup.md). Each prints one line saying what it did.
 */
import { invalidArgument } from '../common/errors.js';
import { restoreBackup } from '../server/backup/restore.js';
import { takeBackup } from '../server/backup/take-backup.js';

export const backup_usage = `usage: weft backup --from <host:ops-port> --to DIR
       weft restore --from DIR --data-dir NEWDIR
`;

function flags(args: readonly string[], names: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < args.length; i += 2) {
    const flag = args[i]!;
    const value = args[i + 1];
    const name = flag.replace(/^--/, '');
    if (!flag.startsWith('--') || !names.includes(name)) throw invalidArgument(`unknown flag ${flag}\n\n${backup_usage}`);
    if (value === undefined) throw invalidArgument(`${flag} needs a value`);
    out.set(name, value);
  }
  for (const name of names) if (!out.has(name)) throw invalidArgument(`--${name} is required\n\n${backup_usage}`);
  return out;
}

export async function backupMain(args: readonly string[]): Promise<number> {
  const f = flags(args, ['from', 'to']);
  const m = await takeBackup(f.get('from')!, f.get('to')!);
  process.stdout.write(
    `backup of ${m.source} in ${f.get('to')!}: checkpoint at entry ${m.checkpoint_index}, ${m.entries} entries after it, ` +
      `up to entry ${m.last_index}, commit_ts ${m.commit_ts}\n`,
  );
  return 0;
}

export async function restoreMain(args: readonly string[]): Promise<number> {
  const f = flags(args, ['from', 'data-dir']);
  const r = await restoreBackup(f.get('from')!, f.get('data-dir')!);
  for (const line of r.vector_rebuilds) process.stderr.write(`weft: warning: ${line}\n`);
  process.stdout.write(
    `restored ${f.get('from')!} into ${f.get('data-dir')!}: state as of commit_ts ${r.manifest.commit_ts} (entry ${r.committed_index}), ` +
      `new deployment ${r.deployment}\n`,
  );
  return 0;
}
