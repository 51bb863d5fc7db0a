import { assert, assertNever } from '../common/assert.js';
import type { BlobEvent, Entry, GraphOp, GraphWrite, GraphWritePart, ReadCheck, SchemaEvent } from '../log/events.js';
import { SchemaProjection, isSchemaEvent } from './catalog/schema-projection.js';
import { GraphStore, type Refusal } from './graph/graph-store.js';
import { visibleNode } from './graph/records.js';
import { SnapshotView } from './graph/view.js';
import { OperationRegistry } from './operations/registry.js';
import { CommitClock } from './commit-clock.js';
import { BlobProjection } from './blobs/blob-projection.js';
import { checkBlobProperties, propertyReferences } from './blobs/blob-references.js';
import { expiryOps } from './computed/ttl-expiry.js';
import { BulkLoads } from './bulk/bulk-loads.js';
import { applyBulk, checkBulk } from './bulk/bulk-apply.js';
import { GraphWriteParts } from './graph-write-parts.js';

/**
 * Every projection of one member, fed the log in order. `apply` is pure and synchronous: the same
 * entries in the same order give the same state on every member. The leader applies its own entries
 * when it proposes them (pending), the others when they commit; `commit` and `rollbackAfter` move the
 * line between the two.
 */
export type ApplyOutcome =
  | { readonly status: 'applied'; readonly index: number; readonly commit_ts: number }
  | { readonly status: 'refused'; readonly index: number; readonly refusal: Refusal };

/**
 * A graph write that passed check() against the latest state, with its ops as apply would fill in
 * their defaults. The proposer hands it to apply() for the entry it proposed right after, so the
 * checks (constraints, index probes, defaults) run once on the leader rather than twice.
 * Invariant: valid only for the entry applied next after `applied_index`, and only while nothing
 * else applies in between (the proposer checks, proposes and applies in one synchronous step).
 */
export interface CheckedWrite {
  readonly event: GraphWrite;
  readonly ops: readonly GraphOp[];
  readonly applied_index: number;
}

export type WriteCheck = { readonly status: 'refused'; readonly refusal: Refusal } | { readonly status: 'passed'; readonly checked: CheckedWrite };

export class StateMachine {
  readonly graph = new GraphStore();
  /** The catalog and the B-tree indexes; consulted by every graph write's checks. */
  readonly schema = new SchemaProjection(this.graph);
  readonly operations = new OperationRegistry();
  readonly clock = new CommitClock();
  /** Blob existence and chunk reference counts (SPEC 2.5); the chunk bytes live outside the log. */
  readonly blobs = new BlobProjection();
  /** Parts of a bulk import waiting for its last part (docs/import.md). */
  readonly bulk = new BulkLoads();
  /** Graph writes in parts waiting for their last part (docs/query-engine.md, Time slices). */
  readonly writeParts = new GraphWriteParts();
  deployment: Uint8Array | undefined;
  /** The engine format the group last recorded (the deployment's, then each group_version's). */
  engineFormat = 0;
  /** The host epoch and ordinal of the group's last version record; seq 0 before the deployment is formed. */
  groupHostEpoch = 0;
  groupVersionSeq = 0;
  /** Pending version records with the version before each, so a rollback can restore it. */
  private readonly pendingVersions: { index: number; before: { engine: number; host_epoch: number; seq: number } }[] = [];
  /** Invariant: committedIndex <= appliedIndex; entries in between are the leader's pending ones. */
  appliedIndex = 0;
  committedIndex = 0;
  /** Pending settlements, so a rollback can undo them. */
  private readonly pendingClaims: { index: number; claim: NonNullable<GraphWrite['operation']> }[] = [];

