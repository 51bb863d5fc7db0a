import { WeftError, type StatusCode } from '../../common/errors.js';
import { frameMessage, MessageDeframer } from '../../common/grpc/framing.js';
import { h2_no_error, percentDecode, statusName, statusOfHttp, statusOfReset } from '../../common/grpc/status.js';
import { grpcTimeoutHeader } from '../../common/grpc/timeout.js';
import type { H2ClientSession, H2ClientStream, H2ClientStreamHandlers, H2Headers, H2OutgoingHeaders } from './h2-peer-interface.js';
import { decodeFrame, error_detail_key, type PeerCallErrorDetail } from './peer-wire.js';

/**
 * One gRPC call of the peer service from the dialing side, over a stream of the HTTP/2 adapter:
 * request headers (content-type application/grpc, te: trailers, grpc-timeout from the deadline),
 * length-prefixed messages, and the end read from trailers or a trailers-only response. The peer
 * service's calls are client streams or unary, so the answer is at most one message.
 *
 * A class with its handlers as methods, not closures: a Raft stream lives long, but a forwarded
 * write is a unary call each, on the hot path of a follower.
 */
export type PeerCallEnd =
  | { readonly ok: true; readonly answer: Buffer | undefined }
  | { readonly ok: false; readonly code: StatusCode; readonly message: string; readonly detail: PeerCallErrorDetail | undefined };

export interface PeerCallEvents {
  /** Response headers (the receiver's headers, or a trailers-only response's). */
  headers?(headers: H2Headers): void;
  /** The stream can take more after a write returned false. */
  drain?(): void;
  /** Once, when the call is over. */
  done(end: PeerCallEnd): void;
}

export interface PeerCallOptions {
  /** The call ends DEADLINE_EXCEEDED after this; sent as grpc-timeout. None for a long-lived stream. */
  readonly timeout_ms?: number;
  /** The largest answer taken; a larger one fails RESOURCE_EXHAUSTED. */
  readonly message_bytes_max: number;
}

export class PeerCall implements H2ClientStreamHandlers {
  private readonly stream: H2ClientStream;
  private readonly deframer: MessageDeframer;
  private answer: Buffer | undefined;
  /** The status once known (trailers, a trailers-only response, or a failure seen here). */
  private end: PeerCallEnd | undefined;
  private http_status = 0;
  private timer: NodeJS.Timeout | undefined;
  private finished = false;

  constructor(session: H2ClientSession, path: string, options: PeerCallOptions, private readonly events: PeerCallEvents) {
    this.deframer = new MessageDeframer(options.message_bytes_max);
    const headers: Record<string, string> = {
      ':method': 'POST',
      ':path': path,
      'content-type': 'application/grpc',
      te: 'trailers',
      'grpc-accept-encoding': 'identity',
    };
    if (options.timeout_ms !== undefined) {
      headers['grpc-timeout'] = grpcTimeoutHeader(options.timeout_ms);
      this.timer = setTimeout(() => this.fail('DEADLINE_EXCEEDED', `no answer within ${options.timeout_ms} ms`), options.timeout_ms);
    }
    this.stream = session.open(headers satisfies H2OutgoingHeaders, this);
  }

  /** Writes one request message; false when the stream's buffer is full (wait for `drain`). */
  write(message: Uint8Array): boolean {
    if (this.end !== undefined) return true;
    return this.stream.write(frameMessage(message));
  }

  /** No more request messages. */
  close(): void {
    this.stream.end();
  }

  /** Ends the call CANCELLED and resets its stream. */
  cancel(): void {
    this.fail('CANCELLED', 'the call was cancelled');
  }

  headers(headers: H2Headers): void {
    const status = Number(first(headers[':status']));
    this.http_status = status;
    this.events.headers?.(headers);
    // A trailers-only response carries the status in its headers.
    if (headers['grpc-status'] !== undefined && this.end === undefined) this.settle(headers);
  }

  data(chunk: Buffer): void {
    if (this.end !== undefined) return;
    try {
      for (const m of this.deframer.push(chunk)) {
        if (m.compressed) throw new WeftError('INTERNAL', 'a compressed answer: the peer service never compresses');
        this.answer = m.bytes;
      }
    } catch (e) {
      const error = e instanceof WeftError ? e : new WeftError('INTERNAL', String(e));
      this.fail(error.code, error.message);
    }
  }

  trailers(trailers: H2Headers): void {
    if (this.end === undefined) this.settle(trailers);
  }

  drain(): void {
    this.events.drain?.();
  }

  closed(reset_code: number, connection_failure: string | undefined): void {
    if (this.end === undefined) {
      if (connection_failure !== undefined) this.end = failed('UNAVAILABLE', connection_failure);
      else if (reset_code !== h2_no_error) this.end = failed(statusOfReset(reset_code), `the peer reset the stream (HTTP/2 error ${reset_code})`);
      else if (this.http_status !== 200 && this.http_status !== 0) this.end = failed(statusOfHttp(this.http_status), `the peer answered HTTP ${this.http_status}`);
      else this.end = failed('UNAVAILABLE', 'the stream ended without a status');
    }
    this.finish();
  }

  /**
   * The status arrived: the call is over whether or not this side finished sending (a receiver that
   * refuses a stream answers before its end), so the stream is released rather than left half open.
   */
  private settle(block: H2Headers): void {
    this.readStatus(block);
    this.stream.release();
    this.finish();
  }

  private readStatus(block: H2Headers): void {
    const code = Number(first(block['grpc-status']));
    if (code === 0) {
      this.end = this.deframer.midMessage ? failed('INTERNAL', 'the answer was cut short') : { ok: true, answer: this.answer };
      return;
    }
    const detail_b64 = first(block[error_detail_key]);
    let detail: PeerCallErrorDetail | undefined;
    if (detail_b64 !== undefined) {
      try {
        detail = decodeFrame<PeerCallErrorDetail>(Buffer.from(detail_b64, 'base64'));
      } catch {
        detail = undefined;
      }
    }
    this.end = { ok: false, code: statusName(Number.isInteger(code) ? code : 2), message: percentDecode(first(block['grpc-message']) ?? ''), detail };
  }

  /** A failure seen on this side: the call ends with it and the stream is reset. */
  private fail(code: StatusCode, message: string): void {
    if (this.end !== undefined) return;
    this.end = failed(code, message);
    this.stream.cancel();
    this.finish();
  }

  private finish(): void {
    if (this.finished || this.end === undefined) return;
    this.finished = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.events.done(this.end);
  }
}

function failed(code: StatusCode, message: string): PeerCallEnd {
  return { ok: false, code, message, detail: undefined };
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
