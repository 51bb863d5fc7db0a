import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGrpcClient, type GrpcClient } from '../../src/api/grpc-client.js';
import { GraphService } from '../../src/gen/weft/v1/graph_pb.js';
import { ConstraintKind, IndexBuildState, SchemaService } from '../../src/gen/weft/v2/schema_pb.js';
import { prng } from '../support/prng.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';

/**
 * An online index build under load against a real server: `nodes` stored nodes (with `duplicates`
 * planted pairs), `writers` clients writing new nodes of the same label the whole time, a UNIQUE
 * constraint admitted in the middle, and optionally a kill -9 while the build runs and a restart.
 * Shared by the quick test (a small seeded slice) and the soak (bench/index-online-build.ts).
 */
export interface OnlineBuildOptions {
  readonly nodes: number;
  readonly writers: number;
  readonly duplicates: number;
  readonly rename: boolean;
  readonly kill: boolean;
  readonly seed: number;
  /** Writes per writer measured before the build, for the baseline latency. */
  readonly baseline_writes: number;
  /** Every this many writes a writer writes a value that is stored already (a real duplicate). */
  readonly duplicate_every: number;
  readonly log?: (line: string) => void;
}

export interface OnlineBuildResult {
  readonly outcome: string;
  readonly failure: string;
  readonly repairs: readonly { oldValue: string; newValue: string; elementId: string }[];
  readonly indexed_samples: readonly bigint[];
  readonly baseline_p99_ms: number;
  readonly build_p99_ms: number;
  readonly writes_during_build: number;
  /** Writes refused as duplicates that were meant as duplicates. */
  readonly refused_duplicates: number;
  /** Writes refused for any other reason, or duplicates that were accepted: must be empty. */
  readonly wrong: readonly string[];
  readonly build_ms: number;
  readonly killed_mid_build: boolean;
}

const batch_nodes = 5000;
const label = 'Account';

function p99(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s[Math.min(s.length - 1, Math.floor(0.99 * s.length))]!;
}

const str = (value: string) => ({ kind: { case: 'stringValue' as const, value } });

export async function runOnlineBuild(o: OnlineBuildOptions): Promise<OnlineBuildResult> {
  const log = o.log ?? (() => {});
  const rand = prng(o.seed);
  const dir = mkdtempSync(join(tmpdir(), 'weft-online-build-'));
  let server: ServerProcess = await startServerProcess(dir);
  let graph: GrpcClient<typeof GraphService> = createGrpcClient(GraphService, server.grpc);
  let schema: GrpcClient<typeof SchemaService> = createGrpcClient(SchemaService, server.grpc);
  try {
    // Stored nodes: k0..k{n-1}, with `duplicates` values repeated later in the id range.
    const dupAt = new Map<number, number>();
    for (let d = 0; d < o.duplicates; d++) {
      const at = Math.floor(o.nodes / 2 + (d * (o.nodes / 2)) / Math.max(1, o.duplicates));
      dupAt.set(at, d);
    }
    const t0 = performance.now();
    for (let i = 0; i < o.nodes; i += batch_nodes) {
      const nodes = [];
      for (let j = i; j < Math.min(o.nodes, i + batch_nodes); j++) {
        const d = dupAt.get(j);
        nodes.push({ labels: [label], properties: { k: str(d === undefined ? `k${j}` : `k${d}`) } });
      }
      await graph.createNodesBatch({ nodes });
    }
    log(`seeded ${o.nodes} nodes in ${(performance.now() - t0).toFixed(0)} ms`);

    let counter = 0;
    const wrong: string[] = [];
    let refused = 0;
    const write = async (lat: number[]): Promise<void> => {
      const n = counter++;
      // Duplicates only once the constraint exists: before it, they would be stored (and repaired later).
      const duplicate = building && o.duplicate_every > 0 && n % o.duplicate_every === o.duplicate_every - 1;
      // A real duplicate: a stored value that was never planted twice (so no repair renames it).
      const value = duplicate ? `k${o.duplicates + Math.floor(rand() * (o.nodes / 2 - o.duplicates))}` : `w${o.seed}-${n}`;
      const t = performance.now();
      try {
        await graph.createNode({ labels: [label], properties: { k: str(value) } });
        lat.push(performance.now() - t);
        if (duplicate && building) wrong.push(`duplicate ${value} accepted during the build`);
      } catch (e) {
        const err = e as { reason?: string; message?: string };
        if (duplicate && err.reason === 'UNIQUE_VIOLATION') refused++;
        else if (!stopping) wrong.push(`${value}: ${err.reason ?? ''} ${err.message ?? String(e)}`);
      }
    };
    let building = false;
    let stopping = false;

    // Baseline: the same writers with no build.
    const base: number[] = [];
    await Promise.all(
      [...Array(o.writers).keys()].map(async () => {
        for (let i = 0; i < o.baseline_writes; i++) await write(base);
      }),
    );
    wrong.length = 0;

    const during: number[] = [];
    const samples: bigint[] = [];
    const tb = performance.now();
    const c = await schema.createConstraint({
      label,
      properties: ['k'],
      kind: ConstraintKind.UNIQUE,
      wait: { seconds: 0n, nanos: 0 },
      onDuplicateRename: o.rename ? 'k' : '',
    });
    building = true;
    const op = c.build!.operation;
    let final = false;
    const writers = [...Array(o.writers).keys()].map(async () => {
      while (!final && !stopping) await write(during);
    });
    let killed = false;
    for (;;) {
      const b = await schema.getIndexBuild({ operation: op, wait: { seconds: 0n, nanos: 50_000_000 } });
      samples.push(b.indexed);
      if (b.state !== IndexBuildState.RUNNING && b.state !== IndexBuildState.ACCEPTED) {
        final = true;
        break;
      }
      if (o.kill && !killed && b.indexed > BigInt(Math.floor(o.nodes / 3))) {
        killed = true;
        stopping = true;
        await Promise.all(writers);
        log(`kill -9 at indexed ${b.indexed}`);
        graph.close();
        schema.close();
        await server.kill();
        server = await startServerProcess(dir);
        graph = createGrpcClient(GraphService, server.grpc);
        schema = createGrpcClient(SchemaService, server.grpc);
        const after = await schema.getIndexBuild({ operation: op, wait: { seconds: 600n, nanos: 0 } });
        samples.push(after.indexed);
        final = true;
        break;
      }
    }
    await Promise.all(writers);
    const build_ms = performance.now() - tb;
    const b = await schema.getIndexBuild({ operation: op });
    const repairs = (await schema.listIndexBuildRepairs({ operation: op })).repairs;
    return {
      outcome: IndexBuildState[b.state],
      failure: b.failure,
      repairs: repairs.map((r) => ({ oldValue: r.oldValue, newValue: r.newValue, elementId: r.elementId })),
      indexed_samples: samples,
      baseline_p99_ms: p99(base),
      build_p99_ms: p99(during),
      writes_during_build: during.length,
      refused_duplicates: refused,
      wrong,
      build_ms,
      killed_mid_build: killed,
    };
  } finally {
    graph.close();
    schema.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
