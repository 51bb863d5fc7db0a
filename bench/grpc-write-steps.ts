/**
 * Where a member's time goes in one gRPC CreateNode at concurrency 1, inside the server (issue 12):
 * the member runs in this process with its steps stamped, from the request's bytes arriving on the
 * socket to the reply's bytes handed to it; the client runs in a child process, so its work never
 * shares this event loop. GetNode of one node is stamped the same way, for the call without a write.
 *
 * Steps are stamped by wrapping methods of the classes on the path (a wrapper costs well under a
 * microsecond); each is the median over the calls, in microseconds since the request's bytes came.
 * `:ret` marks a method's return, `:end` its promise settling; a step seen twice in a call (the log's
 * two notices: written, then fsynced) is numbered.
 *
 *   npx tsx bench/grpc-write-steps.ts [--calls 3000]
 *
 * Prints tables and writes bench/results/grpc-write-steps.json.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGrpcClient } from '../src/api/grpc-client.js';
import { RequestReader } from '../src/api/grpc-request-reader.js';
import { ResponseWriter } from '../src/api/grpc-response-writer.js';
import { H2Connection } from '../src/common/h2/connection.js';
import { FrameWriter } from '../src/common/h2/frame-writer.js';
import { GraphService } from '../src/gen/weft/v1/graph_pb.js';
import { LogDriver } from '../src/log/driver/log-driver.js';
import { SegmentLog } from '../src/log/storage/segment-log.js';
import { StateMachine } from '../src/projections/state-machine.js';
import { defaultConfig } from '../src/server/config.js';
import { Database } from '../src/server/database.js';
import { startServer } from '../src/server/server.js';
import { percentile } from './stats.js';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const calls = arg('calls', 3000);
/** Calls of each kind before the measured ones, so both processes are compiled and warm. */
const warm_up_calls = 1000;

type Method = (...args: unknown[]) => unknown;
type Mark = readonly [step: string, at_ms: number];

const marks: Mark[] = [];

/** Stamps entry to `name` on `proto` as `label`, and its return (`:ret`) or its promise settling (`:end`). */
function stamp(proto: object, name: string, label: string, optional = false): void {
  const methods = proto as Record<string, Method>;
  const inner = methods[name];
  // An older build without the method (for a before-and-after comparison) just lacks the step.
  if (inner === undefined && optional) return;
  if (inner === undefined) throw new Error(`no method ${name} to stamp`);
  methods[name] = function (this: unknown, ...args: unknown[]): unknown {
    marks.push([label, performance.now()]);
    const out = inner.apply(this, args);
    if (out instanceof Promise) void out.then(() => marks.push([`${label}:end`, performance.now()]), () => undefined);
    else marks.push([`${label}:ret`, performance.now()]);
    return out;
  };
}

/** The client: `calls` CreateNode, then `calls` GetNode, one at a time; prints its p50s as JSON. */
async function client(port: number): Promise<void> {
  const c = createGrpcClient(GraphService, `127.0.0.1:${port}`);
  const node = { labels: ['Bench'], properties: { name: { kind: { case: 'stringValue' as const, value: 'n' } } } };
  const created = await c.createNode(node);
  const timed = async (call: () => Promise<unknown>): Promise<number> => {
    for (let i = 0; i < warm_up_calls; i++) await call();
    const lat: number[] = [];
    for (let i = 0; i < calls; i++) {
      const t = performance.now();
      await call();
      lat.push(performance.now() - t);
    }
    return percentile(lat.sort((a, b) => a - b), 50);
  };
  const create_ms = await timed(() => c.createNode(node));
  const get_ms = await timed(() => c.getNode({ nodeId: created.nodeId }));
  c.close();
  process.stdout.write(JSON.stringify({ create_ms, get_ms }));
}

interface Step {
  readonly step: string;
  readonly p50_us: number;
}

