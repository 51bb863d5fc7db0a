import type { Duration } from '@bufbuild/protobuf/wkt';
import { assertNever } from '../common/assert.js';
import { encodeElementId } from '../common/element-id.js';
import { invalidArgument } from '../common/errors.js';
import type { PropertyValue } from '../common/property-value.js';
import { isStorableProperty } from '../common/values/index.js';
import type {
  ComputedPropertySpec,
  ConstraintKindName,
  ConstraintScopeSpec,
  PropertyDefinitionSpec,
  PropertyTypeSpec,
  SchemaEvent,
  SchemaModeName,
} from '../log/events.js';
import type { Catalog } from '../projections/catalog/catalog.js';
import type { ConstraintRequest, IndexRef, IndexRequest } from '../projections/catalog/requests.js';
import { searchIndexRequestFromWire } from './search-index-requests.js';
import type { BuildRecord, CheckRecord, ConstraintRecord } from '../projections/catalog/types.js';
import {
  ComputedType,
  ConstraintKind,
  ConstraintState,
  DecayFormulaType,
  DistanceMetric,
  IndexBuildPhase,
  IndexBuildState,
  IndexCheckPhase,
  IndexCheckState,
  IndexIntegrity,
  ScalarType,
  SchemaMode,
  SchemaService,
  TtlScopeType,
  type ComputedPropertyDefinition,
  type ConstraintScope,
  type PropertyDefinition,
  type PropertyType,
} from '../gen/weft/v2/schema_pb.js';
import type { MessageInitShape } from '@bufbuild/protobuf';
import type { IndexBuildSchema, IndexCheckSchema, ConstraintSchema, LabelSchema, EdgeTypeSchema, PropertyTypeSchema } from '../gen/weft/v2/schema_pb.js';
import { implement, type RegisteredService } from './handlers.js';
import { valueFromWire, valueToWire } from './value-codec.js';

/**
 * SchemaService (SPEC 4.3) on gRPC and REST: labels and edge types, constraints, index builds and
 * index checks. Every change goes through the server's schema admission, the same path Cypher DDL
 * takes; reads answer from the catalog projection.
 */
export type BuildPhaseName = 'AWAITING_SEAT' | 'AWAITING_OLDER_TRANSACTIONS' | 'INDEXING';

export interface SchemaBackend {
  catalog(): Catalog;
  /** Labels and edge types that stored nodes and edges carry now. */
  labelsInUse(): Iterable<string>;
  edgeTypesInUse(): Iterable<string>;
  phaseOf(operation: number): BuildPhaseName | undefined;
  defineLabel(event: Extract<SchemaEvent, { kind: 'label_defined' }>): Promise<void>;
  defineEdgeType(event: Extract<SchemaEvent, { kind: 'edge_type_defined' }>): Promise<void>;
  createConstraint(req: ConstraintRequest, signal: AbortSignal): Promise<ConstraintRecord>;
  dropConstraint(name: string, if_exists: boolean): Promise<void>;
  waitBuild(operation: number, wait_ms: number, signal: AbortSignal): Promise<BuildRecord>;
  cancelBuild(operation: number): Promise<BuildRecord>;
  checkIndex(ref: IndexRef): Promise<CheckRecord>;
  waitCheck(operation: number, wait_ms: number, signal: AbortSignal): Promise<CheckRecord>;
  cancelCheck(operation: number): Promise<CheckRecord>;
  reindex(ref: IndexRef, wait_ms: number, signal: AbortSignal): Promise<BuildRecord>;
  /** A vector or text index (`req.search` set) and its build. */
  createSearchIndex(req: IndexRequest, signal: AbortSignal): Promise<BuildRecord>;
  dropSearchIndex(name: string, if_exists: boolean): Promise<void>;
}

/** The longest wait a request may ask for; longer ones are cut to it. */
export const schema_wait_ms_max = 3_600_000;

