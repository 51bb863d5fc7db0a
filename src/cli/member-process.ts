import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unavailable } from '../common/errors.js';

/**
 * One `weft serve` in its own OS process on loopback, started by the cluster launcher and the chaos
 * harness. Client ports are chosen by the OS and read back from the line the server prints when it
 * serves; the process is signalled by pid only, and every wait on it is bounded.
 */
export const member_start_wait_ms = 30_000;
export const member_stop_wait_ms = 15_000;

export interface MemberProcessSpec {
  readonly node_id: number;
  readonly data_dir: string;
  /** Fixed, so other members and proxies can be told where to dial before the member starts. */
  readonly peer_port: number;
  /** More `--setting value` pairs. */
  readonly args?: readonly string[];
  /** More environment variables (`WEFT_<NAME>` settings). */
  readonly env?: Readonly<Record<string, string>>;
}

export interface MemberProcess {
  readonly node_id: number;
  readonly pid: number;
  /** host:port of each API. */
  readonly grpc: string;
  readonly rest: string;
  readonly ops: string;
  readonly peer: string;
  output(): string;
  /** Resolves with the exit code (null when ended by a signal) once the process is gone. */
  readonly exited: Promise<number | null>;
  signal(sig: NodeJS.Signals): void;
  /** SIGTERM, then SIGKILL if it is still there after member_stop_wait_ms; resolves when it is gone. */
  stop(): Promise<number | null>;
  /** SIGKILL; resolves when it is gone. */
  kill(): Promise<void>;
}

const this_file = fileURLToPath(import.meta.url);

/** The command that runs `weft`: the compiled main.js, or main.ts through tsx when running from source. */
function weftCommand(): { args: string[]; cwd: string } {
  const main = join(dirname(this_file), `main${extname(this_file)}`);
  let root = dirname(this_file);
  while (!existsSync(join(root, 'package.json')) && dirname(root) !== root) root = dirname(root);
  return { args: extname(main) === '.ts' ? ['--import', 'tsx', main] : [main], cwd: root };
}

/**
 * Node options for every member process, split on spaces, e.g. `--cpu-prof --cpu-prof-dir=DIR` to
 * profile a local group (node refuses those in NODE_OPTIONS). Empty when unset.
 */
export const member_node_args_env = 'WEFT_MEMBER_NODE_ARGS';

function memberNodeArgs(): string[] {
  return (process.env[member_node_args_env] ?? '').split(' ').filter((a) => a !== '');
}

export async function startMemberProcess(spec: MemberProcessSpec, start_wait_ms = member_start_wait_ms): Promise<MemberProcess> {
  const weft = weftCommand();
  const args = [
    ...memberNodeArgs(),
    ...weft.args,
    'serve',
    ...['--node-id', String(spec.node_id), '--data-dir', spec.data_dir],
    ...['--grpc-port', '0', '--rest-port', '0', '--ops-port', '0', '--peer-port', String(spec.peer_port)],
    ...(spec.args ?? []),
  ];
  const child = spawn(process.execPath, args, { cwd: weft.cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_NO_WARNINGS: '1', ...spec.env } });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ports = await new Promise<{ grpc: number; rest: number; ops: number }>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(unavailable(`member ${spec.node_id} did not serve within ${start_wait_ms} ms:\n${output}`));
    }, start_wait_ms);
    const look = (): void => {
      const m = /gRPC (\d+), REST (\d+), ops (\d+)/.exec(output);
      if (m === null) return;
      clearTimeout(timer);
      resolve({ grpc: Number(m[1]), rest: Number(m[2]), ops: Number(m[3]) });
    };
    child.stderr!.on('data', look);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(unavailable(`member ${spec.node_id} exited with ${code} before serving:\n${output}`));
    });
  });
  return memberHandle(spec, child, ports, () => output, exited);
}

function memberHandle(spec: MemberProcessSpec, child: ChildProcess, ports: { grpc: number; rest: number; ops: number }, output: () => string, exited: Promise<number | null>): MemberProcess {
  const pid = child.pid!;
  let gone = false;
  void exited.then(() => (gone = true));
  const signal = (sig: NodeJS.Signals): void => {
    if (!gone) process.kill(pid, sig);
  };
  return {
    node_id: spec.node_id,
    pid,
    grpc: `127.0.0.1:${ports.grpc}`,
    rest: `127.0.0.1:${ports.rest}`,
    ops: `127.0.0.1:${ports.ops}`,
    peer: `127.0.0.1:${spec.peer_port}`,
    output,
    exited,
    signal,
    async stop() {
      // A stopped (SIGSTOP) member cannot act on SIGTERM until it is continued.
      signal('SIGCONT');
      signal('SIGTERM');
      const timer = setTimeout(() => signal('SIGKILL'), member_stop_wait_ms);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
    async kill() {
      signal('SIGKILL');
      await exited;
    },
  };
}

/** A loopback port free right now (the OS picks it; another process could still take it before use). */
export async function freeLoopbackPort(): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
