import { failedPrecondition, invalidArgument, notFound } from '../../common/errors.js';
import type { ConcernWait } from '../../log/driver/log-driver.js';
import type { SchemaEvent } from '../../log/events.js';
import {
  checkConstraintShape,
  deriveConstraintName,
  equivalentConstraint,
  freeIndexName,
} from '../../projections/catalog/constraint-rules.js';
import type { ConstraintRequest, IndexRef, IndexRequest } from '../../projections/catalog/requests.js';
import { isFinalBuild, isFinalCheck, type BuildRecord, type CheckRecord, type ConstraintRecord, type IndexRecord } from '../../projections/catalog/types.js';
import type { Database } from '../database.js';
import { refusalError } from '../database.js';
import type { BuildExecutor } from './build-executor.js';
import type { IndexChecker } from './index-checker.js';
import { checkVectorBudget } from './vector-budget.js';

/**
 * Schema admission: the one path every schema change takes, from the SchemaService and from Cypher
 * DDL alike (SPEC 4.3 rule 1). Each call checks against the latest catalog, allocates what the event
 * must carry (names, index ids, build operations) and proposes one entry, all synchronously, so no
 * other admission interleaves; then it waits as the request asks.
 */
export interface SchemaAdminOptions {
  readonly statement_wait_ms: number;
  /** Memory all vector indexes may hold together; a build that would pass it is refused. 0: no limit. */
  readonly vector_index_memory_mb?: number;
  readonly concern: () => ConcernWait;
}

export class SchemaAdmin {
  constructor(
    readonly db: Database,
    readonly executor: BuildExecutor,
    readonly checker: IndexChecker,
    private readonly options: SchemaAdminOptions,
  ) {}

  private get catalog() {
    return this.db.sm.schema.catalog;
  }

  /** Checks, proposes and waits for the write concern; a refusal throws its error. */
  async propose(event: SchemaEvent): Promise<void> {
    const refusal = this.db.sm.checkSchema(event);
    if (refusal !== undefined) throw refusalError(refusal);
    await this.db.submit(event, this.options.concern());
    this.executor.kick();
  }

  defineLabel(event: Extract<SchemaEvent, { kind: 'label_defined' }>): Promise<void> {
    return this.propose(event);
  }

  defineEdgeType(event: Extract<SchemaEvent, { kind: 'edge_type_defined' }>): Promise<void> {
    return this.propose(event);
  }

  /**
   * CreateConstraint (SPEC 4.3 rules 5 and 6). Returns the constraint's name. For UNIQUE and NODE_KEY
   * it waits up to the wait for the build; a failure or cancellation within the wait fails the call
   * (the log has already withdrawn the constraint and its index).
   */
  async createConstraint(req: ConstraintRequest, signal?: AbortSignal): Promise<ConstraintRecord> {
    const bad = checkConstraintShape(req, req.on_duplicate_rename);
    if (bad !== undefined) throw refusalError(bad);
    if (req.if_not_exists) {
      const found = (req.name !== '' ? this.catalog.constraints.get(req.name) : undefined) ?? equivalentConstraint(this.catalog, req);
      if (found !== undefined) return found;
    }
    const name = req.name !== '' ? req.name : deriveConstraintName(this.catalog, req);
    const needsIndex = req.constraint === 'UNIQUE' || req.constraint === 'NODE_KEY';
    const operation = this.catalog.nextOperation;
    await this.propose({
      kind: 'constraint_created',
      name,
      label: req.label,
      constraint: req.constraint,
      properties: req.properties,
      ...(req.property_type !== undefined ? { property_type: req.property_type } : {}),
      ...(req.scope !== undefined ? { scope: req.scope } : {}),
      ...(needsIndex
        ? {
            index: {
              index_id: this.catalog.nextIndexId,
              name: req.index_name ?? freeIndexName(this.catalog, `${name}_index`),
              operation,
              rename_property: req.on_duplicate_rename,
            },
          }
        : {}),
    });
    if (needsIndex) {
      const build = await this.waitBuild(operation, req.wait_ms ?? this.options.statement_wait_ms, signal);
      if (build.state === 'FAILED') {
        throw failedPrecondition(`constraint ${name} was not created: ${build.failure}`, 'CONSTRAINT_VALIDATION_FAILED', {
          constraint: name,
          operation: String(operation),
        });
      }
      if (build.state === 'CANCELLED') {
        throw failedPrecondition(`constraint ${name} was not created: its index build was cancelled`, 'INDEX_BUILD_CANCELLED', {
          constraint: name,
          operation: String(operation),
        });
      }
    }
    const made = this.catalog.constraints.get(name);
    if (made === undefined) throw failedPrecondition(`constraint ${name} was withdrawn meanwhile`, 'CONSTRAINT_WITHDRAWN', { constraint: name });
    return made;
  }