  /** `checked`: the proposer's own check of this very entry's write (checkProposal), not repeated. */
  apply(entry: Entry, committed: boolean, checked?: CheckedWrite): ApplyOutcome {
    assert(entry.index === this.appliedIndex + 1, `entry ${entry.index} applied after ${this.appliedIndex}`);
    assert(
      checked === undefined || (checked.event === entry.event && checked.applied_index === this.appliedIndex),
      `a check made after ${checked?.applied_index} handed to the apply of entry ${entry.index}`,
    );
    this.appliedIndex = entry.index;
    this.clock.record(entry.index, entry.commit_ts);
    const outcome = this.applyEvent(entry, committed, checked);
    if (committed) this.commit(entry.index);
    return outcome;
  }

  private applyEvent(entry: Entry, committed: boolean, checked: CheckedWrite | undefined): ApplyOutcome {
    const applied: ApplyOutcome = { status: 'applied', index: entry.index, commit_ts: entry.commit_ts };
    const event = entry.event;
    if (event.kind !== 'bulk_load') this.bulk.interrupt();
    if (isSchemaEvent(event)) return this.applySchemaEvent(entry, event, committed);
    switch (event.kind) {
      case 'deployment_formed':
        if (this.deployment === undefined) {
          this.deployment = event.deployment;
          this.engineFormat = event.engine_format;
          this.groupVersionSeq = 1;
        }
        return applied;
      case 'group_version':
        if (!committed) this.pendingVersions.push({ index: entry.index, before: { engine: this.engineFormat, host_epoch: this.groupHostEpoch, seq: this.groupVersionSeq } });
        this.engineFormat = event.engine_format;
        this.groupHostEpoch = event.host_epoch;
        this.groupVersionSeq = event.seq;
        return applied;
      case 'leader_noop':
        this.writeParts.dropAll();
        return applied;
      case 'membership_changed':
        return applied;
      case 'issuer_enrolled':
        this.operations.applyEnrollment(event);
        return applied;
      case 'graph_write': {
        // Same state as at the proposer's check (apply asserts it), so the same verdict and ops.
        const ops = checked?.ops ?? this.schema.withDefaults(event.ops);
        const refusal = checked !== undefined ? undefined : this.checkWrite(event, ops);
        if (refusal !== undefined) return { status: 'refused', index: entry.index, refusal };
        this.applyGraphOps(ops, entry, committed);
        if (event.operation !== undefined) {
          this.operations.settle(event.operation, {
            index: entry.index,
            commit_ts: entry.commit_ts,
            node_ids: event.ops.flatMap((op) => (op.op === 'create_node' ? [op.id] : [])),
            edge_ids: event.ops.flatMap((op) => (op.op === 'create_edge' ? [op.id] : [])),
          });
          if (!committed) this.pendingClaims.push({ index: entry.index, claim: event.operation });
        }
        return applied;
      }
      case 'blob_put':
      case 'blob_deleted': {
        const refusal = this.checkBlob(event);
        if (refusal !== undefined) return { status: 'refused', index: entry.index, refusal };
        this.blobs.apply(event, entry.index, committed);
        return applied;
      }
      case 'ttl_expired': {
        // The same checks as any write: an expiry that would break a rule is refused, not forced.
        const ops = expiryOps(event, this.schema.catalog, this.graph);
        const refusal = this.graph.checkOps(ops) ?? this.schema.checkGraphWrite(ops);
        if (refusal !== undefined) return { status: 'refused', index: entry.index, refusal };
        if (ops.length > 0) this.applyGraphOps(ops, entry, committed);
        return applied;
      }
      case 'bulk_load': {
        const parts = this.bulk.accept(entry.index, event);
        if (parts === undefined) return applied;
        const refusal = checkBulk(parts, this.graph);
        if (refusal !== undefined) return { status: 'refused', index: entry.index, refusal };
        const touched = applyBulk(parts, this.graph, entry.index, entry.commit_ts, committed, this.schema.catalog.indexes.size > 0);
        this.schema.graphWritten(touched, entry.index, committed);
        return applied;
      }
      case 'graph_write_part':
        return runSteps(this.partSteps(entry, event));
      default:
        return assertNever(event, 'event');
    }
  }

