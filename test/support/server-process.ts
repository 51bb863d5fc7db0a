import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * A real `weft serve` in a child process on loopback with ports chosen by the OS, for process-level
 * tests. It is stopped (SIGTERM) or killed (SIGKILL) by pid; `start` waits a bounded time for it.
 */
/**
 * Run from the compiled build (dist/test/support, as `npm run bench:social` does), the server is the compiled
 * one users run (dist/src/cli/main.js); run from source, it is src/cli/main.ts through tsx.
 */
const compiled = import.meta.url.endsWith('.js');
const repo = fileURLToPath(new URL(compiled ? '../../../' : '../../', import.meta.url));
const entry: readonly string[] = compiled ? ['dist/src/cli/main.js'] : ['--import', 'tsx', 'src/cli/main.ts'];
export const server_start_wait_ms = 30_000;

export interface ServerProcess {
  readonly pid: number;
  readonly grpc: string;
  readonly rest: string;
  readonly ops: string;
  readonly output: () => string;
  /** SIGTERM and wait for exit; resolves with the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL and wait for exit. */
  kill(): Promise<void>;
}

export async function startServerProcess(dataDir: string, extra: readonly string[] = [], node_args: readonly string[] = []): Promise<ServerProcess> {
  const child = spawn(
    process.execPath,
    [...node_args, ...entry, 'serve', '--data-dir', dataDir, '--grpc-port', '0', '--rest-port', '0', '--ops-port', '0', ...extra],
    { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_NO_WARNINGS: '1' } },
  );
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ports = await new Promise<{ grpc: number; rest: number; ops: number }>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start within ${server_start_wait_ms} ms:\n${output}`));
    }, server_start_wait_ms);
    const look = (): void => {
      const m = /gRPC (\d+), REST (\d+), ops (\d+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve({ grpc: Number(m[1]), rest: Number(m[2]), ops: Number(m[3]) });
      }
    };
    child.stderr!.on('data', look);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before serving:\n${output}`));
    });
  });
  return handle(child, ports, () => output, exited);
}

function handle(
  child: ChildProcess,
  ports: { grpc: number; rest: number; ops: number },
  output: () => string,
  exited: Promise<number | null>,
): ServerProcess {
  return {
    pid: child.pid!,
    grpc: `127.0.0.1:${ports.grpc}`,
    rest: `http://127.0.0.1:${ports.rest}`,
    ops: `http://127.0.0.1:${ports.ops}`,
    output,
    async stop() {
      process.kill(child.pid!, 'SIGTERM');
      return exited;
    },
    async kill() {
      process.kill(child.pid!, 'SIGKILL');
      await exited;
    },
  };
}
