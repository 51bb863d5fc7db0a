/**
 * Runs a handler for either transport: finds it (UNIMPLEMENTED when absent), turns its replies into
 * messages of the method's output type, and stops waiting when the call's signal aborts, so a
 * handler that ignores its deadline cannot hold a call open past it.
 */
import { create, isMessage, type DescMessage, type DescMethod, type Message } from '@bufbuild/protobuf';
import { WeftError } from '../common/errors.js';
import type { OpenCall } from './call-context.js';
import { HeldReply, type CallContext, type ErasedHandler, type RegisteredService } from './handlers.js';

export function findHandler(registered: RegisteredService, method: DescMethod): ErasedHandler {
  const handler = registered.handlers.get(method.localName);
  if (handler === undefined) {
    throw new WeftError('UNIMPLEMENTED', `${method.parent.typeName}.${method.name} is not implemented by this server`);
  }
  return handler;
}

/** The reply as a message of the output type; handlers may return a plain init object. */
export function toOutputMessage(output: DescMessage, reply: unknown): Message {
  if (isMessage(reply, output)) return reply;
  if (typeof reply !== 'object' || reply === null || isMessage(reply) || reply instanceof HeldReply) {
    throw new TypeError(`handler returned ${describe(reply)} where ${output.typeName} was expected`);
  }
  return create(output, reply as Record<string, unknown>);
}

function describe(v: unknown): string {
  if (isMessage(v)) return `a ${v.$typeName}`;
  if (v instanceof HeldReply) return 'a held reply (unary methods only)';
  return v === null ? 'null' : typeof v;
}

/** Rejects with the signal's reason once it aborts. Never resolves otherwise. */
function aborted(signal: AbortSignal): { promise: Promise<never>; release(): void } {
  let release = (): void => {};
  const promise = new Promise<never>((_, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    release = () => signal.removeEventListener('abort', onAbort);
  });
  promise.catch(() => {});
  return { promise, release };
}

/** Awaits `p` unless the signal aborts first. */
export async function untilAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  const stop = aborted(signal);
  try {
    return await Promise.race([p, stop.promise]);
  } finally {
    stop.release();
  }
}

/**
 * Awaits `p` unless the call is aborted first, as untilAborted does, without making the call's
 * signal: most calls never abort, and a signal with a listener on it costs microseconds per call.
 */
export function untilCallAborted<T>(call: OpenCall, p: Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    call.onAbort(reject);
    p.then(resolve, reject);
  });
}

/**
 * A unary call's reply, encoded by `encode` (the transport's wire form). A held reply is encoded
 * while its wait runs and returned once the wait resolves; its rejection is the call's error.
 */
export async function callUnary<T>(method: DescMethod, handler: ErasedHandler, req: Message, call: OpenCall, encode: (reply: Message) => T): Promise<T> {
  const reply = await untilCallAborted(call, Promise.resolve(handler(req, call.ctx)));
  if (!(reply instanceof HeldReply)) return encode(toOutputMessage(method.output, reply));
  const encoded = encode(toOutputMessage(method.output, reply.reply));
  await untilCallAborted(call, reply.settled);
  return encoded;
}

export async function callClientStreaming(
  method: DescMethod,
  handler: ErasedHandler,
  reqs: AsyncIterable<Message>,
  ctx: CallContext,
): Promise<Message> {
  const reply = await untilAborted(Promise.resolve(handler(reqs, ctx)), ctx.signal);
  return toOutputMessage(method.output, reply);
}

/** Server and bidi streaming: the handler's iterable, each reply turned into a message. */
export async function* callStreaming(
  method: DescMethod,
  handler: ErasedHandler,
  input: Message | AsyncIterable<Message>,
  ctx: CallContext,
): AsyncGenerator<Message, void, undefined> {
  const replies = handler(input, ctx);
  if (typeof replies !== 'object' || replies === null || !(Symbol.asyncIterator in replies)) {
    throw new TypeError(`handler of ${method.name} returned ${typeof replies}, not an async iterable`);
  }
  const iterator = (replies as AsyncIterable<unknown>)[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await untilAborted(iterator.next(), ctx.signal);
      if (next.done === true) return;
      yield toOutputMessage(method.output, next.value);
    }
  } finally {
    // Lets the handler's generator run its own finally blocks; its result does not matter here.
    void Promise.resolve(iterator.return?.()).catch(() => {});
  }
}
