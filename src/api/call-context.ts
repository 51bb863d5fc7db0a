/**
 * Per-call context: the deadline timer and the cancellation signal handlers observe. Both transports
 * open one per call and close it when the call ends, so no timer outlives its call.
 */
import { WeftError } from '../common/errors.js';
import { parseGrpcTimeoutMs } from '../common/grpc/timeout.js';
import type { CallContext, Transport } from './handlers.js';

/** setTimeout's largest delay; a deadline further away than this is treated as none. */
const timer_delay_ms_max = 2_147_483_647;

export interface OpenCallOptions {
  readonly transport: Transport;
  readonly method: string;
  /**
   * The call's metadata, or how to read it: read on first use of ctx.headers, since most handlers
   * never look and reading it makes an object per call.
   */
  readonly headers: Readonly<Record<string, string>> | (() => Readonly<Record<string, string>>);
  readonly peer: string;
  /** Absolute epoch milliseconds. */
  readonly deadline_ms?: number | undefined;
  /** For tests: the clock. */
  readonly now?: () => number;
  /** Passed to the handler as `ctx.announceSize` (raw byte-stream responses). */
  readonly announceSize?: (bytes: number) => void;
  /** Passed to the handler as `ctx.sendMetadata` (gRPC response metadata). */
  readonly sendMetadata?: (key: string, value: string | Uint8Array) => void;
}

export interface OpenCall {
  readonly ctx: CallContext;
  /** Whether the call was aborted (deadline or cancel), without making its signal. */
  readonly aborted: boolean;
  /**
   * Calls `listener` with the reason once the call is aborted (at once if it was), without making
   * its signal: a transport waiting for a handler stops waiting this way.
   */
  onAbort(listener: (reason: WeftError) => void): void;
  /** Aborts the signal with this reason, unless already aborted or closed. */
  cancel(reason: WeftError): void;
  /** Whether close() was called: the call has ended, and cancelling it means nothing. */
  readonly closed: boolean;
  /** Releases the deadline timer. Idempotent. */
  close(): void;
}

export const deadlineExceededError = (): WeftError => new WeftError('DEADLINE_EXCEEDED', 'deadline exceeded');
export const cancelledError = (): WeftError => new WeftError('CANCELLED', 'the client cancelled the call');

export function openCall(o: OpenCallOptions): OpenCall {
  // Made on first use: most unary calls have no deadline and a handler that never looks at its
  // signal, and an AbortController with its signal costs microseconds on every call's path.
  let controller: AbortController | undefined;
  /** Set once, by the first abort; a signal made later is made aborted with it. */
  let reason: WeftError | undefined;
  let listeners: ((reason: WeftError) => void)[] | undefined;
  const made = (): AbortController => {
    if (controller !== undefined) return controller;
    controller = new AbortController();
    if (reason !== undefined) controller.abort(reason);
    return controller;
  };
  const abort = (why: WeftError): void => {
    if (reason !== undefined) return;
    reason = why;
    controller?.abort(why);
    if (listeners !== undefined) for (const listener of listeners.splice(0)) listener(why);
  };
  const now = o.now ?? Date.now;
  let timer: NodeJS.Timeout | undefined;
  if (o.deadline_ms !== undefined) {
    const delay_ms = o.deadline_ms - now();
    if (delay_ms <= 0) abort(deadlineExceededError());
    else if (delay_ms <= timer_delay_ms_max) {
      timer = setTimeout(() => abort(deadlineExceededError()), delay_ms);
      timer.unref();
    }
  }
  let headers = typeof o.headers === 'function' ? undefined : o.headers;
  const ctx: CallContext = {
    get signal() {
      return made().signal;
    },
    get headers() {
      return (headers ??= (o.headers as () => Readonly<Record<string, string>>)());
    },
    transport: o.transport,
    method: o.method,
    peer: o.peer,
    ...(o.deadline_ms !== undefined ? { deadline_ms: o.deadline_ms } : {}),
    ...(o.announceSize !== undefined ? { announceSize: o.announceSize } : {}),
    ...(o.sendMetadata !== undefined ? { sendMetadata: o.sendMetadata } : {}),
  };
  let closed = false;
  return {
    ctx,
    cancel(why) {
      if (!closed) abort(why);
    },
    get aborted() {
      return reason !== undefined;
    },
    onAbort(listener) {
      if (reason !== undefined) listener(reason);
      else (listeners ??= []).push(listener);
    },
    get closed() {
      return closed;
    },
    close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}

// The header's format is shared with the clients; the server's files import it from here.
export { parseGrpcTimeoutMs };

/**
 * Reads a REST call's deadline: `grpc-timeout` (gRPC's format, 1 to 8 digits and a unit H M S m u n)
 * or `x-weft-timeout-ms` (milliseconds, decimal). When both are present the sooner wins.
 * A malformed value is refused rather than ignored: a client that asked for a deadline expects one.
 */
export function deadlineFromHeaders(headers: Readonly<Record<string, string>>, now_ms: number): number | undefined {
  const timeouts: number[] = [];
  const grpcTimeout = headers['grpc-timeout'];
  if (grpcTimeout !== undefined) {
    const timeout_ms = parseGrpcTimeoutMs(grpcTimeout);
    if (timeout_ms === undefined) {
      throw new WeftError('INVALID_ARGUMENT', `grpc-timeout header "${grpcTimeout}" is not <digits><H|M|S|m|u|n>`,
        'INVALID_REQUEST_FIELD', { field: 'grpc-timeout' });
    }
    timeouts.push(timeout_ms);
  }
  const weftTimeout = headers['x-weft-timeout-ms'];
  if (weftTimeout !== undefined) {
    if (!/^\d{1,12}$/.test(weftTimeout.trim())) {
      throw new WeftError('INVALID_ARGUMENT', `x-weft-timeout-ms header "${weftTimeout}" is not a count of milliseconds`,
        'INVALID_REQUEST_FIELD', { field: 'x-weft-timeout-ms' });
    }
    timeouts.push(Number(weftTimeout.trim()));
  }
  if (timeouts.length === 0) return undefined;
  return now_ms + Math.min(...timeouts);
}

/** Resolves when no call is in flight or `drain_ms` has passed, whichever comes first. */
export async function drain(active: ReadonlySet<unknown>, drain_ms: number): Promise<void> {
  const until = Date.now() + drain_ms;
  while (active.size > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
}