/** Splits the marks into calls (from bytes in to the reply's write returning) and takes each step's median. */
function steps(of_write: boolean): { steps: Step[]; calls: number } {
  const by_step = new Map<string, number[]>();
  let n = 0;
  let seen_calls = 0;
  let call: Mark[] = [];
  let start: number | undefined;
  for (const [step, at] of marks) {
    if (start === undefined) {
      if (step !== 'bytes in') continue;
      start = at;
      call = [];
    }
    call.push([step, at - start]);
    if (step !== 'reply written:ret') continue;
    start = undefined;
    if (call.some(([s]) => s === 'Database.write' || s === 'Database.writeHeld') !== of_write) continue;
    // The client's warm-up calls (and the node it reads, made first) are not measured.
    if (++seen_calls <= warm_up_calls + 1) continue;
    n++;
    const seen = new Map<string, number>();
    for (const [s, t] of call) {
      const k = (seen.get(s) ?? 0) + 1;
      seen.set(s, k);
      const key = k === 1 ? s : `${s} #${k}`;
      const list = by_step.get(key) ?? [];
      list.push(t * 1000);
      by_step.set(key, list);
    }
  }
  // A step seen in fewer than half the calls belongs to an unusual order (a timer, a checkpoint).
  const out = [...by_step].filter(([, l]) => l.length >= n / 2).map(([step, l]) => ({ step, p50_us: percentile(l.sort((a, b) => a - b), 50) }));
  return { steps: out.sort((a, b) => a.p50_us - b.p50_us), calls: n };
}

async function main(): Promise<void> {
  const load_before = loadavg();
  stamp(H2Connection.prototype, 'onSocketData', 'bytes in');
  stamp(RequestReader.prototype, 'onEnd', 'request read');
  stamp(Database.prototype, 'write', 'Database.write');
  // GraphService's writes answer once proposed (their reply built during the fsync) and wait after.
  stamp(Database.prototype, 'writeHeld', 'Database.writeHeld', true);
  stamp(StateMachine.prototype, 'checkProposal', 'checked', true);
  stamp(LogDriver.prototype, 'propose', 'proposed');
  stamp(StateMachine.prototype, 'apply', 'applied');
  stamp(SegmentLog.prototype, 'flush', 'flush');
  stamp(SegmentLog.prototype, 'writeBatch', 'writev');
  stamp(SegmentLog.prototype, 'notify', 'log notice');
  stamp(LogDriver.prototype, 'applyCommitted', 'commit applied');
  stamp(ResponseWriter.prototype, 'endWith', 'reply framed');
  stamp(FrameWriter.prototype, 'flush', 'reply written');
  const dir = mkdtempSync(join(tmpdir(), 'weft-grpc-write-steps-'));
  const server = await startServer({ ...defaultConfig, data_dir: join(dir, 'data'), grpc_port: 0, rest_port: 0, ops_port: 0 }, () => {});
  let out = '';
  try {
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--client', String(server.ports.grpc), '--calls', String(calls)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    if (code !== 0) throw new Error(`the client exited with ${code}`);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const client_p50 = JSON.parse(out) as { create_ms: number; get_ms: number };
  const create = steps(true);
  const get = steps(false);
  for (const [name, s] of [['CreateNode', create], ['GetNode', get]] as const) {
    console.log(`\n${name} at concurrency 1, inside the member: us since the request's bytes came (median of ${s.calls})`);
    console.log('| step | p50 us |');
    console.log('|---|---:|');
    for (const r of s.steps) console.log(`| ${r.step} | ${r.p50_us.toFixed(0)} |`);
  }
  const load_after = loadavg();
  console.log(`\nclient p50: CreateNode ${client_p50.create_ms.toFixed(3)} ms, GetNode ${client_p50.get_ms.toFixed(3)} ms`);
  console.log(`load average before ${load_before.map((l) => l.toFixed(2)).join(', ')}; after ${load_after.map((l) => l.toFixed(2)).join(', ')}`);
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/grpc-write-steps.json', JSON.stringify({ calls, create, get, client_p50, load_before, load_after, at: new Date().toISOString() }, null, 2));
}

const client_at = process.argv.indexOf('--client');
if (client_at >= 0) await client(Number(process.argv[client_at + 1]));
else await main();
