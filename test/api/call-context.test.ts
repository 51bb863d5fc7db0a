import { describe, expect, it } from 'vitest';
import { WeftError } from '../../src/common/errors.js';
import { openCall, type OpenCallOptions } from '../../src/api/call-context.js';

/**
 * The per-call context: its signal is made on first use (most unary calls never look at it), and
 * whenever it is made it tells the same story: a cancel or a deadline before the first look shows
 * on the signal read after it, and a call that ended cannot be cancelled.
 */
const base: OpenCallOptions = { transport: 'grpc', method: '/weft.v1.GraphService/CreateNode', headers: {}, peer: '127.0.0.1:1' };

describe('call context', () => {
  it('a call cancelled before anyone read its signal: the signal read afterwards is aborted with that reason', () => {
    const call = openCall(base);
    expect(call.aborted).toBe(false);
    const reason = new WeftError('CANCELLED', 'the client went away');
    call.cancel(reason);
    expect(call.aborted).toBe(true);
    expect(call.ctx.signal.aborted).toBe(true);
    expect(call.ctx.signal.reason).toBe(reason);
    // A second cancel keeps the first reason.
    call.cancel(new WeftError('UNAVAILABLE', 'stopping'));
    expect(call.ctx.signal.reason).toBe(reason);
    call.close();
  });

  it('a signal read before the cancel is the one the cancel aborts, and reading it again gives the same object', () => {
    const call = openCall(base);
    const signal = call.ctx.signal;
    let heard: unknown;
    signal.addEventListener('abort', () => (heard = signal.reason), { once: true });
    call.cancel(new WeftError('CANCELLED', 'reset'));
    expect(call.ctx.signal).toBe(signal);
    expect(heard).toBeInstanceOf(WeftError);
    call.close();
  });

  it('a deadline already past aborts the call at once; a deadline ahead aborts it when it comes', async () => {
    const past = openCall({ ...base, deadline_ms: 1_000, now: () => 2_000 });
    expect(past.aborted).toBe(true);
    expect((past.ctx.signal.reason as WeftError).code).toBe('DEADLINE_EXCEEDED');
    past.close();

    const soon = openCall({ ...base, deadline_ms: Date.now() + 20 });
    expect(soon.aborted).toBe(false);
    const fired = await new Promise<unknown>((resolve) => {
      soon.ctx.signal.addEventListener('abort', () => resolve(soon.ctx.signal.reason), { once: true });
    });
    expect((fired as WeftError).code).toBe('DEADLINE_EXCEEDED');
    soon.close();
  });

  it('onAbort hears a deadline or a cancel without the signal being made, and a signal made after tells the same reason', async () => {
    const soon = openCall({ ...base, deadline_ms: Date.now() + 20 });
    const heard = await new Promise<WeftError>((resolve) => soon.onAbort(resolve));
    expect(heard.code).toBe('DEADLINE_EXCEEDED');
    expect(soon.ctx.signal.reason).toBe(heard);
    // A listener added once the call was aborted hears it at once.
    let late: WeftError | undefined;
    soon.onAbort((reason) => (late = reason));
    expect(late).toBe(heard);
    soon.close();

    const cancelled = openCall(base);
    const reasons: WeftError[] = [];
    cancelled.onAbort((reason) => reasons.push(reason));
    cancelled.onAbort((reason) => reasons.push(reason));
    const reset = new WeftError('CANCELLED', 'the client went away');
    cancelled.cancel(reset);
    cancelled.cancel(new WeftError('UNAVAILABLE', 'stopping'));
    expect(reasons).toEqual([reset, reset]);
    expect(cancelled.ctx.signal.aborted).toBe(true);
    expect(cancelled.ctx.signal.reason).toBe(reset);
    cancelled.close();
  });

  it('metadata given as a reader is read once, on the first look at ctx.headers', () => {
    let reads = 0;
    const call = openCall({ ...base, headers: () => (reads++, { 'x-request-id': 'r1' }) });
    expect(reads).toBe(0);
    expect(call.ctx.headers['x-request-id']).toBe('r1');
    expect(call.ctx.headers).toEqual({ 'x-request-id': 'r1' });
    expect(reads).toBe(1);
    call.close();
  });

  it('a call that ended is not cancelled by a late cancel, and its deadline timer is gone', async () => {
    const call = openCall({ ...base, deadline_ms: Date.now() + 20 });
    call.close();
    call.cancel(new WeftError('CANCELLED', 'too late'));
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(call.closed).toBe(true);
    expect(call.aborted).toBe(false);
  });
});
