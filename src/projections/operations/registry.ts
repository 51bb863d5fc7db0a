import type { IssuerEnrolled, OperationClaim } from '../../log/events.js';

/**
 * The at-most-once operation registry: which issuers are enrolled with which incarnation, and which
 * operations have settled with what outcome. A retried creation finds its settlement here and is
 * refused with OPERATION_SETTLED, naming the outcome, instead of creating again.
 */
export interface Settlement {
  /** Log index and commit_ts of the write that settled the operation. */
  readonly index: number;
  readonly commit_ts: number;
  /** What it created, so a retry can name the outcome. */
  readonly node_ids: readonly number[];
  readonly edge_ids: readonly number[];
}

interface IssuerState {
  incarnation: number;
  /** Settled sequences of the current incarnation. */
  readonly settled: Map<number, Settlement>;
}

export class OperationRegistry {
  private readonly issuers = new Map<string, IssuerState>();

  incarnationOf(issuer: Uint8Array): number {
    return this.issuers.get(key(issuer))?.incarnation ?? 0;
  }

  /** The incarnation the next enrollment of `issuer` receives. */
  nextIncarnation(issuer: Uint8Array): number {
    return this.incarnationOf(issuer) + 1;
  }

  applyEnrollment(event: IssuerEnrolled): void {
    const k = key(event.issuer);
    const state = this.issuers.get(k);
    if (state !== undefined && state.incarnation >= event.incarnation) return;
    // A new incarnation starts a fresh sequence space; the old one's settlements can no longer be retried.
    this.issuers.set(k, { incarnation: event.incarnation, settled: new Map() });
  }

  /** Why a claim cannot be used, or undefined when it may settle now. */
  check(claim: OperationClaim): { kind: 'settled'; settlement: Settlement } | { kind: 'unknown_incarnation'; current: number } | undefined {
    const state = this.issuers.get(key(claim.issuer));
    if (state === undefined || state.incarnation !== claim.incarnation) {
      return { kind: 'unknown_incarnation', current: state?.incarnation ?? 0 };
    }
    const settlement = state.settled.get(claim.sequence);
    return settlement === undefined ? undefined : { kind: 'settled', settlement };
  }

  settle(claim: OperationClaim, settlement: Settlement): void {
    const state = this.issuers.get(key(claim.issuer));
    if (state === undefined || state.incarnation !== claim.incarnation) return;
    state.settled.set(claim.sequence, settlement);
  }

  /** Undo for a pending settlement rolled back with its entry. */
  unsettle(claim: OperationClaim): void {
    this.issuers.get(key(claim.issuer))?.settled.delete(claim.sequence);
  }

  /** The registry as of committed index `upTo`: settlements of pending entries are left out. */
  snapshot(upTo: number): unknown {
    return [...this.issuers].map(([k, s]) => [k, s.incarnation, [...s.settled].filter(([, settlement]) => settlement.index <= upTo)]);
  }

  restore(data: unknown): void {
    for (const [k, incarnation, settled] of data as [string, number, [number, Settlement][]][]) {
      this.issuers.set(k, { incarnation, settled: new Map(settled) });
    }
  }
}

function key(issuer: Uint8Array): string {
  return Buffer.from(issuer).toString('hex');
}
