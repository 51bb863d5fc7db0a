/**
 * The identity behind at-most-once creations (SPEC 2.2, OperationRef): a 16-byte issuer chosen once,
 * enrolled with the deployment for an incarnation, and sequence numbers handed out within it. The
 * state lives where the application says (a file, or memory for a process that needs no memory of
 * its operations across restarts).
 *
 * Sequence numbers are reserved in blocks and the end of the block is saved before any number of it
 * is used, so a process that restarts from the file never hands out a number twice.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

export interface IssuerState {
  /** Hex, 16 bytes. */
  readonly issuer: string;
  /** Hex of the deployment that enrolled `incarnation`; empty before the first enrollment. */
  readonly deployment: string;
  readonly incarnation: string;
  /** Invariant: every number below it may have been used; none at or above it has. */
  readonly reserved_to: string;
}

export interface IssuerStore {
  load(): IssuerState | undefined;
  /** Must be durable when it returns: the reservation it records is relied on at once. */
  save(state: IssuerState): void;
}

/** Sequence numbers reserved per save. */
export const issuer_sequence_block = 1000n;

export function memoryIssuerStore(): IssuerStore {
  let state: IssuerState | undefined;
  return {
    load: () => state,
    save: (s) => {
      state = s;
    },
  };
}

/** A JSON file, replaced atomically (write, fsync, rename, fsync of the directory). */
export function fileIssuerStore(path: string): IssuerStore {
  return {
    load: () => (existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as IssuerState) : undefined),
    save: (state) => {
      const tmp = `${path}.tmp`;
      const fd = openSync(tmp, 'w', 0o600);
      try {
        writeSync(fd, JSON.stringify(state, null, 2) + '\n');
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, path);
      const dir = openSync(dirname(path), 'r');
      try {
        fsyncSync(dir);
      } finally {
        closeSync(dir);
      }
    },
  };
}

export interface OperationRefInit {
  readonly issuer: Uint8Array;
  readonly incarnation: bigint;
  readonly sequence: bigint;
  readonly deployment: Uint8Array;
}

export type Enroll = (issuer: Uint8Array) => Promise<{ deployment: Uint8Array; incarnation: bigint; next_sequence: bigint }>;

export class OperationIssuer {
  private state: IssuerState | undefined;
  private next = 0n;
  private enrolling: Promise<void> | undefined;

  constructor(
    private readonly store: IssuerStore,
    private readonly enroll: Enroll,
  ) {
    this.state = store.load();
    // A restart continues after everything the last process may have used.
    if (this.state !== undefined && this.state.deployment !== '') this.next = BigInt(this.state.reserved_to);
  }

  /** A new operation identity; enrolls first if this issuer has no incarnation yet. */
  async newOperation(): Promise<OperationRefInit> {
    if (this.state === undefined || this.state.deployment === '') await this.reenroll();
    const state = this.state!;
    if (this.next >= BigInt(state.reserved_to)) {
      this.state = { ...state, reserved_to: String(this.next + issuer_sequence_block) };
      this.store.save(this.state);
    }
    const sequence = this.next++;
    return {
      issuer: Buffer.from(state.issuer, 'hex'),
      incarnation: BigInt(state.incarnation),
      sequence,
      deployment: Buffer.from(state.deployment, 'hex'),
    };
  }

  /**
   * Enrolls again: the deployment changed (FOREIGN_OPERATION) or another process took a newer
   * incarnation (UNKNOWN_INCARNATION). Concurrent callers share one enrollment.
   */
  reenroll(): Promise<void> {
    this.enrolling ??= (async () => {
      const issuer = this.state?.issuer ?? randomBytes(16).toString('hex');
      const res = await this.enroll(Buffer.from(issuer, 'hex'));
      this.next = res.next_sequence;
      this.state = {
        issuer,
        deployment: Buffer.from(res.deployment).toString('hex'),
        incarnation: String(res.incarnation),
        reserved_to: String(res.next_sequence + issuer_sequence_block),
      };
      this.store.save(this.state);
    })().finally(() => {
      this.enrolling = undefined;
    });
    return this.enrolling;
  }

  get issuerHex(): string | undefined {
    return this.state?.issuer;
  }
}