  /**
   * apply(), in steps: the commit of a write in parts applies its ops `apply_step_ops` at a time, and
   * the host may give the event loop back between steps. The state is then half-applied, so the host
   * lets no other entry apply and no write execute until the end; readers read below this entry's
   * index and see none of it. Any other entry applies in one step. The outcome is apply()'s.
   */
  *applyInSteps(entry: Entry, committed: boolean): Generator<undefined, ApplyOutcome, undefined> {
    if (entry.event.kind !== 'graph_write_part') return this.apply(entry, committed);
    assert(entry.index === this.appliedIndex + 1, `entry ${entry.index} applied after ${this.appliedIndex}`);
    this.appliedIndex = entry.index;
    this.clock.record(entry.index, entry.commit_ts);
    this.bulk.interrupt();
    const outcome = yield* this.partSteps(entry, entry.event);
    if (committed) this.commit(entry.index);
    return outcome;
  }

  /**
   * A part held, or the commit of the whole. Its steps apply as pending whether or not the entry is
   * committed (the caller commits it after), so that a refusal in a later step can undo the earlier.
   */
  private *partSteps(entry: Entry, event: GraphWritePart): Generator<undefined, ApplyOutcome, undefined> {
    const applied: ApplyOutcome = { status: 'applied', index: entry.index, commit_ts: entry.commit_ts };
    const got = this.writeParts.accept(entry.index, event);
    switch (got.kind) {
      case 'held':
        return applied;
      case 'lost':
        if (event.end !== 'commit') return applied;
        return {
          status: 'refused',
          index: entry.index,
          refusal: {
            code: 'ABORTED',
            reason: 'TRANSACTION_CONFLICT',
            message: `the earlier parts of the write that began at log index ${event.first} were dropped when a new term began; retry it`,
            metadata: { first_index: String(event.first) },
          },
        };
      case 'commit': {
        // Checked and applied a step at a time, each step's ops against the state with the steps
        // before it applied (pending, so a refusal can undo them): what the checks of the whole write
        // with its own overlay decide, since later ops see earlier ones either way. Nothing is
        // visible to readers until the entry commits, and a refused write leaves nothing.
        const refused = (refusal: Refusal): ApplyOutcome => {
          this.graph.rollbackAfter(entry.index - 1);
          this.schema.rolledBack(entry.index - 1);
          return { status: 'refused', index: entry.index, refusal };
        };
        if (event.read_check !== undefined) {
          const conflicting = this.readConflict(event.read_check);
          if (conflicting !== undefined) return refused(conflicting);
        }
        for (const part of got.parts) for (let i = 0; i < part.length; i += apply_step_ops) {
          yield;
          const ops = this.schema.withDefaults(part.length <= apply_step_ops ? part : part.slice(i, i + apply_step_ops));
          const refusal = this.checkWrite({ kind: 'graph_write', ops }, ops);
          if (refusal !== undefined) return refused(refusal);
          this.applyGraphOps(ops, entry, false);
        }
        return applied;
      }
      default:
        return assertNever(got, 'part outcome');
    }
  }

  /** Whether a blob event would apply to the latest state; the proposer asks before proposing. */
  checkBlob(event: BlobEvent): Refusal | undefined {
    return this.blobs.check(event, (blob_id) => propertyReferences(this.schema.catalog, this.graph, blob_id));
  }

  /** Whether a graph write would apply to the latest state; the proposer asks before proposing. */
  check(event: GraphWrite): Refusal | undefined {
    return this.checkWrite(event, this.schema.withDefaults(event.ops));
  }

  /** check(), keeping what passed for the apply of the entry proposed next (CheckedWrite). */
  checkProposal(event: GraphWrite): WriteCheck {
    const ops = this.schema.withDefaults(event.ops);
    const refusal = this.checkWrite(event, ops);
    if (refusal !== undefined) return { status: 'refused', refusal };
    return { status: 'passed', checked: { event, ops, applied_index: this.appliedIndex } };
  }

