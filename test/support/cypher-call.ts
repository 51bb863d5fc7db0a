import type { CypherCall } from '../../src/api/query-service.js';
import type { Value } from '../../src/common/values/value.js';

/**
 * A CypherCall as the query service would build it for a plain auto-committed statement: LOCAL read
 * concern, a journaled single-member write concern, 64 MiB of memory, no deadline. Tests that drive a
 * CypherRunner directly change only what their scenario is about.
 */
export function cypherCall(text: string, params: Record<string, Value> = {}, extra: Partial<CypherCall> = {}): CypherCall {
  return {
    text,
    params: new Map(Object.entries(params)),
    level: 'LOCAL',
    after_index: 0,
    at_timestamp: 0,
    concern: { acks: 1, level: 'journal', timeout_ms: 0 },
    transaction_id: 0n,
    memory_limit_bytes: 64 << 20,
    signal: new AbortController().signal,
    vector_consistency: undefined,
    vector_build_wait_ms: undefined,
    ...extra,
  };
}