export function schemaService(backend: SchemaBackend): RegisteredService {
  const view = (): Catalog => backend.catalog();
  return implement(SchemaService, {
    async createLabel(req) {
      const properties = req.properties.map((p, i) => definitionFromWire(p, `properties[${i}]`));
      const computed = req.computedProperties.map((c, i) => computedFromWire(c, `computed_properties[${i}]`));
      await backend.defineLabel({ kind: 'label_defined', name: req.name, properties, computed, mode: modeFromWire(req.schemaMode), temporal: req.temporal });
      return labelToWire(view(), req.name, true);
    },

    async listLabels() {
      const c = view();
      const names = new Set<string>([...c.labels.keys(), ...backend.labelsInUse()]);
      return { labels: [...names].sort(byCodeUnit).map((n) => labelToWire(c, n, c.labels.has(n))) };
    },

    async createEdgeType(req) {
      const properties = req.properties.map((p, i) => definitionFromWire(p, `properties[${i}]`));
      await backend.defineEdgeType({ kind: 'edge_type_defined', name: req.name, properties, temporal: req.temporal, discriminator: req.discriminator });
      return edgeTypeToWire(view(), req.name, true);
    },

    async listEdgeTypes() {
      const c = view();
      const names = new Set<string>([...c.edgeTypes.keys(), ...backend.edgeTypesInUse()]);
      return { edgeTypes: [...names].sort(byCodeUnit).map((n) => edgeTypeToWire(c, n, c.edgeTypes.has(n))) };
    },

    async createConstraint(req, ctx) {
      const constraint = kindFromWire(req.kind);
      const request: ConstraintRequest = {
        name: req.name,
        label: req.label,
        constraint,
        properties: req.properties,
        ...(req.propertyType !== undefined ? { property_type: typeFromWire(req.propertyType, 'property_type') } : {}),
        ...(req.scope !== undefined ? { scope: scopeFromWire(req.scope) } : {}),
        if_not_exists: req.ifNotExists,
        ...(req.wait !== undefined ? { wait_ms: durationMs(req.wait, 'wait') } : {}),
        on_duplicate_rename: req.onDuplicateRename,
      };
      const made = await backend.createConstraint(request, ctx.signal);
      return constraintToWire(view(), made, backend);
    },

    async listConstraints() {
      const c = view();
      return { constraints: [...c.constraints.values()].sort((a, b) => byCodeUnit(a.name, b.name)).map((k) => constraintToWire(c, k, backend)) };
    },

    async dropConstraint(req) {
      await backend.dropConstraint(req.name, req.ifExists);
      return {};
    },

    async listIndexBuilds() {
      return { builds: [...view().builds.values()].sort((a, b) => a.operation - b.operation).map((b) => buildToWire(b, backend)) };
    },

    async getIndexBuild(req, ctx) {
      const op = operationOf(req.operation);
      return buildToWire(await backend.waitBuild(op, req.wait === undefined ? 0 : durationMs(req.wait, 'wait'), ctx.signal), backend);
    },

    async cancelIndexBuild(req) {
      return buildToWire(await backend.cancelBuild(operationOf(req.operation)), backend);
    },

    async listIndexBuildRepairs(req, ctx) {
      const b = await backend.waitBuild(operationOf(req.operation), 0, ctx.signal);
      const repairs = [...b.repairs].sort((x, y) => x.node_id - y.node_id);
      return {
        repairs: repairs.map((r) => ({ elementId: encodeElementId(r.node_id), property: r.property, oldValue: r.old_value, newValue: r.new_value })),
      };
    },

    async checkIndex(req) {
      return checkToWire(view(), await backend.checkIndex(indexRefOf(req.index)));
    },

    async listIndexChecks() {
      const c = view();
      return { checks: [...c.checks.values()].sort((a, b) => a.operation - b.operation).map((k) => checkToWire(c, k)) };
    },

    async getIndexCheck(req, ctx) {
      const op = operationOf(req.operation);
      return checkToWire(view(), await backend.waitCheck(op, req.wait === undefined ? 0 : durationMs(req.wait, 'wait'), ctx.signal));
    },

    async cancelIndexCheck(req) {
      return checkToWire(view(), await backend.cancelCheck(operationOf(req.operation)));
    },

    async reindex(req, ctx) {
      const b = await backend.reindex(indexRefOf(req.index), req.wait === undefined ? 0 : durationMs(req.wait, 'wait'), ctx.signal);
      return buildToWire(b, backend);
    },

    async createSearchIndex(req, ctx) {
      const request = searchIndexRequestFromWire(req, req.wait === undefined ? undefined : durationMs(req.wait, 'wait'));
      return buildToWire(await backend.createSearchIndex(request, ctx.signal), backend);
    },

    async dropSearchIndex(req) {
      await backend.dropSearchIndex(req.name, req.ifExists);
      return {};
    },
  });
}