  /** DropConstraint (SPEC 4.3 rule 7): the constraint and its owned index go in one catalog change. */
  async dropConstraint(name: string, if_exists: boolean): Promise<void> {
    if (name === '') throw invalidArgument('name is required');
    if (!this.catalog.constraints.has(name)) {
      if (if_exists) return;
      throw notFound(`constraint ${name} does not exist`, 'CONSTRAINT_NOT_FOUND', { constraint: name });
    }
    await this.propose({ kind: 'constraint_dropped', name });
  }

  /** Cypher CREATE INDEX: a free-standing B-tree index and its build. Returns the index. */
  async createIndex(req: IndexRequest, signal?: AbortSignal): Promise<IndexRecord> {
    const existing = req.name !== '' ? this.catalog.indexByName(req.name) : undefined;
    const same = this.catalog
      .indexesOfLabel(req.label)
      .find(
        (i) =>
          i.owner === undefined &&
          i.search?.kind === req.search?.kind &&
          i.properties.length === req.properties.length &&
          i.properties.every((p, k) => p === req.properties[k]),
      );
    if (req.if_not_exists && (existing ?? same) !== undefined) return (existing ?? same)!;
    if (req.search?.kind === 'vector') checkVectorBudget(this.db, req.label, req.search, this.options.vector_index_memory_mb ?? 0);
    const kind = req.search === undefined ? '' : `_${req.search.kind}`;
    const name = req.name !== '' ? req.name : freeIndexName(this.catalog, `${req.label}_${req.properties.join('_')}${kind}_index`);
    const operation = this.catalog.nextOperation;
    const index_id = this.catalog.nextIndexId;
    await this.propose({
      kind: 'index_created',
      label: req.label,
      properties: req.properties,
      index: { index_id, name, operation, rename_property: '' },
      ...(req.search !== undefined ? { search: req.search } : {}),
    });
    const build = await this.waitBuild(operation, req.wait_ms ?? this.options.statement_wait_ms, signal);
    if (build.state === 'FAILED') throw failedPrecondition(`index ${name} was not created: ${build.failure}`, 'INDEX_BUILD_FAILED', { index: name });
    const made = this.catalog.indexes.get(index_id);
    if (made === undefined) throw failedPrecondition(`index ${name} was withdrawn meanwhile`, 'INDEX_WITHDRAWN', { index: name });
    return made;
  }

  async dropIndex(name: string, if_exists: boolean): Promise<void> {
    if (this.catalog.indexByName(name) === undefined) {
      if (if_exists) return;
      throw notFound(`index ${name} does not exist`, 'INDEX_NOT_FOUND', { index: name });
    }
    await this.propose({ kind: 'index_dropped', name });
  }

  /** DropSearchIndex: like DROP INDEX, for vector and text indexes only. */
  async dropSearchIndex(name: string, if_exists: boolean): Promise<void> {
    const index = this.catalog.indexByName(name);
    if (index !== undefined && index.search === undefined) {
      throw failedPrecondition(`index ${name} is a B-tree index; drop it with DROP INDEX`, 'NOT_A_SEARCH_INDEX', { index: name });
    }
    await this.dropIndex(name, if_exists);
  }

  build(operation: number): BuildRecord {
    const b = this.catalog.builds.get(operation);
    if (b === undefined) throw notFound(`no index build has operation ${operation}`, 'INDEX_BUILD_NOT_FOUND', { operation: String(operation) });
    return b;
  }

  /** GetIndexBuild (SPEC 4.3 rule 8): waits up to `wait_ms` for an outcome; waiting cancels nothing. */
  async waitBuild(operation: number, wait_ms: number, signal?: AbortSignal): Promise<BuildRecord> {
    const b = this.build(operation);
    await this.executor.watch.until(this.durably(() => isFinalBuild(b.state)), wait_ms, signal);
    return b;
  }

