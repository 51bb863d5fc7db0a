import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { assertNever } from '../../src/common/assert.js';

/**
 * A loopback TCP proxy for one link between two members (dialer -> target), whose behaviour the
 * chaos harness changes while members run:
 *
 *   pass       bytes flow both ways
 *   delay      every chunk waits `ms` before it is forwarded (order kept)
 *   drop       open connections are reset and new ones refused at once
 *   partition  bytes in one or both directions vanish silently; connections stay open, as behind a
 *              dead router ('forward' = dialer to target, 'backward' = target to dialer)
 *
 * Leaving a partition resets the connections that lost bytes: what crossed a TLS stream in part
 * cannot be resumed, and a real network would have timed them out by then.
 */
export type LinkFault =
  | { readonly kind: 'pass' }
  | { readonly kind: 'delay'; readonly ms: number }
  | { readonly kind: 'drop' }
  | { readonly kind: 'partition'; readonly direction: 'both' | 'forward' | 'backward' };

interface Pair {
  readonly dialer: Socket;
  readonly target: Socket;
  lost_bytes: boolean;
}

export class LinkProxy {
  private fault: LinkFault = { kind: 'pass' };
  private readonly pairs = new Set<Pair>();
  /** Connections accepted since start (for reports). */
  connections = 0;
  /** Bytes passed on toward the target (dialer to target) since start: what a transfer cost the link. */
  forwarded_bytes = 0;

  private constructor(
    private readonly server: Server,
    readonly port: number,
    readonly target: string,
  ) {}

  static async start(target: string, port = 0): Promise<LinkProxy> {
    const [host, target_port] = splitAddress(target);
    let proxy: LinkProxy | undefined;
    const server = createServer((dialer) => proxy!.accept(dialer, host, target_port));
    const bound = await new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        const a = server.address();
        resolve(typeof a === 'object' && a !== null ? a.port : 0);
      });
    });
    proxy = new LinkProxy(server, bound, target);
    return proxy;
  }

  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  get current(): LinkFault {
    return this.fault;
  }

  set(fault: LinkFault): void {
    const was = this.fault;
    this.fault = fault;
    if (fault.kind === 'drop') for (const p of this.pairs) this.reset(p);
    if (was.kind === 'partition' && fault.kind !== 'partition') for (const p of this.pairs) if (p.lost_bytes) this.reset(p);
  }

  async close(): Promise<void> {
    for (const p of this.pairs) this.reset(p);
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(dialer: Socket, host: string, port: number): void {
    this.connections++;
    if (this.fault.kind === 'drop') {
      dialer.resetAndDestroy();
      return;
    }
    const target = createConnection({ host, port });
    const pair: Pair = { dialer, target, lost_bytes: false };
    this.pairs.add(pair);
    const end = (): void => this.reset(pair);
    dialer.on('error', end).on('close', end);
    target.on('error', end).on('close', end);
    this.forward(pair, dialer, target, 'forward');
    this.forward(pair, target, dialer, 'backward');
  }

  private forward(pair: Pair, from: Socket, to: Socket, direction: 'forward' | 'backward'): void {
    from.on('data', (chunk: Buffer) => {
      const fault = this.fault;
      switch (fault.kind) {
        case 'pass':
          if (direction === 'forward') this.forwarded_bytes += chunk.byteLength;
          to.write(chunk);
          return;
        case 'delay':
          setTimeout(() => {
            if (to.destroyed) return;
            if (direction === 'forward') this.forwarded_bytes += chunk.byteLength;
            to.write(chunk);
          }, fault.ms);
          return;
        case 'drop':
          this.reset(pair);
          return;
        case 'partition':
          if (fault.direction === 'both' || fault.direction === direction) pair.lost_bytes = true;
          else to.write(chunk);
          return;
        default:
          assertNever(fault, 'link fault');
      }
    });
  }

  private reset(pair: Pair): void {
    if (!this.pairs.delete(pair)) return;
    pair.dialer.resetAndDestroy();
    pair.target.resetAndDestroy();
  }
}

function splitAddress(address: string): [string, number] {
  const colon = address.lastIndexOf(':');
  return [address.slice(0, colon), Number(address.slice(colon + 1))];
}
