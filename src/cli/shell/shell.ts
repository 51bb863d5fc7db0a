/**
 * `weft shell`: a Cypher shell over gRPC. Interactive at a terminal (readline, persistent history,
 * multi-line statements, :commands); otherwise it runs `-c` text, a `-f` file or standard input and
 * exits non-zero at the first error, printing its code and message. docs/shell.md describes it.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createGrpcClient } from '../../api/grpc-client.js';
import { invalidArgument } from '../../common/errors.js';
import { QueryService } from '../../gen/weft/v1/query_pb.js';
import { InputReader, inputsOf } from './input.js';
import { output_formats, type OutputFormat } from './render.js';
import { ShellSession, type Printer } from './session.js';

export const shell_usage = `usage: weft shell [--address host:port] [-c query | -f file.cypher] [--format table|csv|json] [--history file]

  --address, -a   the member's gRPC address (default 127.0.0.1:7080, or WEFT_ADDRESS)
  -c, --command   run these statements and exit
  -f, --file      run the statements of a file and exit
  --format        how rows are printed (default table)
  --history       the interactive history file (default ~/.weft_history)
`;

/** Lines of history kept in the file and in memory. */
export const shell_history_lines_max = 1000;

interface ShellArgs {
  readonly address: string;
  readonly command?: string;
  readonly file?: string;
  readonly format: OutputFormat;
  readonly history: string;
}

function parseArgs(args: readonly string[], env: NodeJS.ProcessEnv): ShellArgs {
  let address = env['WEFT_ADDRESS'] ?? '127.0.0.1:7080';
  let command: string | undefined;
  let file: string | undefined;
  let format: OutputFormat = 'table';
  let history = join(homedir(), '.weft_history');
  for (let i = 0; i < args.length; i++) {
    const flag = args[i]!;
    const value = args[i + 1];
    if (value === undefined) throw invalidArgument(`${flag} needs a value\n\n${shell_usage}`);
    i++;
    switch (flag) {
      case '--address':
      case '-a':
        address = value;
        break;
      case '--command':
      case '-c':
        command = value;
        break;
      case '--file':
      case '-f':
        file = value;
        break;
      case '--format': {
        const f = output_formats.find((x) => x === value);
        if (f === undefined) throw invalidArgument(`--format must be one of ${output_formats.join(', ')}, got '${value}'`);
        format = f;
        break;
      }
      case '--history':
        history = value;
        break;
      default:
        throw invalidArgument(`unknown flag ${flag}\n\n${shell_usage}`);
    }
  }
  if (command !== undefined && file !== undefined) throw invalidArgument('give -c or -f, not both');
  return { address, format, history, ...(command !== undefined ? { command } : {}), ...(file !== undefined ? { file } : {}) };
}

const printer: Printer = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

export async function shellMain(args: readonly string[]): Promise<number> {
  if (args[0] === '--help' || args[0] === '-h') {
    process.stdout.write(shell_usage);
    return 0;
  }
  const a = parseArgs(args, process.env);
  const client = createGrpcClient(QueryService, a.address);
  try {
    if (a.command !== undefined || a.file !== undefined || process.stdin.isTTY !== true) {
      const text = a.command ?? (a.file !== undefined ? readFileSync(a.file, 'utf8') : readFileSync(0, 'utf8'));
      return await runScript(new ShellSession(client, printer, a.format, false), inputsOf(text));
    }
    return await interactive(new ShellSession(client, printer, a.format, true), a.history);
  } finally {
    client.close();
  }
}

async function runScript(session: ShellSession, inputs: readonly string[]): Promise<number> {
  for (const input of inputs) {
    const outcome = await session.run(input);
    if (outcome.kind === 'failed') {
      if (session.inTransaction) await session.run(':rollback');
      return 1;
    }
    if (outcome.kind === 'exit') break;
  }
  // A script that opened a transaction and never committed it has it discarded, not left open.
  if (session.inTransaction) await session.run(':rollback');
  return 0;
}

function loadHistory(path: string): string[] {
  if (!existsSync(path)) return [];
  // The file is oldest first; readline keeps newest first.
  return readFileSync(path, 'utf8').split('\n').filter((l) => l !== '').slice(-shell_history_lines_max).reverse();
}

async function interactive(session: ShellSession, historyPath: string): Promise<number> {
  const rl = createInterface({
    input: process.stdin,
    output: process.stdout,
    terminal: true,
    history: loadHistory(historyPath),
    historySize: shell_history_lines_max,
    removeHistoryDuplicates: true,
  });
  rl.on('history', (history: string[]) => {
    try {
      writeFileSync(historyPath, [...history].reverse().join('\n') + '\n', { mode: 0o600 });
    } catch (e) {
      process.stderr.write(`weft shell: cannot save history to ${historyPath}: ${(e as Error).message}\n`);
    }
  });
  const reader = new InputReader();
  const prompt = (): void => {
    rl.setPrompt(reader.pending ? '   ...> ' : session.inTransaction ? 'weft(tx)> ' : 'weft> ');
    rl.prompt();
  };
  rl.on('SIGINT', () => {
    // Ctrl-C drops the statement being typed; Ctrl-D (end of input) leaves.
    reader.discard();
    process.stdout.write('^C\n');
    prompt();
  });
  process.stdout.write('Connected. Statements end with ;  :help lists commands, :exit leaves.\n');
  prompt();
  let code = 0;
  outer: for await (const line of rl) {
    for (const input of reader.line(line)) {
      const outcome = await session.run(input);
      if (outcome.kind === 'exit') break outer;
    }
    prompt();
  }
  rl.close();
  if (session.inTransaction) {
    process.stdout.write('rolling back the open transaction\n');
    if ((await session.run(':rollback')).kind === 'failed') code = 1;
  }
  return code;
}