// ---- requests ----

function operationOf(op: bigint | undefined): number {
  if (op === undefined) throw invalidArgument('operation is required', 'INVALID_REQUEST_FIELD', { field: 'operation', detail: 'absent' });
  if (op > BigInt(Number.MAX_SAFE_INTEGER)) return Number.MAX_SAFE_INTEGER;
  return Number(op);
}

function indexRefOf(index: { case: 'indexId'; value: bigint } | { case: 'indexName'; value: string } | { case: undefined; value?: undefined }): IndexRef {
  switch (index.case) {
    case 'indexId':
      return { index_id: index.value > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(index.value) };
    case 'indexName':
      return { index_name: index.value };
    case undefined:
      throw invalidArgument('name the index by index_id or index_name');
    default:
      return assertNever(index, 'index reference');
  }
}

function durationMs(d: Duration, what: string): number {
  const ms = Number(d.seconds) * 1000 + Math.floor(d.nanos / 1_000_000);
  if (!Number.isFinite(ms) || ms < 0) throw invalidArgument(`${what} must not be negative`);
  return Math.min(ms, schema_wait_ms_max);
}

const SCALARS: Readonly<Record<number, PropertyTypeSpec & { kind: 'scalar' }>> = Object.fromEntries(
  (['STRING', 'INT64', 'FLOAT64', 'BOOL', 'TIMESTAMP', 'BLOB', 'BINARY', 'MAP', 'GEO', 'DOCUMENT'] as const).map((s) => [ScalarType[s], { kind: 'scalar', scalar: s }]),
);

function typeFromWire(t: PropertyType | undefined, where: string): PropertyTypeSpec {
  const k = t?.kind;
  switch (k?.case) {
    case 'scalar': {
      const s = SCALARS[k.value];
      if (s === undefined) throw invalidArgument(`${where}: a scalar type is required (not SCALAR_TYPE_UNSPECIFIED)`, 'INVALID_SCHEMA');
      return s;
    }
    case 'vector': {
      const metric = DistanceMetric[k.value.metric] as string | undefined;
      if (metric === undefined) throw invalidArgument(`${where}: unknown distance metric ${k.value.metric}`);
      return { kind: 'vector', dimensions: k.value.dimensions, metric: metric === 'UNSPECIFIED' ? 'COSINE' : (metric as 'COSINE' | 'L2' | 'DOT' | 'L1') };
    }
    case 'array':
      return { kind: 'array', element: typeFromWire(k.value.element, `${where}.element`) };
    default:
      throw invalidArgument(`${where}: a type is required: one of scalar, vector, array`, 'INVALID_SCHEMA');
  }
}

function definitionFromWire(p: PropertyDefinition, where: string): PropertyDefinitionSpec {
  const type = typeFromWire(p.type, `${where}.type`);
  let default_value: PropertyValue | undefined;
  if (p.defaultValue !== undefined) {
    const v = valueFromWire(p.defaultValue, `${where}.default_value`);
    if (v !== null) {
      if (!isStorableProperty(v, { allowMaps: true })) throw invalidArgument(`${where}.default_value cannot be stored`, 'INVALID_DEFAULT');
      default_value = v as PropertyValue;
    }
  }
  return { name: p.name, type, required: p.required, ...(default_value !== undefined ? { default_value } : {}) };
}

