import { create, fromBinary, toBinary, type DescMethod } from '@bufbuild/protobuf';
import type { CallContext, ErasedHandler, RegisteredService } from '../../api/handlers.js';
import { failedPrecondition, invalidArgument, isWeftError, unimplemented, type WeftError } from '../../common/errors.js';
import type { LogDriver } from '../../log/driver/log-driver.js';
import type { PeerTransport } from '../../log/transport/peer-transport.js';

/**
 * Calls that only the leader can answer, sent on by a follower. A forwarded call is the API method's
 * name and its request encoded as protobuf, carried by one peer unary call; the leader decodes it,
 * runs the very handler its own clients reach, and returns the encoded reply, or the error with its
 * code, reason and metadata. So a client may write through any member and sees the leader's answer.
 *
 * What is forwarded:
 * - any unary call that fails NOT_LEADER on this member (a write of any service, a Cypher statement
 *   that writes): nothing was applied here, so running it again on the leader is its only effect;
 * - whole interactive transactions: BeginTransaction, CommitTransaction, RollbackTransaction and
 *   ExecuteCypher with a transaction id run on the leader, where the transaction lives;
 * - ExecuteCypher whose read preference is PRIMARY (the default), so such reads see the leader's
 *   state; the other preferences are served by the member called.
 * Streams (WatchChanges, JoinProgress) are never forwarded: every member serves them.
 */
export const FORWARD_METHOD = 'weft.api.forward';

/** A forwarded call waits for the leader at most this long when the caller set no deadline. */
export const forward_timeout_ms_default = 30_000;

export interface ForwardingOptions {
  readonly log: LogDriver;
  readonly transport: PeerTransport | undefined;
  /** The configured read preference, used when a request leaves it unspecified. */
  readonly default_read_preference: string;
  /**
   * The refusal of a member that does not run its group's version (SPEC 9.4), undefined while it
   * does: such a member forwards nothing and serves leader-routed reads itself.
   */
  readonly readOnly?: () => WeftError | undefined;
}

type Route = 'local' | 'leader';

/** ReadPreference.PRIMARY in weft.v1 (consistency.proto). */
const READ_PREFERENCE_PRIMARY = 1;

function routeOf(service: string, method: string, req: unknown, defaultPrimary: boolean): Route {
  if (service !== 'weft.v1.QueryService') return 'local';
  switch (method) {
    case 'beginTransaction':
    case 'commitTransaction':
    case 'rollbackTransaction':
      return 'leader';
    case 'executeCypher': {
      const r = req as { transactionId: bigint; readPreference: number };
      if (r.transactionId !== 0n) return 'leader';
      return r.readPreference === READ_PREFERENCE_PRIMARY || (r.readPreference === 0 && defaultPrimary) ? 'leader' : 'local';
    }
    default:
      return 'local';
  }
}

/** ExecuteCypher outside a transaction: a read a read-only member may serve (its writes meet the write gate). */
function isPlainStatement(service: string, method: string, req: unknown): boolean {
  return service === 'weft.v1.QueryService' && method === 'executeCypher' && (req as { transactionId: bigint }).transactionId === 0n;
}

function encodeCall(service: string, method: string, request: Uint8Array): Uint8Array {
  const head = Buffer.from(JSON.stringify({ service, method }));
  const out = Buffer.alloc(4 + head.byteLength + request.byteLength);
  out.writeUInt32LE(head.byteLength, 0);
  head.copy(out, 4);
  out.set(request, 4 + head.byteLength);
  return out;
}

function decodeCall(payload: Uint8Array): { service: string; method: string; request: Uint8Array } {
  const buf = Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
  if (buf.byteLength < 4) throw invalidArgument('forwarded call is truncated');
  const n = buf.readUInt32LE(0);
  const head = JSON.parse(buf.subarray(4, 4 + n).toString('utf8')) as { service: string; method: string };
  return { ...head, request: buf.subarray(4 + n) };
}

