import { assert } from '../../common/assert.js';
import type { ProgressTracker } from './tracker.js';
import type { ConfState, NodeId } from './types.js';

/**
 * One membership change, applied when its entry is applied. Only one may be pending at a time,
 * which keeps every old and new majority overlapping (single-server changes, Raft thesis §4.1).
 * - add_voter: adds a voter, or promotes a learner;
 * - add_learner: adds a learner (demoting a voter is refused: remove it and add it back instead);
 * - remove: removes a voter or learner.
 */
export interface ConfChange {
  readonly kind: 'add_voter' | 'add_learner' | 'remove';
  readonly node: NodeId;
  /** Opaque to the core: what the application records with the change (a member's address, identity). */
  readonly context?: Uint8Array;
}

const KIND_CODES = ['add_voter', 'add_learner', 'remove'] as const;

const HEAD_BYTES = 9;

/** Entry payload: one byte of kind, the id as a float64 (exact for ids below 2^53), then the context. */
export function encodeConfChange(cc: ConfChange): Uint8Array {
  const context = cc.context ?? new Uint8Array();
  const buf = new Uint8Array(HEAD_BYTES + context.byteLength);
  buf[0] = KIND_CODES.indexOf(cc.kind);
  new DataView(buf.buffer).setFloat64(1, cc.node);
  buf.set(context, HEAD_BYTES);
  return buf;
}

export function decodeConfChange(data: Uint8Array): ConfChange {
  assert(data.byteLength >= HEAD_BYTES, `conf change payload has ${data.byteLength} bytes, expected at least ${HEAD_BYTES}`);
  const kind = KIND_CODES[data[0]!];
  assert(kind !== undefined, `unknown conf change kind ${data[0]}`);
  const node = new DataView(data.buffer, data.byteOffset, data.byteLength).getFloat64(1);
  assert(Number.isSafeInteger(node) && node > 0, `bad node id ${node} in conf change`);
  if (data.byteLength === HEAD_BYTES) return { kind, node };
  return { kind, node, context: data.subarray(HEAD_BYTES) };
}

/** Why a change cannot be applied to the current membership, or undefined if it can. */
export function confChangeProblem(tracker: ProgressTracker, cc: ConfChange, leader: NodeId): string | undefined {
  switch (cc.kind) {
    case 'add_voter':
      return tracker.voters.has(cc.node) ? `${cc.node} is already a voter` : undefined;
    case 'add_learner':
      if (tracker.voters.has(cc.node)) return `${cc.node} is a voter; demotion is not supported`;
      return tracker.learners.has(cc.node) ? `${cc.node} is already a learner` : undefined;
    case 'remove':
      if (cc.node === leader) return `${cc.node} leads; transfer leadership before removing it`;
      if (!tracker.progress.has(cc.node)) return `${cc.node} is not a member`;
      if (tracker.voters.has(cc.node) && tracker.voters.size === 1) return 'cannot remove the last voter';
      return undefined;
  }
}

/**
 * Applies a committed change to the tracker. Applying is idempotent (a restarted member re-applies
 * changes after its snapshot), so a change that no longer applies is skipped, never an error.
 */
export function applyConfChange(tracker: ProgressTracker, cc: ConfChange, next: number): ConfState {
  switch (cc.kind) {
    case 'add_voter': {
      tracker.learners.delete(cc.node);
      tracker.voters.add(cc.node);
      const pr = tracker.progress.get(cc.node);
      if (pr) pr.is_learner = false;
      else tracker.progress.set(cc.node, tracker.newProgress(next, false));
      break;
    }
    case 'add_learner':
      if (!tracker.voters.has(cc.node) && !tracker.learners.has(cc.node)) {
        tracker.learners.add(cc.node);
        tracker.progress.set(cc.node, tracker.newProgress(next, true));
      }
      break;
    case 'remove':
      tracker.voters.delete(cc.node);
      tracker.learners.delete(cc.node);
      tracker.progress.delete(cc.node);
      break;
  }
  return tracker.confState();
}
