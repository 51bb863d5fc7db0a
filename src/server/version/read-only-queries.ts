import type { CypherCall, CypherOutcome, QueryBackend } from '../../api/query-service.js';
import type { VersionMonitor } from './version-monitor.js';

/**
 * QueryService on a member that may be read-only (SPEC 9.4): reads are served throughout, from what
 * the member applied, with read_as_of_ts set to that entry's commit_ts; a read that must be current
 * (LINEARIZABLE) and a transaction, which is there to write, are refused MEMBER_READ_ONLY; a write
 * statement is refused by the write gate when it reaches the log.
 */
export function readOnlyAwareQueries(backend: QueryBackend, monitor: VersionMonitor): QueryBackend {
  return {
    get members() {
      return backend.members;
    },
    defaults: backend.defaults,
    async runCypher(call: CypherCall): Promise<CypherOutcome> {
      if (!monitor.readOnly) return backend.runCypher(call);
      if (call.level === 'LINEARIZABLE' && call.transaction_id === 0n) throw monitor.readOnlyError();
      const out = await backend.runCypher(call);
      return { ...out, read_as_of_ts: monitor.asOfTs };
    },
    explainCypher: (text, params) => backend.explainCypher(text, params),
    begin() {
      if (monitor.readOnly) throw monitor.readOnlyError();
      return backend.begin();
    },
    commit: (id, expect, concern) => backend.commit(id, expect, concern),
    rollback: (id) => backend.rollback(id),
    watch: (from_ts, signal) => backend.watch(from_ts, signal),
  };
}
