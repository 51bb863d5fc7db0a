import { assertNever } from '../../common/assert.js';
import { isWeftError, WeftError } from '../../common/errors.js';
import type { NodeId } from '../raft/types.js';
import type { PeerBinding } from './admission.js';
import type { PeerCallHandler, RaftMessageHandler } from './peer-transport.js';
import {
  peer_paths,
  type PeerCallRequest,
  type PeerCallResponse,
  type RaftBatch,
  type SenderHeader,
  type SnapshotChunk,
  type SnapshotOutcome,
} from './peer-wire.js';
import { isPeerCallRequest, isRaftBatch, isSnapshotChunk } from './frame-shape.js';
import type { H2ServerStream } from './h2-peer-interface.js';
import { type PeerCallFailure, PeerServerCall } from './peer-server-call.js';
import { snapshot_head_taken_key, SnapshotReceiver } from './snapshot-stream.js';
import type { SnapshotFiles } from './snapshot-files.js';
import { HANDSHAKE_METHOD, versionRefusal, versionVerdict, type VersionStamp } from '../version/handshake.js';

/**
 * The accepting side of the peer service. Every frame is admitted under the identity the caller's
 * certificate proves (admission.ts) before anything in it reaches Raft or a call handler; a refused
 * stream ends PERMISSION_DENIED so the sender sees why in its logs. The gRPC call itself (framing,
 * headers, status trailers, deadline) is peer-server-call.ts; this file is what each method does.
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

/**
 * Admits a frame: first the caller's identity (admission.ts), then its version (SPEC 9.3). Only the
 * handshake call passes between members whose pairs or deployments differ.
 */
function admit(ctx: PeerServerContext, call: PeerServerCall, header: SenderHeader, well_formed: boolean, method?: string): PeerCallFailure | undefined {
  if (!well_formed) return denied('a frame this version cannot read');
  const identity = call.identity;
  const verdict = ctx.binding.admit(header.from, identity, header.from_address);
  if (!verdict.admitted) {
    if (identity !== undefined && ctx.departed(identity)) {
      // A member that was down while it was removed learns it here, from any frame it sends.
      const why = `member ${header.from} (${identity}) was removed from this group`;
      ctx.refused(header.from, why);
      return failureOf(new WeftError('PERMISSION_DENIED', why, 'MEMBER_REMOVED', { node_id: String(header.from) }));
    }
    ctx.refused(header.from, verdict.why);
    return denied(verdict.why);
  }
  if (method === HANDSHAKE_METHOD) return undefined;
  const stamp = ctx.stamp();
  const why = versionVerdict(stamp, header);
  if (why === undefined) return undefined;
  ctx.versionRefused(header.from);
  return failureOf(versionRefusal(stamp, why));
}

function denied(why: string): PeerCallFailure {
  return { code: 'PERMISSION_DENIED', message: why };
}

/**
 * The peer service: each stream the peer port accepts is served as the call its path names. Every
 * request message is checked for shape and admitted before anything in it is used.
 */
export function peerService(ctx: PeerServerContext, message_bytes_max: number): (stream: H2ServerStream) => void {
  return (stream) => {
    const call = new PeerServerCall(stream, message_bytes_max);
    switch (call.path) {
      case peer_paths.raft:
        serveRaft(ctx, call);
        return;
      case peer_paths.snapshot:
        serveSnapshot(ctx, call);
        return;
      case peer_paths.call:
        serveUnary(ctx, call);
        return;
      default:
        call.fail({ code: 'UNIMPLEMENTED', message: `no peer method at '${call.path}'` });
    }
  };
}

/** The Raft stream: batches handed to Raft as they arrive; answered once, empty, at the stream's end. */
function serveRaft(ctx: PeerServerContext, call: PeerServerCall): void {
  let admitted = false;
  call.serve({
    message: (frame) => {
      const well_formed = isRaftBatch(frame);
      const batch = frame as RaftBatch;
      const refusal = admit(ctx, call, batch, well_formed);
      if (refusal !== undefined) {
        call.fail(refusal);
        return;
      }
      if (!admitted) {
        // Headers tell the sender its stream was admitted: the peer is really there (peer-link.ts).
        admitted = true;
        call.sendHeaders();
      }
      const handler = ctx.raftHandler();
      for (const message of batch.messages) {
        if (message.from !== batch.from || message.to !== ctx.self) {
          ctx.refused(batch.from, `a message from ${message.from} to ${message.to} in a frame from ${batch.from} to ${ctx.self}`);
          continue;
        }
        handler?.(message);
      }
    },
    end: () => call.answer({}),
    cancelled: () => undefined,
  });
}

