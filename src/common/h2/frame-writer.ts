/**
 * A connection's outgoing bytes: frames gathered during one turn of the event loop and written to
 * the socket together on the next tick, so a unary response (HEADERS, DATA, trailers) costs one
 * write system call rather than three.
 */
import type { Socket } from 'node:net';

/** Gathered output below this is copied into one buffer; above, written as a vector. */
const coalesce_bytes_max = 64 * 1024;

export class FrameWriter {
  private pending: Buffer[] = [];
  private pending_bytes = 0;
  private scheduled = false;
  private closed = false;

  constructor(private readonly socket: Socket) {}

  push(frame: Buffer): void {
    if (this.closed) return;
    this.pending.push(frame);
    this.pending_bytes += frame.length;
    if (!this.scheduled) {
      this.scheduled = true;
      process.nextTick(flushWriter, this);
    }
  }

  /** Bytes handed to the socket and not yet sent, plus those gathered here. */
  get buffered_bytes(): number {
    return this.socket.writableLength + this.pending_bytes;
  }

  flush(): void {
    this.scheduled = false;
    const frames = this.pending;
    if (frames.length === 0 || this.closed || this.socket.destroyed) return;
    this.pending = [];
    const bytes = this.pending_bytes;
    this.pending_bytes = 0;
    if (frames.length === 1) this.socket.write(frames[0]!);
    else if (bytes <= coalesce_bytes_max) this.socket.write(Buffer.concat(frames, bytes));
    else {
      this.socket.cork();
      for (const f of frames) this.socket.write(f);
      this.socket.uncork();
    }
  }

  /** Writes what is gathered, then nothing more. */
  close(): void {
    this.flush();
    this.closed = true;
  }
}

function flushWriter(writer: FrameWriter): void {
  writer.flush();
}
