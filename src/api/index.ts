/**
 * The API layer: the wire contract served over gRPC (7080), REST/JSON (7081) and the ops port (7084).
 *
 * How the server uses it:
 *
 * 1. Write handlers per service against the generated descriptors (src/gen/weft/...), keyed by method
 *    local name, and bind them with `implement`:
 *
 *        const graph = implement(GraphService, {
 *          getNode: async (req, ctx) => { ...; return node },           // unary
 *          // server streaming: async function* (req, ctx) { yield ... }
 *          // client streaming: async (reqs, ctx) => { for await (const r of reqs) ...; return res }
 *        });
 *
 *    `ctx.signal` aborts at the call's deadline or on client cancel; `ctx.deadline_ms` is absolute.
 *    Return a message or a plain init object. Throw WeftError for expected failures (use
 *    `reasonError('REVISION_MISMATCH', ...)` for the catalog's named reasons); anything else thrown
 *    becomes INTERNAL with a logged error id. A method left without a handler answers UNIMPLEMENTED.
 *
 * 2. Serve the same list on both transports:
 *
 *        const grpc = await startGrpcServer({ port: 7080, services: [graph, query, ...] });
 *        const rest = await startRestServer({ port: 7081, services: [graph, query, ...] });
 *        const ops  = await startOpsServer({ port: 7084, answers: { health, ready, metrics, version } });
 *
 *    Pass `observe` to both to be told of every finished call (transport, method, code, duration),
 *    e.g. to feed a `graphdb_` latency histogram from src/common/metrics.ts.
 *    gRPC also serves grpc.health.v1 (`grpc.health.set(service, ServingStatus.X)`) and reflection.
 *    REST routes come from the `google.api.http` options; docs/api.md describes them for clients.
 *
 * 3. Stop in reverse order with each handle's `stop()`.
 */
export {
  implement,
  HeldReply,
  type CallContext,
  type ServiceHandlers,
  type MethodHandler,
  type RegisteredService,
  type Transport,
  type CallObserver,
  type CallRecord,
} from './handlers.js';
export {
  reasons,
  reasonError,
  toWireError,
  errorJson,
  statusDetails,
  errorFromStatus,
  errorFromJson,
  grpc_codes,
  http_statuses,
  error_domain,
  logFaultToStderr,
  type Reason,
  type WireError,
  type ErrorJson,
  type FaultLogger,
} from './error-catalog.js';
export { deadlineFromHeaders } from './call-context.js';
export {
  startGrpcServer,
  grpc_message_bytes_max_default,
  grpc_shutdown_grace_ms_default,
  type GrpcServerOptions,
  type GrpcServerHandle,
} from './grpc-server.js';
export { HealthBoard, ServingStatus } from './grpc-health.js';
export {
  startRestServer,
  rest_body_bytes_max_default,
  rest_stream_line_bytes_max_default,
  rest_stream_header_wait_ms_default,
  type RestServerOptions,
  type RestServerHandle,
} from './rest-server.js';
export { restRoutes, type RestRoute } from './rest-routes.js';
export { startOpsServer, type OpsAnswers, type OpsServerHandle, type OpsServerOptions, type Readiness } from './ops-server.js';
export { createGrpcClient, type GrpcClient, type ClientCallOptions } from './grpc-client.js';
export { restCall, restStreamCall, restRequestOf, type RestCallOptions } from './rest-client.js';
