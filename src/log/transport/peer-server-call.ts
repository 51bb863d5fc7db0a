import { type StatusCode, WeftError } from '../../common/errors.js';
import { frameMessage, MessageDeframer } from '../../common/grpc/framing.js';
import { percentEncode, statusNumber } from '../../common/grpc/status.js';
import { parseGrpcTimeoutMs } from '../../common/grpc/timeout.js';
import type { H2OutgoingHeaders, H2ServerStream } from './h2-peer-interface.js';
import { decodeFrame, encodeFrame, error_detail_key, type PeerCallErrorDetail } from './peer-wire.js';

/**
 * One call of the peer service on the accepting side, over a stream of the HTTP/2 adapter: request
 * messages deframed and decoded as they arrive, response headers when the service asks, and the
 * end as gRPC trailers (a trailers-only response when nothing was sent before). A call's
 * `grpc-timeout` ends it DEADLINE_EXCEEDED and fires `cancelled`, as does a reset by the caller.
 */
export interface PeerServerCallHandlers {
  /** One request message, decoded (its shape is the service's to check). */
  message(frame: unknown): void;
  /** The caller sent its last message. */
  end(): void;
  /** The call is over before the service answered: reset, its connection lost, or its deadline passed. */
  cancelled(): void;
}

/** How a call fails: a gRPC status, with a WeftError's reason and metadata when it has them. */
export interface PeerCallFailure {
  readonly code: StatusCode;
  readonly message: string;
  readonly detail?: PeerCallErrorDetail;
}

const response_headers: H2OutgoingHeaders = { ':status': 200, 'content-type': 'application/grpc' };
const ok_trailers: H2OutgoingHeaders = { 'grpc-status': '0' };

export class PeerServerCall {
  private handlers: PeerServerCallHandlers | undefined;
  private readonly deframer: MessageDeframer;
  private headers_sent = false;
  /** Set once the status is sent (or the call was cut): nothing more is delivered or written. */
  private over = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly stream: H2ServerStream,
    message_bytes_max: number,
  ) {
    this.deframer = new MessageDeframer(message_bytes_max);
  }

  get path(): string {
    return this.stream.path;
  }

  /** The SPIFFE ID the caller's certificate proves. */
  get identity(): string | undefined {
    return this.stream.peer_identity;
  }

  /** True once the call's status was sent or the call was cut. */
  get finished(): boolean {
    return this.over;
  }

  /** Starts delivering: set once. */
  serve(handlers: PeerServerCallHandlers): void {
    this.handlers = handlers;
    const timeout = this.stream.headers['grpc-timeout'];
    const timeout_ms = typeof timeout === 'string' ? parseGrpcTimeoutMs(timeout) : undefined;
    if (timeout_ms !== undefined) {
      this.timer = setTimeout(() => {
        this.fail({ code: 'DEADLINE_EXCEEDED', message: `the call passed its deadline of ${timeout_ms} ms` });
        handlers.cancelled();
      }, timeout_ms);
    }
    this.stream.handle({
      data: (chunk) => this.data(chunk),
      end: () => {
        if (!this.over) handlers.end();
      },
      aborted: () => {
        if (this.over) return;
        this.over = true;
        this.clearTimer();
        handlers.cancelled();
      },
    });
  }

  pause(): void {
    this.stream.pause();
  }

  resume(): void {
    this.stream.resume();
  }

  /** Sends the response headers now (they tell the caller it was admitted), with `extra` among them. */
  sendHeaders(extra?: H2OutgoingHeaders): void {
    if (this.over || this.headers_sent) return;
    this.headers_sent = true;
    this.stream.respond(extra === undefined ? response_headers : { ...response_headers, ...extra }, false);
  }

  /** Ends the call OK with `answer` as its one response message. */
  answer(answer: unknown): void {
    if (this.over) return;
    this.sendHeaders();
    this.stream.write(frameMessage(encodeFrame(answer)));
    this.finish(ok_trailers);
  }

  /** Ends the call with a failed status. */
  fail(failure: PeerCallFailure): void {
    if (this.over) return;
    const trailers: Record<string, string> = { 'grpc-status': String(statusNumber(failure.code)), 'grpc-message': percentEncode(failure.message) };
    // Binary metadata travels base64 in a `-bin` header, as gRPC's wire says.
    if (failure.detail !== undefined) trailers[error_detail_key] = encodeFrame(failure.detail).toString('base64');
    if (this.headers_sent) {
      this.finish(trailers);
      return;
    }
    this.over = true;
    this.clearTimer();
    this.stream.respond({ ...response_headers, ...trailers }, true);
  }

  private finish(trailers: H2OutgoingHeaders): void {
    this.over = true;
    this.clearTimer();
    this.stream.endWithTrailers(trailers);
  }

  private clearTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private data(chunk: Buffer): void {
    if (this.over) return;
    try {
      for (const m of this.deframer.push(chunk)) {
        if (m.compressed) throw new WeftError('INTERNAL', 'a compressed message: the peer service never compresses');
        const frame = decodeMessage(m.bytes);
        // A message may end the call (a refusal): what follows it in the chunk is not delivered.
        if (this.over) return;
        this.handlers?.message(frame);
      }
    } catch (e) {
      const error = e instanceof WeftError ? e : new WeftError('INTERNAL', String(e));
      this.fail({ code: error.code, message: error.message });
      this.handlers?.cancelled();
    }
  }
}

function decodeMessage(bytes: Buffer): unknown {
  try {
    return decodeFrame<unknown>(bytes);
  } catch (e) {
    throw new WeftError('INTERNAL', `a message that does not decode: ${e instanceof Error ? e.message : String(e)}`);
  }
}
