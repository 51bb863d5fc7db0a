import { failedPrecondition, unavailable } from '../common/errors.js';
import type { ReadLevel } from '../api/query-service.js';
import type { VectorConsistency } from '../query/bind/bound-statement.js';
import type { Prepared, QueryEngine } from '../query/engine.js';
import type { IndexCatalog } from '../query/plan/explain.js';
import type { Database } from './database.js';

/**
 * How a statement's vector searches read, and whether they wait for an index still being built
 * (SPEC 4.1). VectorConsistency, highest first: the statement's `vector_consistency` hint (applied
 * by the engine), the request field, the session's `SET vector_consistency`, then the server's
 * default for the read concern: LOCAL reads what this member applied and takes the index as it is
 * (CURRENT); MAJORITY, LINEARIZABLE and SNAPSHOT promise a snapshot, so candidates are filtered by
 * visibility at it (SNAPSHOT). A transaction reads its pinned snapshot: SNAPSHOT.
 */
export interface VectorSession {
  vector_consistency?: VectorConsistency;
  vector_build_wait_ms?: number;
}

export type RequestConsistency = 'CURRENT' | 'SNAPSHOT' | 'EXACT' | undefined;

export function defaultConsistency(level: ReadLevel | 'TRANSACTION'): VectorConsistency {
  return level === 'LOCAL' ? 'current' : 'snapshot';
}

export function resolveConsistency(request: RequestConsistency, session: VectorSession | undefined, level: ReadLevel | 'TRANSACTION'): VectorConsistency {
  if (request !== undefined) return request === 'CURRENT' ? 'current' : request === 'SNAPSHOT' ? 'snapshot' : 'exact';
  return session?.vector_consistency ?? defaultConsistency(level);
}

/** Applies `SET vector_consistency = ...` (or `vector_build_wait`) to a session. */
export function applySessionSet(prepared: Prepared, session: VectorSession): void {
  const s = prepared.statement;
  if (s.kind !== 'session_set') return;
  if (s.setting.name === 'vector_consistency') session.vector_consistency = s.setting.value;
  else session.vector_build_wait_ms = s.setting.value;
}

/** Longest one check for a build's publication sleeps; publication also wakes it at once. */
const build_poll_ms = 50;

/**
 * Waits for every vector index the statement searches that is still being built, up to the wait
 * (hint, then request, then session, then the server's `vector_build_wait_ms`). 0 refuses at once.
 * EXACT searches read no index and never wait.
 */
export async function awaitVectorBuilds(
  db: Database,
  engine: QueryEngine,
  catalog: IndexCatalog,
  prepared: Prepared,
  consistency: VectorConsistency,
  wait: { readonly request?: number | undefined; readonly session?: number | undefined; readonly server: number },
  signal?: AbortSignal,
): Promise<void> {
  const s = prepared.statement;
  if (s.kind !== 'query' || prepared.explain) return;
  if ((s.hints.vector_consistency ?? consistency) === 'exact') return;
  // The common case costs one pass over the catalog's indexes, not a look at the plan.
  if (!anyVectorIndexBuilding(db)) return;
  const building = () =>
    engine
      .vectorTargets(prepared, db.latestCommitted())
      .map((t) => catalog.vectorIndex?.(t.label, t.key))
      .find((h) => h !== undefined && !h.ready);
  let first = building();
  if (first === undefined) return;
  const wait_ms = s.hints.vector_build_wait_ms ?? wait.request ?? wait.session ?? wait.server;
  const refuse = (name: string, waited: boolean) =>
    (waited ? unavailable : failedPrecondition)(
      waited
        ? `vector index ${name} is still being built after ${wait_ms} ms; retry later, or read with vector_consistency 'exact'`
        : `vector index ${name} is being built and vector_build_wait is 0; read with vector_consistency 'exact' or wait for its build`,
      'VECTOR_INDEX_BUILDING',
      { index: name, vector_build_wait_ms: String(wait_ms) },
    );
  if (wait_ms === 0) throw refuse(first.name, false);
  const until = Date.now() + wait_ms;
  while (first !== undefined) {
    const left = until - Date.now();
    if (left <= 0 || signal?.aborted === true) throw refuse(first.name, true);
    await new Promise<void>((resolve) => {
      const stop = db.onCommit(() => {
        stop();
        clearTimeout(timer);
        resolve();
      });
      const timer = setTimeout(() => {
        stop();
        resolve();
      }, Math.min(left, build_poll_ms));
    });
    first = building();
  }
}

function anyVectorIndexBuilding(db: Database): boolean {
  for (const i of db.sm.schema.catalog.indexes.values()) if (i.search?.kind === 'vector' && i.serving === undefined) return true;
  return false;
}
