import type { ConcernWait } from '../../log/driver/log-driver.js';
import type { SchemaBackend } from '../../api/schema-service.js';
import type { Database } from '../database.js';
import { BuildExecutor, build_progress_interval_ms_default, build_slice_ms_default, build_slice_nodes_default } from './build-executor.js';
import { IndexChecker } from './index-checker.js';
import { SchemaAdmin } from './schema-admin.js';

/**
 * The schema side of a running member: admission, the build executor and the index checker, wired to
 * one database, and the backend the SchemaService answers from. Started after the database opens
 * (open builds and checks are taken up again) and stopped before it closes.
 */
export interface SchemaRuntimeOptions {
  readonly index_build_max_running: number;
  readonly index_build_statement_wait_secs: number;
  /** The server's vector_index_memory_mb; absent or 0: no limit. */
  readonly vector_index_memory_mb?: number;
  readonly concern: () => ConcernWait;
  readonly oldestOpenReadIndex?: () => number | undefined;
  readonly slice_nodes?: number;
  /** Mismatches from which a check rebuilds instead of repairing entry by entry. */
  readonly check_rebuild_mismatches_min?: number;
  readonly log?: (line: string) => void;
}

export interface SchemaRuntime {
  readonly admin: SchemaAdmin;
  readonly executor: BuildExecutor;
  readonly checker: IndexChecker;
  readonly backend: SchemaBackend;
  stop(): void;
}

/** Damage from which a check rebuilds instead of repairing entry by entry. */
export const check_rebuild_mismatches_min = 10_000;
export const check_passes_max = 3;

export function startSchemaRuntime(db: Database, options: SchemaRuntimeOptions): SchemaRuntime {
  const executor = new BuildExecutor(db, {
    max_running: options.index_build_max_running,
    slice_nodes: options.slice_nodes ?? build_slice_nodes_default,
    slice_ms: build_slice_ms_default,
    progress_interval_ms: build_progress_interval_ms_default,
    concern: options.concern,
    ...(options.oldestOpenReadIndex !== undefined ? { oldestOpenReadIndex: options.oldestOpenReadIndex } : {}),
    ...(options.log !== undefined ? { log: options.log } : {}),
  });
  const checker = new IndexChecker(db, executor.watch, {
    slice_nodes: options.slice_nodes ?? build_slice_nodes_default,
    concern: options.concern,
    rebuild_mismatches_min: options.check_rebuild_mismatches_min ?? check_rebuild_mismatches_min,
    passes_max: check_passes_max,
  });
  const admin = new SchemaAdmin(db, executor, checker, {
    statement_wait_ms: options.index_build_statement_wait_secs * 1000,
    concern: options.concern,
    ...(options.vector_index_memory_mb !== undefined ? { vector_index_memory_mb: options.vector_index_memory_mb } : {}),
  });
  const backend: SchemaBackend = {
    catalog: () => db.sm.schema.catalog,
    labelsInUse: () => inUse(db.sm.graph.stats().label_counts),
    edgeTypesInUse: () => inUse(db.sm.graph.stats().edge_type_counts),
    phaseOf: (op) => executor.phaseOf(op),
    defineLabel: (e) => admin.defineLabel(e),
    defineEdgeType: (e) => admin.defineEdgeType(e),
    createConstraint: (req, signal) => admin.createConstraint(req, signal),
    dropConstraint: (name, if_exists) => admin.dropConstraint(name, if_exists),
    waitBuild: (op, wait_ms, signal) => admin.waitBuild(op, wait_ms, signal),
    cancelBuild: (op) => admin.cancelBuild(op),
    checkIndex: (ref) => admin.checkIndex(ref),
    waitCheck: (op, wait_ms, signal) => admin.waitCheck(op, wait_ms, signal),
    cancelCheck: (op) => admin.cancelCheck(op),
    reindex: (ref, wait_ms, signal) => admin.reindex(ref, wait_ms, signal),
    createSearchIndex: async (req, signal) => {
      const index = await admin.createIndex(req, signal);
      return admin.build(index.filling ?? index.serving ?? 0);
    },
    dropSearchIndex: (name, if_exists) => admin.dropSearchIndex(name, if_exists),
  };
  executor.start();
  checker.start();
  return {
    admin,
    executor,
    checker,
    backend,
    stop: () => {
      executor.stop();
      checker.stop();
    },
  };
}

function* inUse(counts: ReadonlyMap<string, number>): Iterable<string> {
  for (const [name, n] of counts) if (n > 0) yield name;
}
