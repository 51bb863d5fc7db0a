import {
  Metadata,
  type sendUnaryData,
  type ServerReadableStream,
  type ServerUnaryCall,
  type ServerErrorResponse,
  status,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { assertNever } from '../../common/assert.js';
import { isWeftError, WeftError } from '../../common/errors.js';
import type { NodeId } from '../raft/types.js';
import type { PeerBinding } from './admission.js';
import type { PeerCallHandler, RaftMessageHandler } from './peer-transport.js';
import {
  encodeFrame,
  error_detail_key,
  type PeerCallErrorDetail,
  type PeerCallRequest,
  type PeerCallResponse,
  type RaftBatch,
  type SenderHeader,
  type SnapshotChunk,
  type SnapshotOutcome,
} from './peer-wire.js';
import { isPeerCallRequest, isRaftBatch, isSnapshotChunk } from './frame-shape.js';
import { spiffeIdOfCertificate } from './spiffe-id.js';
import { snapshot_head_taken_key, SnapshotReceiver } from './snapshot-stream.js';
import type { SnapshotFiles } from './snapshot-files.js';
import { HANDSHAKE_METHOD, versionRefusal, versionVerdict, type VersionStamp } from '../version/handshake.js';

/**
 * The accepting side of the peer service. Every frame is admitted under the identity the caller's
 * certificate proves (admission.ts) before anything in it reaches Raft or a call handler; a refused
 * stream ends PERMISSION_DENIED so the sender sees why in its logs.
 */
export interface PeerServerContext {
  readonly self: NodeId;
  readonly binding: PeerBinding;
  readonly snapshot_bytes_max: number;
  /** Where received snapshot data is written (snapshot-files.ts). */
  snapshotFiles(): SnapshotFiles;
  raftHandler(): RaftMessageHandler | undefined;
  callHandler(method: string): PeerCallHandler | undefined;
  /** A frame or message that was refused or dropped, and why (for logs and counters). */
  refused(from: NodeId, why: string): void;
  /** This member's version pair and deployment, as every frame is checked against them. */
  stamp(): VersionStamp;
  /** A frame or call refused because its sender runs another version or deployment (counted apart). */
  versionRefused(from: NodeId): void;
  /** The identity belongs to a member removed from the group (the membership's departed list). */
  departed(identity: string): boolean;
  /** What became of a snapshot stream, and each chunk written (for counters). */
  snapshotReceiving(event: SnapshotReceiveEvent): void;
}

/**
 * A step of a snapshot stream on the receiving side: a chunk written, or how the stream ended (whole
 * and handed to Raft, refused, broken with its durable part kept, or answered with where to resume).
 */
export type SnapshotReceiveEvent =
  | { readonly kind: 'chunk'; readonly bytes: number }
  | { readonly kind: 'complete' }
  | { readonly kind: 'refused' }
  | { readonly kind: 'broken' }
  | { readonly kind: 'resume_offered' };

type AnyCall = ServerReadableStream<unknown, unknown> | ServerUnaryCall<unknown, unknown>;

/**
 * The identity each call's certificate proves. A call lives on one TLS connection, whose peer
 * certificate cannot change, so it is read once per call rather than once per frame (reading it
 * copies and parses the certificate: a tenth of a leader's CPU under load, one frame per append).
 */
const identities = new WeakMap<AnyCall, { readonly identity: string | undefined }>();

function callerIdentity(call: AnyCall): string | undefined {
  let known = identities.get(call);
  if (known === undefined) {
    known = { identity: spiffeIdOfCertificate(call.getAuthContext().sslPeerCertificate) };
    identities.set(call, known);
  }
  return known.identity;
}

/**
 * Admits a frame: first the caller's identity (admission.ts), then its version (SPEC 9.3). Only the
 * handshake call passes between members whose pairs or deployments differ.
 */
function admit(ctx: PeerServerContext, call: AnyCall, header: SenderHeader, well_formed: boolean, method?: string): ServerErrorResponse | undefined {
  if (!well_formed) return denied('a frame this version cannot read');
  const verdict = ctx.binding.admit(header.from, callerIdentity(call), header.from_address);
  if (!verdict.admitted) {
    const identity = callerIdentity(call);
    if (identity !== undefined && ctx.departed(identity)) {
      // A member that was down while it was removed learns it here, from any frame it sends.
      const why = `member ${header.from} (${identity}) was removed from this group`;
      ctx.refused(header.from, why);
      return errorResponse(new WeftError('PERMISSION_DENIED', why, 'MEMBER_REMOVED', { node_id: String(header.from) }));
    }
    ctx.refused(header.from, verdict.why);
    return denied(verdict.why);
  }
  if (method === HANDSHAKE_METHOD) return undefined;
  const stamp = ctx.stamp();
  const why = versionVerdict(stamp, header);
  if (why === undefined) return undefined;
  ctx.versionRefused(header.from);
  return errorResponse(versionRefusal(stamp, why));
}

function denied(why: string): ServerErrorResponse {
  return { name: 'PeerRefused', message: why, code: status.PERMISSION_DENIED, details: why };
}

export function peerServiceImplementation(ctx: PeerServerContext): UntypedServiceImplementation {
  const raft = (call: ServerReadableStream<RaftBatch, Record<string, never>>, callback: sendUnaryData<Record<string, never>>): void => {
    let admitted = false;
    let done = false;
    call.on('data', (batch: RaftBatch) => {
      if (done) return;
      const refusal = admit(ctx, call, batch, isRaftBatch(batch));
      if (refusal !== undefined) {
        done = true;
        callback(refusal);
        return;
      }
      if (!admitted) {
        admitted = true;
        call.sendMetadata(new Metadata());
      }
      const handler = ctx.raftHandler();
      for (const message of batch.messages) {
        if (message.from !== batch.from || message.to !== ctx.self) {
          ctx.refused(batch.from, `a message from ${message.from} to ${message.to} in a frame from ${batch.from} to ${ctx.self}`);
          continue;
        }
        handler?.(message);
      }
    });
    call.on('end', () => {
      if (!done) callback(null, {});
      done = true;
    });
    call.on('error', () => (done = true));
  };

  const snapshot = (call: ServerReadableStream<SnapshotChunk, SnapshotOutcome>, callback: sendUnaryData<SnapshotOutcome>): void => {
    const receiver = new SnapshotReceiver(ctx.self, ctx.snapshotFiles(), ctx.snapshot_bytes_max);
    let done = false;
    let head_taken = false;
    // Chunks are taken one at a time: the stream is paused while one is written, so what waits in
    // memory is what gRPC's flow control lets through, not the snapshot.
    let queue = Promise.resolve();
    const refuse = (from: NodeId, why: string): void => {
      done = true;
      ctx.snapshotReceiving({ kind: 'refused' });
      ctx.refused(from, why);
      callback({ name: 'SnapshotRefused', message: why, code: status.INVALID_ARGUMENT, details: why });
    };
    call.on('data', (chunk: SnapshotChunk) => {
      if (done) return;
      const refusal = admit(ctx, call, chunk, isSnapshotChunk(chunk));
      if (refusal !== undefined) {
        done = true;
        callback(refusal);
        queue = queue.then(() => receiver.abort());
        return;
      }
      call.pause();
      queue = queue.then(async () => {
        if (done) return;
        const verdict = await receiver.add(chunk);
        switch (verdict.kind) {
          case 'taken':
            ctx.snapshotReceiving({ kind: 'chunk', bytes: chunk.data.byteLength });
            // Headers tell the sender its head was taken: it sends the rest only then (snapshot-stream.ts).
            if (!head_taken) {
              head_taken = true;
              const headers = new Metadata();
              headers.set(snapshot_head_taken_key, 'taken');
              call.sendMetadata(headers);
            }
            call.resume();
            return;
          case 'refused':
            refuse(chunk.from, verdict.why);
            return;
          case 'resume':
            // Part of this snapshot is here from a broken attempt: the sender starts again after it.
            done = true;
            ctx.snapshotReceiving({ kind: 'resume_offered' });
            callback(null, { delivered: false, resume_at: verdict.at });
            return;
          default:
            assertNever(verdict, 'chunk verdict');
        }
      });
    });
    call.on('end', () => {
      queue = queue.then(async () => {
        if (done) return;
        done = true;
        const result = await receiver.finish();
        if (result.kind === 'refused') {
          ctx.snapshotReceiving({ kind: 'refused' });
          callback({ name: 'SnapshotRefused', message: result.why, code: status.INVALID_ARGUMENT, details: result.why });
          return;
        }
        ctx.snapshotReceiving({ kind: 'complete' });
        const handler = ctx.raftHandler();
        handler?.(result.message);
        callback(null, { delivered: handler !== undefined });
      });
    });
    // A broken link keeps what is durable: the same snapshot offered again resumes after it.
    const broken = (): void => {
      if (!done) ctx.snapshotReceiving({ kind: 'broken' });
      done = true;
      queue = queue.then(() => receiver.suspend());
    };
    call.on('error', broken);
    call.on('cancelled', broken);
  };

  const unary = (call: ServerUnaryCall<PeerCallRequest, PeerCallResponse>, callback: sendUnaryData<PeerCallResponse>): void => {
    const request = call.request;
    const refusal = admit(ctx, call, request, isPeerCallRequest(request), isPeerCallRequest(request) ? request.method : undefined);
    if (refusal !== undefined) {
      callback(refusal);
      return;
    }
    const handler = ctx.callHandler(request.method);
    if (handler === undefined) {
      callback({ name: 'Unimplemented', message: `no peer method '${request.method}'`, code: status.UNIMPLEMENTED, details: `no peer method '${request.method}'` });
      return;
    }
    const abort = new AbortController();
    call.on('cancelled', () => abort.abort());
    handler(request.from, request.payload, abort.signal).then(
      (payload) => callback(null, { payload }),
      (e: unknown) => callback(errorResponse(e)),
    );
  };

  return { raft, snapshot, call: unary } as UntypedServiceImplementation;
}

/** A handler's failure as a gRPC status: a WeftError keeps its code, reason and metadata; anything else is INTERNAL. */
function errorResponse(e: unknown): ServerErrorResponse {
  if (!isWeftError(e)) {
    const message = e instanceof Error ? e.message : String(e);
    return { name: 'Internal', message, code: status.INTERNAL, details: message };
  }
  const metadata = new Metadata();
  metadata.set(error_detail_key, encodeFrame({ reason: e.reason, metadata: e.metadata } satisfies PeerCallErrorDetail));
  return { name: e.name, message: e.message, code: status[e.code], details: e.message, metadata };
}