  /** CancelIndexBuild (SPEC 4.3 rule 9). A build that has an outcome is returned unchanged. */
  async cancelBuild(operation: number): Promise<BuildRecord> {
    const b = this.build(operation);
    if (!isFinalBuild(b.state)) await this.propose({ kind: 'index_build_cancelled', operation });
    return b;
  }

  resolveIndex(ref: IndexRef): IndexRecord {
    const index = 'index_id' in ref ? this.catalog.indexes.get(ref.index_id) : this.catalog.indexByName(ref.index_name);
    if (index === undefined) {
      const what = 'index_id' in ref ? `id ${ref.index_id}` : `name ${ref.index_name}`;
      throw notFound(`no index has ${what}`, 'INDEX_NOT_FOUND', {});
    }
    return index;
  }

  /** CheckIndex (SPEC 4.3 rule 11): a check of the serving generation, or the one already running. */
  async checkIndex(ref: IndexRef): Promise<CheckRecord> {
    const index = this.resolveIndex(ref);
    refuseSearchIndex(index, 'CheckIndex');
    if (index.serving === undefined) {
      throw failedPrecondition(`index ${index.name} is not ready: its first build has not published`, 'INDEX_NOT_READY', { index: index.name });
    }
    const running = this.catalog.checks.get(index.serving);
    if (running !== undefined && !isFinalCheck(running.state)) return running;
    const operation = index.serving;
    await this.propose({ kind: 'index_check_admitted', operation, index_id: index.index_id });
    this.checker.run(operation);
    return this.catalog.checks.get(operation)!;
  }

  check(operation: number): CheckRecord {
    const k = this.catalog.checks.get(operation);
    if (k === undefined) throw notFound(`no index check has operation ${operation}`, 'INDEX_CHECK_NOT_FOUND', { operation: String(operation) });
    return k;
  }

  async waitCheck(operation: number, wait_ms: number, signal?: AbortSignal): Promise<CheckRecord> {
    const k = this.check(operation);
    await this.executor.watch.until(this.durably(() => isFinalCheck(k.state)), wait_ms, signal);
    return k;
  }

  /** CancelIndexCheck (SPEC 4.3 rule 12): repairs already committed stay. */
  async cancelCheck(operation: number): Promise<CheckRecord> {
    const k = this.check(operation);
    if (!isFinalCheck(k.state)) {
      await this.propose({ kind: 'index_check_finished', operation, outcome: 'CANCELLED', failure: '', verified: false });
    }
    return k;
  }

  /** Reindex (SPEC 4.3 rule 13): a fresh generation, maintained by writers at once. */
  async reindex(ref: IndexRef, wait_ms: number, signal?: AbortSignal): Promise<BuildRecord> {
    const index = this.resolveIndex(ref);
    refuseSearchIndex(index, 'Reindex');
    if (index.serving === undefined || index.filling !== undefined) {
      throw failedPrecondition(`index ${index.name} is being built; wait for its build first`, 'INDEX_NOT_READY', { index: index.name });
    }
    const operation = this.catalog.nextOperation;
    await this.propose({ kind: 'index_rebuild_admitted', index_id: index.index_id, operation });
    return this.waitBuild(operation, wait_ms, signal);
  }

  /**
   * `done` once the entry that made it so has committed: an outcome is answered once it is durable.
   * The first time `done` holds, the entries applied so far are the ones that must commit.
   */
  private durably(done: () => boolean): () => boolean {
    let needed: number | undefined;
    return () => {
      if (!done()) return false;
      needed ??= this.db.sm.appliedIndex;
      return this.db.sm.committedIndex >= needed;
    };
  }
}

/**
 * CheckIndex and Reindex take B-tree indexes only (SPEC 4.3 rules 11 and 13): a vector or text index
 * has no entries a check could compare with its records, and is rebuilt by dropping and creating it.
 */
function refuseSearchIndex(index: { readonly name: string; readonly search?: { readonly kind: string } | undefined }, call: string): void {
  if (index.search !== undefined) {
    throw failedPrecondition(`${call} takes B-tree indexes; ${index.name} is a ${index.search.kind} index`, 'NOT_A_BTREE_INDEX', { index: index.name });
  }
}