/**
 * Wraps `services` so leader-only calls go to the leader, and registers the handler by which this
 * member answers calls forwarded to it. Without a transport the services are returned as they are.
 */
export function forwardingServices(services: readonly RegisteredService[], options: ForwardingOptions): RegisteredService[] {
  const t = options.transport;
  if (t === undefined) return [...services];
  const log = options.log;
  const defaultPrimary = options.default_read_preference === 'PRIMARY';
  const methods = new Map<string, { method: DescMethod; handler: ErasedHandler }>();
  for (const s of services) {
    for (const m of s.service.methods) {
      const h = s.handlers.get(m.localName);
      if (h !== undefined && m.methodKind === 'unary') methods.set(`${s.service.typeName}/${m.localName}`, { method: m, handler: h });
    }
  }

  t.handle(FORWARD_METHOD, async (from, payload, signal) => {
    const call = decodeCall(payload);
    const target = methods.get(`${call.service}/${call.method}`);
    if (target === undefined) throw unimplemented(`forwarded method ${call.service}/${call.method} is not served here`);
    if (!log.isLeader) throw log.notLeader();
    const req = fromBinary(target.method.input, call.request);
    const ctx: CallContext = {
      signal,
      transport: 'grpc',
      headers: {},
      method: `/${call.service}/${target.method.name}`,
      peer: `member ${from}`,
    };
    const reply = (await target.handler(req, ctx)) as Parameters<typeof create>[1];
    return toBinary(target.method.output, create(target.method.output, reply));
  });

  const forward = async (method: DescMethod, service: string, req: unknown, ctx: CallContext): Promise<unknown> => {
    const lead = log.leaderId;
    if (lead === 0 || lead === log.nodeId) throw log.notLeader();
    const timeout_ms = ctx.deadline_ms !== undefined ? Math.max(1, ctx.deadline_ms - Date.now()) : forward_timeout_ms_default;
    const request = toBinary(method.input, req as Parameters<typeof toBinary>[1]);
    const bytes = await t.call(lead, FORWARD_METHOD, encodeCall(service, method.localName, request), timeout_ms);
    return fromBinary(method.output, bytes);
  };

  return services.map((s) => {
    const wrapped = new Map<string, ErasedHandler>();
    for (const [name, h] of s.handlers) {
      const method = s.service.methods.find((m) => m.localName === name);
      if (method === undefined || method.methodKind !== 'unary') {
        wrapped.set(name, h);
        continue;
      }
      const service = s.service.typeName;
      // A removed member's state stops at its removal: it answers only its cluster status.
      const served_when_removed = service === 'weft.v1.ClusterService';
      wrapped.set(name, async (req: unknown, ctx: CallContext) => {
        if (log.removed && !served_when_removed) {
          throw failedPrecondition(`member ${log.nodeId} was removed from its group; call another member`, 'MEMBER_REMOVED');
        }
        if (!log.isLeader && routeOf(service, name, req, defaultPrimary) === 'leader') {
          const refusal = options.readOnly?.();
          if (refusal === undefined) return forward(method, service, req, ctx);
          // A read-only member serves reads itself; what only the leader may run is refused.
          if (!isPlainStatement(service, name, req)) throw refusal;
        }
        try {
          return await h(req, ctx);
        } catch (e) {
          if (isWeftError(e) && e.reason === 'NOT_LEADER' && !log.isLeader && log.leaderId !== 0) {
            const refusal = options.readOnly?.();
            if (refusal !== undefined) throw refusal;
            return forward(method, service, req, ctx);
          }
          throw e;
        }
      });
    }
    // A forwarded (unary) method re-encodes its request, so only methods left as they are keep
    // taking theirs in parts.
    const parted = s.parted_requests === undefined ? undefined : new Set([...s.parted_requests].filter((n) => wrapped.get(n) === s.handlers.get(n)));
    return { service: s.service, handlers: wrapped, parted_requests: parted };
  });
}

