/**
 * Typed calls over a GrpcChannel: a generated method's request encoded with protobuf-es, its
 * response messages decoded, for the four kinds of method. The SDK (src/client) and the typed
 * client in src/api both call through these, so they share one behaviour on the wire.
 */
import { create, fromBinary, toBinary, type DescMessage, type DescMethod, type MessageInitShape, type MessageShape } from '@bufbuild/protobuf';
import { WeftError } from '../errors.js';
import type { ClientCall, CallOptions } from './call.js';
import type { GrpcChannel } from './channel.js';
import { encodeMessageParts } from './message-parts.js';

/** Requests of a client-streaming or bidi call: any iterable, read as the stream takes them. */
export type Requests<I extends DescMessage> = AsyncIterable<MessageInitShape<I>> | Iterable<MessageInitShape<I>>;

const paths = new WeakMap<DescMethod, string>();

/** `/package.Service/Method`, built once per method. */
export function methodPath(method: DescMethod): string {
  let path = paths.get(method);
  if (path === undefined) {
    path = `/${method.parent.typeName}/${method.name}`;
    paths.set(method, path);
  }
  return path;
}

export function encodeMessage<I extends DescMessage>(schema: I, req: MessageInitShape<I>): Uint8Array {
  return toBinary(schema, create(schema, req));
}

/** A response message; one that does not decode is the server's fault, INTERNAL. */
export function decodeMessage<O extends DescMessage>(schema: O, bytes: Uint8Array): MessageShape<O> {
  try {
    return fromBinary(schema, bytes);
  } catch (e) {
    throw new WeftError('INTERNAL', `a response is not a valid ${schema.typeName}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

export async function callUnary<I extends DescMessage, O extends DescMessage>(
  channel: GrpcChannel, method: DescMethod & { input: I; output: O }, req: MessageInitShape<I>, options: CallOptions = {},
): Promise<MessageShape<O>> {
  const call = channel.start(methodPath(method), options);
  call.send(encodeMessage(method.input, req), true);
  return decodeMessage(method.output, await call.response());
}

export function callServerStreaming<I extends DescMessage, O extends DescMessage>(
  channel: GrpcChannel, method: DescMethod & { input: I; output: O }, req: MessageInitShape<I>, options: CallOptions = {},
): AsyncGenerator<MessageShape<O>, void, undefined> {
  const call = channel.start(methodPath(method), options);
  call.send(encodeMessage(method.input, req), true);
  return readResponses(call, method.output);
}

export async function callClientStreaming<I extends DescMessage, O extends DescMessage>(
  channel: GrpcChannel, method: DescMethod & { input: I; output: O }, reqs: Requests<I>, options: CallOptions = {},
): Promise<MessageShape<O>> {
  const call = channel.start(methodPath(method), options);
  // A request source that throws cancels the call; the caller is told the source's error.
  let source_failure: { readonly error: unknown } | undefined;
  writeRequests(call, method.input, reqs).catch((error: unknown) => {
    source_failure = { error };
    call.cancel();
  });
  try {
    return decodeMessage(method.output, await call.response());
  } catch (e) {
    throw source_failure === undefined ? e : source_failure.error;
  }
}

export function callBidiStreaming<I extends DescMessage, O extends DescMessage>(
  channel: GrpcChannel, method: DescMethod & { input: I; output: O }, reqs: Requests<I>, options: CallOptions = {},
): AsyncGenerator<MessageShape<O>, void, undefined> {
  const call = channel.start(methodPath(method), options);
  // A request source that throws cancels the call: the reader sees CANCELLED.
  writeRequests(call, method.input, reqs).catch(() => call.cancel());
  return readResponses(call, method.output);
}

/** The call's response messages; leaving the loop early cancels the call. */
export async function* readResponses<O extends DescMessage>(call: ClientCall, schema: O): AsyncGenerator<MessageShape<O>, void, undefined> {
  try {
    for (;;) {
      const bytes = await call.next();
      if (bytes === undefined) return;
      yield decodeMessage(schema, bytes);
    }
  } finally {
    call.cancel();
  }
}

/**
 * Sends each request as the stream takes it, then half-closes; stops when the call has ended. A
 * request with a large `bytes` field is written from the caller's buffer (encodeMessageParts).
 */
export async function writeRequests<I extends DescMessage>(call: ClientCall, schema: I, reqs: Requests<I>): Promise<void> {
  for await (const req of reqs) {
    if (call.ended) return;
    const parts = encodeMessageParts(schema, create(schema, req));
    const [whole] = parts;
    const more = parts.length === 1 && whole !== undefined ? call.send(whole, false) : call.sendParts(parts);
    if (!more) await call.drained();
  }
  call.end();
}