function computedFromWire(c: ComputedPropertyDefinition, where: string): ComputedPropertySpec {
  if (c.computedType === ComputedType.UNSPECIFIED || ComputedType[c.computedType] === undefined) {
    throw invalidArgument(`${where}: computed_type is required`, 'INVALID_COMPUTED_PROPERTY');
  }
  const formula = DecayFormulaType[c.formulaType] as string | undefined;
  const scope = TtlScopeType[c.scope] as string | undefined;
  if (formula === undefined || scope === undefined) throw invalidArgument(`${where}: unknown formula_type or scope`, 'INVALID_COMPUTED_PROPERTY');
  return {
    name: c.name,
    computed_type: ComputedType[c.computedType] as ComputedPropertySpec['computed_type'],
    formula_type: (formula === 'UNSPECIFIED' ? 'LINEAR' : formula) as ComputedPropertySpec['formula_type'],
    lambda: c.lambda,
    tau: c.tau,
    alpha: c.alpha,
    initial: c.initial,
    target: c.target,
    duration_secs: Number(c.durationSecs),
    anchor_field: c.anchorField,
    scope: (scope === 'UNSPECIFIED' ? 'NODE' : scope) as ComputedPropertySpec['scope'],
    target_field: c.targetField,
  };
}

function modeFromWire(m: SchemaMode): SchemaModeName {
  switch (m) {
    case SchemaMode.UNSPECIFIED:
    case SchemaMode.STRICT:
      return 'STRICT';
    case SchemaMode.VALIDATED:
      return 'VALIDATED';
    case SchemaMode.FLEXIBLE:
      return 'FLEXIBLE';
    default:
      throw invalidArgument(`unknown schema_mode ${String(m)}`);
  }
}

function kindFromWire(k: ConstraintKind): ConstraintKindName {
  switch (k) {
    case ConstraintKind.UNIQUE:
      return 'UNIQUE';
    case ConstraintKind.NOT_NULL:
      return 'NOT_NULL';
    case ConstraintKind.NODE_KEY:
      return 'NODE_KEY';
    case ConstraintKind.PROPERTY_TYPE:
      return 'PROPERTY_TYPE';
    case ConstraintKind.UNSPECIFIED:
      throw invalidArgument('kind is required', 'INVALID_SCHEMA');
    default:
      throw invalidArgument(`unknown constraint kind ${String(k)}`, 'INVALID_SCHEMA');
  }
}

function scopeFromWire(s: ConstraintScope): ConstraintScopeSpec {
  const t = s.test;
  switch (t.case) {
    case 'equalsString':
    case 'equalsInt':
    case 'equalsBool':
      return { property: s.property, test: 'equals', value: t.value };
    case 'present':
      return { property: s.property, test: 'present' };
    case undefined:
      throw invalidArgument('scope needs a test: equals_string, equals_int, equals_bool or present', 'INVALID_SCHEMA');
    default:
      return assertNever(t, 'scope test');
  }
}

// ---- answers ----

const noRefs = { node: () => undefined, edge: () => undefined };

function typeToWire(t: PropertyTypeSpec): MessageInitShape<typeof PropertyTypeSchema> {
  switch (t.kind) {
    case 'scalar':
      return { kind: { case: 'scalar', value: ScalarType[t.scalar] } };
    case 'vector':
      return { kind: { case: 'vector', value: { dimensions: t.dimensions, metric: DistanceMetric[t.metric] } } };
    case 'array':
      return { kind: { case: 'array', value: { element: typeToWire(t.element) } } };
    default:
      return assertNever(t, 'property type');
  }
}

function definitionToWire(p: PropertyDefinitionSpec) {
  return {
    name: p.name,
    type: typeToWire(p.type),
    required: p.required,
    ...(p.default_value !== undefined ? { defaultValue: valueToWire(p.default_value, noRefs) } : {}),
  };
}