  /** Whether a schema event would apply to the latest state; admission asks before proposing. */
  checkSchema(event: SchemaEvent): Refusal | undefined {
    return this.schema.check(event);
  }

  private applySchemaEvent(entry: Entry, event: SchemaEvent, committed: boolean): ApplyOutcome {
    const result = this.schema.apply(event, entry, committed);
    if (result.status === 'refused') return { status: 'refused', index: entry.index, refusal: result.refusal };
    if (result.status === 'graph') {
      // A build repair changes a node like any write: the same checks, then the same apply.
      const refusal = this.graph.checkOps(result.ops) ?? this.schema.checkGraphWrite(result.ops);
      if (refusal !== undefined) return { status: 'refused', index: entry.index, refusal };
      this.applyGraphOps(result.ops, entry, committed);
      result.after();
    }
    return { status: 'applied', index: entry.index, commit_ts: entry.commit_ts };
  }

  private applyGraphOps(ops: readonly GraphOp[], entry: Entry, committed: boolean): void {
    const touched = this.schema.labelsBefore(ops);
    this.graph.applyOps(ops, entry.index, entry.commit_ts, committed);
    this.schema.graphWritten(touched, entry.index, committed);
  }

  /**
   * The checks of a graph write, in order: operation identity, expectations, reads, the ops
   * themselves, then the schema (modes, requiredness, constraints) over `ops` with defaults filled in.
   */
  private checkWrite(event: GraphWrite, ops: readonly GraphOp[]): Refusal | undefined {
    if (event.operation !== undefined) {
      const found = this.operations.check(event.operation);
      if (found?.kind === 'settled') {
        const s = found.settlement;
        return {
          code: 'FAILED_PRECONDITION',
          reason: 'OPERATION_SETTLED',
          message: `operation ${event.operation.sequence} already took effect at commit_ts ${s.commit_ts}`,
          metadata: {
            commit_ts: String(s.commit_ts),
            applied_index: String(s.index),
            node_ids: s.node_ids.join(','),
            edge_ids: s.edge_ids.join(','),
          },
        };
      }
      if (found?.kind === 'unknown_incarnation') {
        return {
          code: 'FAILED_PRECONDITION',
          reason: 'UNKNOWN_INCARNATION',
          message: `incarnation ${event.operation.incarnation} is not the issuer's current one (${found.current}); enroll again`,
          metadata: { current_incarnation: String(found.current) },
        };
      }
    }
    for (const expected of event.expect ?? []) {
      const record = this.graph.nodeRecord(expected.node_id);
      const current = record === undefined ? undefined : visibleNode(record, Number.POSITIVE_INFINITY);
      const currentVersion = current?.ts ?? 0;
      const ok = expected.version === undefined ? current === undefined : current !== undefined && current.ts === expected.version;
      if (!ok) {
        return {
          code: 'ABORTED',
          reason: 'REVISION_MISMATCH',
          message:
            expected.version === undefined
              ? `node ${expected.node_id} exists (version ${currentVersion}) but was expected absent`
              : `node ${expected.node_id} is at version ${currentVersion}, expected ${expected.version}`,
          metadata: {
            node_id: String(expected.node_id),
            expected_version: expected.version === undefined ? 'absent' : String(expected.version),
            current_version: current === undefined ? 'absent' : String(currentVersion),
          },
        };
      }
    }
    if (event.read_check !== undefined) {
      const conflict = this.readConflict(event.read_check);
      if (conflict !== undefined) return conflict;
    }
    return this.graph.checkOps(ops) ?? this.schema.checkGraphWrite(ops) ?? checkBlobProperties(ops, this.schema.catalog, this.graph, this.blobs);
  }

