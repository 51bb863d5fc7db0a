import type {
  BuildRecord,
  CheckRecord,
  ConstraintRecord,
  EdgeTypeDefinition,
  IndexRecord,
  LabelDefinition,
} from './types.js';

/**
 * The schema catalog (SPEC 2.4): label and edge type definitions, constraints, B-tree indexes, the
 * builds that fill them and the checks that verify them. One catalog for both admission routes
 * (SchemaService and Cypher DDL). Changed only by `SchemaProjection.apply`; read by everyone.
 */
export class Catalog {
  readonly labels = new Map<string, LabelDefinition>();
  readonly edgeTypes = new Map<string, EdgeTypeDefinition>();
  readonly constraints = new Map<string, ConstraintRecord>();
  /** By index id. Invariant: names are unique among indexes. */
  readonly indexes = new Map<number, IndexRecord>();
  /** By operation, ascending (operations are allocated in order). */
  readonly builds = new Map<number, BuildRecord>();
  /** By the generation they check. */
  readonly checks = new Map<number, CheckRecord>();
  /** Revision of the last published change of each label's (or edge type's) definition or constraints. */
  readonly labelRevisions = new Map<string, number>();
  readonly edgeTypeRevisions = new Map<string, number>();
  /** Invariant: greater than every revision handed out. */
  revision = 0;
  /** Counters admission allocates from; carried in events, so apply only moves them forward. */
  nextIndexId = 1;
  nextOperation = 1;

  indexByName(name: string): IndexRecord | undefined {
    for (const i of this.indexes.values()) if (i.name === name) return i;
    return undefined;
  }

  indexesOfLabel(label: string): IndexRecord[] {
    return [...this.indexes.values()].filter((i) => i.label === label);
  }

  constraintsOfLabel(label: string): ConstraintRecord[] {
    const out: ConstraintRecord[] = [];
    for (const c of this.constraints.values()) if (c.label === label) out.push(c);
    return out;
  }

  /** The constraint owning an index, if any. */
  ownerOf(index: IndexRecord): ConstraintRecord | undefined {
    return index.owner === undefined ? undefined : this.constraints.get(index.owner);
  }

  /** The build filling or last filling an index's generation. */
  buildOf(index: IndexRecord): BuildRecord | undefined {
    const gen = index.filling ?? index.serving;
    return gen === undefined ? undefined : this.builds.get(gen);
  }

  bumpLabel(label: string): void {
    this.labelRevisions.set(label, ++this.revision);
  }

  bumpEdgeType(type: string): void {
    this.edgeTypeRevisions.set(type, ++this.revision);
  }

  /** A copy: definitions are immutable and shared; records that change in place are copied. */
  snapshot(): CatalogSnapshot {
    return {
      labels: [...this.labels.values()],
      edge_types: [...this.edgeTypes.values()],
      constraints: [...this.constraints.values()].map((c) => ({ ...c })),
      indexes: [...this.indexes.values()].map((i) => ({ ...i })),
      builds: [...this.builds.values()].map((b) => ({ ...b, repairs: [...b.repairs] })),
      checks: [...this.checks.values()].map((k) => ({ ...k, conflicts: [...k.conflicts] })),
      label_revisions: [...this.labelRevisions],
      edge_type_revisions: [...this.edgeTypeRevisions],
      revision: this.revision,
      next_index_id: this.nextIndexId,
      next_operation: this.nextOperation,
    };
  }

  /** Replaces the whole catalog with a snapshot's. */
  restore(s: CatalogSnapshot): void {
    for (const m of [this.labels, this.edgeTypes, this.constraints, this.indexes, this.builds, this.checks, this.labelRevisions, this.edgeTypeRevisions]) {
      (m as Map<unknown, unknown>).clear();
    }
    for (const l of s.labels) this.labels.set(l.name, l);
    for (const e of s.edge_types) this.edgeTypes.set(e.name, e);
    for (const c of s.constraints) this.constraints.set(c.name, { ...c });
    for (const i of s.indexes) this.indexes.set(i.index_id, { ...i });
    for (const b of s.builds) this.builds.set(b.operation, { ...b, repairs: [...b.repairs] });
    for (const c of s.checks) this.checks.set(c.operation, { ...c, conflicts: [...c.conflicts] });
    for (const [k, v] of s.label_revisions) this.labelRevisions.set(k, v);
    for (const [k, v] of s.edge_type_revisions) this.edgeTypeRevisions.set(k, v);
    this.revision = s.revision;
    this.nextIndexId = s.next_index_id;
    this.nextOperation = s.next_operation;
  }
}

export interface CatalogSnapshot {
  readonly labels: readonly LabelDefinition[];
  readonly edge_types: readonly EdgeTypeDefinition[];
  readonly constraints: readonly ConstraintRecord[];
  readonly indexes: readonly IndexRecord[];
  readonly builds: readonly BuildRecord[];
  readonly checks: readonly CheckRecord[];
  readonly label_revisions: readonly (readonly [string, number])[];
  readonly edge_type_revisions: readonly (readonly [string, number])[];
  readonly revision: number;
  readonly next_index_id: number;
  readonly next_operation: number;
}