function serveSnapshot(ctx: PeerServerContext, call: PeerServerCall): void {
  const receiver = new SnapshotReceiver(ctx.self, ctx.snapshotFiles(), ctx.snapshot_bytes_max);
  let done = false;
  let head_taken = false;
  // Chunks are taken one at a time: the stream is paused while one is written, so what waits in
  // memory is what HTTP/2 flow control lets through, not the snapshot.
  let queue = Promise.resolve();
  const refuse = (from: NodeId, why: string): void => {
    done = true;
    ctx.snapshotReceiving({ kind: 'refused' });
    ctx.refused(from, why);
    call.fail({ code: 'INVALID_ARGUMENT', message: why });
  };
  call.serve({
    message: (frame) => {
      if (done) return;
      const well_formed = isSnapshotChunk(frame);
      const chunk = frame as SnapshotChunk;
      const refusal = admit(ctx, call, chunk, well_formed);
      if (refusal !== undefined) {
        done = true;
        call.fail(refusal);
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
              call.sendHeaders({ [snapshot_head_taken_key]: 'taken' });
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
            call.answer({ delivered: false, resume_at: verdict.at } satisfies SnapshotOutcome);
            return;
          default:
            assertNever(verdict, 'chunk verdict');
        }
      });
    },
    end: () => {
      queue = queue.then(async () => {
        if (done) return;
        done = true;
        const result = await receiver.finish();
        if (result.kind === 'refused') {
          ctx.snapshotReceiving({ kind: 'refused' });
          call.fail({ code: 'INVALID_ARGUMENT', message: result.why });
          return;
        }
        ctx.snapshotReceiving({ kind: 'complete' });
        const handler = ctx.raftHandler();
        handler?.(result.message);
        call.answer({ delivered: handler !== undefined } satisfies SnapshotOutcome);
      });
    },
    // A broken link keeps what is durable: the same snapshot offered again resumes after it.
    cancelled: () => {
      if (!done) ctx.snapshotReceiving({ kind: 'broken' });
      done = true;
      queue = queue.then(() => receiver.suspend());
    },
  });
}

function serveUnary(ctx: PeerServerContext, call: PeerServerCall): void {
  let request: PeerCallRequest | undefined;
  const abort = new AbortController();
  call.serve({
    message: (frame) => {
      if (request !== undefined) {
        call.fail({ code: 'INVALID_ARGUMENT', message: 'a unary call carries one request' });
        abort.abort();
        return;
      }
      request = frame as PeerCallRequest;
    },
    end: () => {
      if (request === undefined) {
        call.fail({ code: 'INVALID_ARGUMENT', message: 'a unary call without its request' });
        return;
      }
      answerUnary(ctx, call, request, abort.signal);
    },
    cancelled: () => abort.abort(),
  });
}

function answerUnary(ctx: PeerServerContext, call: PeerServerCall, request: PeerCallRequest, signal: AbortSignal): void {
  const well_formed = isPeerCallRequest(request);
  const refusal = admit(ctx, call, request, well_formed, well_formed ? request.method : undefined);
  if (refusal !== undefined) {
    call.fail(refusal);
    return;
  }
  const handler = ctx.callHandler(request.method);
  if (handler === undefined) {
    call.fail({ code: 'UNIMPLEMENTED', message: `no peer method '${request.method}'` });
    return;
  }
  handler(request.from, request.payload, signal).then(
    (payload) => call.answer({ payload } satisfies PeerCallResponse),
    (e: unknown) => call.fail(failureOf(e)),
  );
}

/** A handler's failure as a gRPC status: a WeftError keeps its code, reason and metadata; anything else is INTERNAL. */
function failureOf(e: unknown): PeerCallFailure {
  if (!isWeftError(e)) return { code: 'INTERNAL', message: e instanceof Error ? e.message : String(e) };
  return { code: e.code, message: e.message, detail: { reason: e.reason, metadata: e.metadata } };
}
