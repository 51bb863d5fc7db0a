/**
 * `weft/client`: the TypeScript client of a Weft server over gRPC (docs/sdk.md).
 *
 *     import { connect } from 'weft/client';
 *     const db = connect('127.0.0.1:7080', { issuer: './weft-issuer.json' });
 *     const { rows } = await db.query<{ name: string }>('MATCH (p:Person) RETURN p.name AS name');
 */
export {
  connect,
  WeftClient,
  transaction_attempts_max_default,
  create_attempts_max_default,
  retry_wait_ms_default,
  feed_reconnect_attempts_max_default,
  failover_ms_max_default,
  type ConnectOptions,
  type QueryOptions,
  type QueryResult,
  type QueryStats,
  type Row,
  type Transaction,
  type Change,
  type ChangeKind,
  type ChangeOptions,
  type CreateOptions,
} from './client.js';
export { type LeaderView } from './members.js';
export { Node, Relationship, Path, Temporal, Point, Float, float, type Value, type Param, type Id, type TemporalKind } from './values.js';
export { fileIssuerStore, memoryIssuerStore, issuer_sequence_block, type IssuerStore, type IssuerState, type OperationRefInit } from './issuer.js';
export { WeftError, isWeftError, type StatusCode } from '../common/errors.js';
export type { ClientTls } from '../common/grpc/client-tls.js';