  private readConflict(check: ReadCheck): Refusal | undefined {
    for (const id of check.node_ids) {
      const head = this.graph.nodeRecord(id)?.head;
      if (head !== undefined && head.ts > check.read_ts) return conflict('node', id, head.ts, check.read_ts);
    }
    for (const id of check.edge_ids) {
      const head = this.graph.edgeRecord(id)?.head;
      if (head !== undefined && head.ts > check.read_ts) return conflict('edge', id, head.ts, check.read_ts);
    }
    return undefined;
  }

  commit(index: number): void {
    if (index <= this.committedIndex) return;
    assert(index <= this.appliedIndex, `commit ${index} beyond applied ${this.appliedIndex}`);
    this.committedIndex = index;
    this.graph.markCommitted(index);
    this.schema.markCommitted(index);
    this.blobs.commit(index);
    while (this.pendingClaims.length > 0 && this.pendingClaims[0]!.index <= index) this.pendingClaims.shift();
    while (this.pendingVersions.length > 0 && this.pendingVersions[0]!.index <= index) this.pendingVersions.shift();
  }

  /**
   * Moves the MVCC horizon forward (never back): versions and deleted records at or below it that
   * nothing can read any more are dropped, from the graph and from the indexes.
   */
  advanceHorizon(index: number): void {
    assert(index <= this.committedIndex, `horizon ${index} beyond committed ${this.committedIndex}`);
    if (index <= this.graph.horizonIndex) return;
    this.graph.horizonIndex = index;
    const dropped = this.graph.collect();
    if (dropped.size > 0) this.schema.nodesCollected(dropped);
  }

  /** Undoes pending entries after `index`: leadership was lost before they committed. */
  rollbackAfter(index: number): void {
    assert(index >= this.committedIndex, 'committed entries are never rolled back');
    this.graph.rollbackAfter(index);
    this.schema.rolledBack(index);
    this.blobs.rollbackAfter(index);
    this.bulk.rollbackAfter(index);
    this.writeParts.rollbackAfter(index);
    while (this.pendingClaims.length > 0 && this.pendingClaims[this.pendingClaims.length - 1]!.index > index) {
      this.operations.unsettle(this.pendingClaims.pop()!.claim);
    }
    while (this.pendingVersions.length > 0 && this.pendingVersions[this.pendingVersions.length - 1]!.index > index) {
      const { before } = this.pendingVersions.pop()!;
      this.engineFormat = before.engine;
      this.groupHostEpoch = before.host_epoch;
      this.groupVersionSeq = before.seq;
    }
    this.clock.truncateAfter(index);
    this.appliedIndex = index;
  }

  /** A reader of committed state (LOCAL and MAJORITY reads on a member of one). */
  committedView(): SnapshotView {
    return new SnapshotView(this.graph, this.committedIndex);
  }

  /** The leader's writer base: committed state plus its own pending entries. */
  latestView(): SnapshotView {
    return new SnapshotView(this.graph, Number.POSITIVE_INFINITY);
  }

  viewAt(index: number): SnapshotView {
    return new SnapshotView(this.graph, index);
  }
}

/** Ops of a write in parts applied per step of applyInSteps. */
const apply_step_ops = 2048;

/** Runs steps to their end in one go (a follower, a replay: nothing else waits on this member's loop). */
function runSteps<T>(steps: Generator<undefined, T, undefined>): T {
  for (;;) {
    const r = steps.next();
    if (r.done === true) return r.value;
  }
}

function conflict(what: 'node' | 'edge', id: number, written: number, read: number): Refusal {
  return {
    code: 'ABORTED',
    reason: 'TRANSACTION_CONFLICT',
    message: `${what} ${id} was written at ${written}, after the transaction's snapshot ${read}; retry the transaction`,
    metadata: { [`${what}_id`]: String(id), written_ts: String(written), snapshot_ts: String(read) },
  };
}