function labelToWire(c: Catalog, name: string, declared: boolean): MessageInitShape<typeof LabelSchema> {
  const d = c.labels.get(name);
  if (!declared || d === undefined) return { name, declared: false };
  return {
    name,
    declared: true,
    properties: [...d.properties].sort((a, b) => byCodeUnit(a.name, b.name)).map(definitionToWire),
    computedProperties: [...d.computed]
      .sort((a, b) => byCodeUnit(a.name, b.name))
      .map((x) => ({
        name: x.name,
        computedType: ComputedType[x.computed_type],
        formulaType: DecayFormulaType[x.formula_type],
        lambda: x.lambda,
        tau: x.tau,
        alpha: x.alpha,
        initial: x.initial,
        target: x.target,
        durationSecs: BigInt(x.duration_secs),
        anchorField: x.anchor_field,
        scope: TtlScopeType[x.scope],
        targetField: x.target_field,
      })),
    schemaMode: SchemaMode[d.mode],
    temporal: d.temporal,
    schemaRevision: BigInt(c.labelRevisions.get(name) ?? 0),
  };
}

function edgeTypeToWire(c: Catalog, name: string, declared: boolean): MessageInitShape<typeof EdgeTypeSchema> {
  const d = c.edgeTypes.get(name);
  if (!declared || d === undefined) return { name, declared: false };
  return {
    name,
    declared: true,
    properties: [...d.properties].sort((a, b) => byCodeUnit(a.name, b.name)).map(definitionToWire),
    temporal: d.temporal,
    discriminator: d.discriminator,
    schemaRevision: BigInt(c.edgeTypeRevisions.get(name) ?? 0),
  };
}

function buildToWire(b: BuildRecord, backend: Pick<SchemaBackend, 'phaseOf'>): MessageInitShape<typeof IndexBuildSchema> {
  const phase = b.state === 'RUNNING' ? backend.phaseOf(b.operation) : undefined;
  return {
    operation: BigInt(b.operation),
    index: b.index,
    label: b.label,
    state: IndexBuildState[b.state],
    phase: phase === undefined ? IndexBuildPhase.UNSPECIFIED : IndexBuildPhase[phase],
    indexed: BigInt(b.indexed),
    failure: b.failure,
    renameProperty: b.rename_property,
    repaired: BigInt(b.repairs.length),
  };
}

function constraintToWire(c: Catalog, k: ConstraintRecord, backend: Pick<SchemaBackend, 'phaseOf'>): MessageInitShape<typeof ConstraintSchema> {
  const index = k.index_id === undefined ? undefined : c.indexes.get(k.index_id);
  const build = index === undefined ? undefined : c.buildOf(index);
  const s = k.scope;
  return {
    name: k.name,
    properties: [...k.properties],
    kind: ConstraintKind[k.constraint],
    ...(k.property_type !== undefined ? { propertyType: typeToWire(k.property_type) } : {}),
    state: ConstraintState[k.state],
    backingIndex: index?.name ?? '',
    ...(build !== undefined ? { build: buildToWire(build, backend) } : {}),
    ...(s !== undefined
      ? {
          scope: {
            property: s.property,
            test:
              s.test === 'present'
                ? { case: 'present' as const, value: {} }
                : typeof s.value === 'string'
                  ? { case: 'equalsString' as const, value: s.value }
                  : typeof s.value === 'bigint'
                    ? { case: 'equalsInt' as const, value: s.value }
                    : { case: 'equalsBool' as const, value: s.value },
          },
        }
      : {}),
    label: k.label,
  };
}

function checkToWire(c: Catalog, k: CheckRecord): MessageInitShape<typeof IndexCheckSchema> {
  const index = c.indexes.get(k.index_id);
  return {
    operation: BigInt(k.operation),
    indexId: BigInt(k.index_id),
    index: k.index,
    label: k.label,
    integrity: IndexIntegrity[index?.integrity ?? 'UNCHECKED'],
    state: IndexCheckState[k.state],
    phase: IndexCheckPhase[k.phase],
    passes: k.passes,
    checked: BigInt(k.checked),
    mismatches: BigInt(k.mismatches),
    repaired: BigInt(k.repaired),
    conflicts: k.conflicts.map((g) => ({ elementIds: g.map(encodeElementId) })),
    ...(k.rebuilt_into !== undefined ? { rebuiltInto: BigInt(k.rebuilt_into) } : {}),
    failure: k.failure,
  };
}

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
