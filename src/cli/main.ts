#!/usr/bin/env node
import { isWeftError } from '../common/errors.js';
import { defaultConfig, loadConfig } from '../server/config.js';
import { startServer } from '../server/server.js';
import { certsCommand } from './certs-command.js';
import { clusterCommand } from './cluster-command.js';
import { shellMain } from './shell/shell.js';
import { backupMain, restoreMain } from './backup-commands.js';
import { importMain } from './import-command.js';

/**
 * The `weft` command. `weft serve` runs one member until SIGTERM or SIGINT, then drains writes in
 * flight, checkpoints and exits.
 */
const usage = `usage: weft <command> [--setting value ...]

commands:
  serve     run a member (single node) on a data directory
  certs     make a development CA and member certificates (weft certs init|issue --dir DIR ...)
  cluster   start a local group of members on loopback (weft cluster --members 3), Ctrl-C stops it
  shell     a Cypher shell to a member (weft shell --help)
  backup    an online backup of a running member: --from <host:ops-port> --to DIR
  restore   a new data directory from a backup: --from DIR --data-dir NEWDIR
  import    bulk load CSV files into a data directory no server has open (weft import --help)
  help      show this text

settings (also WEFT_<NAME> in the environment, or a JSON file given by --config / WEFT_CONFIG):
${Object.entries(defaultConfig)
  .map(([k, v]) => `  --${k.replaceAll('_', '-').padEnd(34)} default ${JSON.stringify(v)}`)
  .join('\n')}
`;

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve':
      return serve(rest);
    case 'cluster':
      return clusterCommand(rest, (line) => process.stdout.write(`${line}\n`));
    case 'certs':
      return certsCommand(rest, (line) => process.stdout.write(`${line}\n`));
    case 'shell':
      return shellMain(rest);
    case 'backup':
      return backupMain(rest);
    case 'restore':
      return restoreMain(rest);
    case 'import':
      return importMain(rest);
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(usage);
      return command === undefined ? 2 : 0;
    default:
      process.stderr.write(`weft: unknown command '${command}'\n\n${usage}`);
      return 2;
  }
}

async function serve(args: readonly string[]): Promise<number> {
  const config = loadConfig(args, process.env);
  const server = await startServer(config);
  return new Promise<number>((resolve) => {
    const stop = (signal: string): void => {
      process.stderr.write(`weft: ${signal} received, draining\n`);
      server.stop().then(
        () => resolve(0),
        (e: unknown) => {
          process.stderr.write(`weft: error while stopping: ${String(e)}\n`);
          resolve(1);
        },
      );
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(isWeftError(e) ? `weft: ${e.message}\n` : `weft: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
