/**
 * The request side of one gRPC call: DATA chunks deframed, decompressed and decoded into messages,
 * handed to the handler one at a time. While `grpc_request_messages_queued_max` messages wait
 * unread the stream is paused, so HTTP/2 flow control stops a client that sends faster than its
 * handler reads.
 */
import type { DescMethod, Message } from '@bufbuild/protobuf';
import { WeftError } from '../common/errors.js';
import type { CallStream } from './grpc-call-stream.js';
import { decompress, type MessageEncoding } from './grpc-encoding.js';
import { MessageDeframer } from './grpc-framing.js';
import { decodeRequest } from './grpc-decode.js';
import { decodeRequestParts } from './request-parts.js';

/** Decoded messages a call holds before its stream is paused. */
export const grpc_request_messages_queued_max = 16;

export class RequestReader {
  private readonly deframer: MessageDeframer;
  /** Invariant: at most grpc_request_messages_queued_max entries unless the stream is paused. */
  private readonly queue: Message[] = [];
  private ended = false;
  private failure: WeftError | undefined;
  /** Set once the call no longer reads: further data is dropped. */
  private discarding = false;
  private wake: (() => void) | undefined;

  /**
   * `call` is cancelled with a request that cannot be read (too large, badly framed, undecodable),
   * so the call ends with that status even while its handler is not reading.
   */
  constructor(
    private readonly stream: CallStream,
    private readonly method: DescMethod,
    private readonly encoding: MessageEncoding,
    private readonly message_bytes_max: number,
    private readonly call: { cancel(reason: WeftError): void },
    /** Message-parts delivery (request-parts.ts): a request's large bytes field is not joined. */
    private readonly parted = false,
  ) {
    this.deframer = new MessageDeframer(message_bytes_max);
  }

  /** The one request of a unary or server-streaming call: exactly one message, then the end. */
  async one(): Promise<Message> {
    while (!this.ended && this.failure === undefined && this.queue.length < 2) await this.next();
    if (this.failure !== undefined) throw this.failure;
    const [first] = this.queue;
    if (first === undefined || this.queue.length > 1) {
      throw new WeftError('INTERNAL', `${this.method.name} takes exactly one request message; ${this.queue.length} were sent`);
    }
    return first;
  }

  /** Every request message of a client-streaming or bidi call, until the client half-closes. */
  async *all(): AsyncGenerator<Message, void, undefined> {
    for (;;) {
      const message = this.queue.shift();
      if (message !== undefined) {
        if (this.queue.length < grpc_request_messages_queued_max && this.stream.isPaused() && !this.ended) this.stream.resume();
        yield message;
        continue;
      }
      if (this.failure !== undefined) throw this.failure;
      if (this.ended) return;
      await this.next();
    }
  }

  /** The call was cancelled: a handler waiting for a message gets `reason` instead. */
  abort(reason: WeftError): void {
    if (this.failure !== undefined || this.discarding) return;
    this.failure = reason;
    this.wakeReader();
  }

  /** The call is over: whatever the client still sends is read and dropped. */
  discard(): void {
    this.discarding = true;
    this.queue.length = 0;
    this.stream.resume();
    this.wake?.();
  }

  private next(): Promise<void> {
    return new Promise((resolve) => (this.wake = resolve));
  }

  /** A chunk of the request's DATA, as the stream delivers it. */
  onData(chunk: Buffer): void {
    if (this.discarding || this.failure !== undefined) return;
    try {
      if (this.parted) this.takeParts(chunk);
      else {
        for (const wire of this.deframer.push(chunk)) {
          this.queue.push(decodeRequest(this.method, decompress(this.encoding, wire.compressed, wire.bytes, this.message_bytes_max)));
        }
      }
    } catch (e) {
      this.fail(e instanceof WeftError ? e : new WeftError('INTERNAL', String(e)));
      return;
    }
    if (this.queue.length >= grpc_request_messages_queued_max) this.stream.pause();
    this.wakeReader();
  }

  /** A parted method's messages: uncompressed ones decoded from their parts, the others joined. */
  private takeParts(chunk: Buffer): void {
    for (const wire of this.deframer.pushParts(chunk)) {
      if (!wire.compressed) this.queue.push(decodeRequestParts(this.method, wire.parts, wire.bytes_total));
      else {
        const bytes = wire.parts.length === 1 ? wire.parts[0]! : Buffer.concat(wire.parts, wire.bytes_total);
        this.queue.push(decodeRequest(this.method, decompress(this.encoding, true, bytes, this.message_bytes_max)));
      }
    }
  }

  /** The client half-closed. */
  onEnd(): void {
    if (this.discarding || this.failure !== undefined) return;
    if (this.deframer.midMessage) {
      this.fail(new WeftError('INTERNAL', 'the request stream ended inside a message'));
      return;
    }
    this.ended = true;
    this.wakeReader();
  }

  private fail(e: WeftError): void {
    this.failure = e;
    this.queue.length = 0;
    this.stream.resume();
    this.wakeReader();
    this.call.cancel(e);
  }

  private wakeReader(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
