import type {
  ComputedPropertySpec,
  ConstraintKindName,
  ConstraintScopeSpec,
  PropertyDefinitionSpec,
  PropertyTypeSpec,
  SchemaModeName,
  SearchIndexSpec,
} from '../../log/events.js';

/**
 * The catalog's records as the projection holds them (SPEC 2.4). Every field is fixed by the log:
 * admission chooses names, index ids and build operation numbers and carries them in the event.
 */
export interface LabelDefinition {
  readonly name: string;
  readonly properties: readonly PropertyDefinitionSpec[];
  readonly computed: readonly ComputedPropertySpec[];
  readonly mode: SchemaModeName;
  readonly temporal: boolean;
}

export interface EdgeTypeDefinition {
  readonly name: string;
  readonly properties: readonly PropertyDefinitionSpec[];
  readonly temporal: boolean;
  readonly discriminator: string;
}

export type ConstraintState = 'VALIDATING' | 'ACTIVE';

export interface ConstraintRecord {
  readonly name: string;
  readonly label: string;
  readonly constraint: ConstraintKindName;
  readonly properties: readonly string[];
  readonly property_type?: PropertyTypeSpec;
  readonly scope?: ConstraintScopeSpec;
  /** UNIQUE and NODE_KEY: the owned index. */
  readonly index_id?: number;
  state: ConstraintState;
}

export type IndexIntegrity = 'UNCHECKED' | 'SUSPECT' | 'VERIFIED';

export interface IndexRecord {
  readonly index_id: number;
  readonly name: string;
  readonly label: string;
  readonly properties: readonly string[];
  /** The owning constraint (UNIQUE or NODE_KEY); such an index is dropped only with it. */
  readonly owner?: string;
  readonly unique: boolean;
  readonly scope?: ConstraintScopeSpec;
  /** A vector or text index (never unique, never owned); absent for a B-tree index. */
  readonly search?: SearchIndexSpec;
  /** The generation answering lookups; undefined until the first build publishes. */
  serving?: number | undefined;
  /** The generation a build is filling (the build's operation); undefined when none runs. */
  filling?: number | undefined;
  integrity: IndexIntegrity;
}

export type BuildState = 'ACCEPTED' | 'RUNNING' | 'PUBLISHED' | 'FAILED' | 'CANCELLED';

export interface BuildRepair {
  readonly node_id: number;
  readonly property: string;
  readonly old_value: string;
  readonly new_value: string;
}

export interface BuildRecord {
  readonly operation: number;
  readonly index_id: number;
  /** Empty once the index is withdrawn. */
  index: string;
  label: string;
  readonly rebuild: boolean;
  state: BuildState;
  indexed: number;
  failure: string;
  readonly rename_property: string;
  readonly repairs: BuildRepair[];
  /** Log index of the admitting entry: transactions opened before it are older than the index. */
  readonly admitted_at: number;
}

export type CheckState = 'ACCEPTED' | 'RUNNING' | 'DONE' | 'FAILED' | 'CANCELLED';

export interface CheckRecord {
  readonly operation: number;
  readonly index_id: number;
  index: string;
  label: string;
  state: CheckState;
  phase: 'RECORDS' | 'ENTRIES';
  passes: number;
  checked: number;
  mismatches: number;
  repaired: number;
  conflicts: (readonly number[])[];
  rebuilt_into?: number;
  failure: string;
}

export const isFinalBuild = (s: BuildState): boolean => s === 'PUBLISHED' || s === 'FAILED' || s === 'CANCELLED';
export const isFinalCheck = (s: CheckState): boolean => s === 'DONE' || s === 'FAILED' || s === 'CANCELLED';
