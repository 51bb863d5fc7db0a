import { mayBe, type StaticType } from './static-type.js';

/** What the binder needs to know of a procedure: its inputs and outputs, by name and in order. */
export interface ProcedureSignature {
  /** Canonical dotted name, e.g. `db.labels`. Lookup is case-sensitive on the namespace like Neo4j's. */
  readonly name: string;
  readonly inputs: readonly { readonly name: string; readonly type: StaticType }[];
  readonly outputs: readonly { readonly name: string; readonly type: StaticType }[];
}

export interface ProcedureCatalog {
  lookup(name: string): ProcedureSignature | undefined;
}

/** Weft has no procedure library (SPEC 1); statements are bound against an empty catalog unless one is given. */
export const no_procedures: ProcedureCatalog = { lookup: () => undefined };

/**
 * Whether an argument of static type `given` may be passed where a procedure declares `declared`.
 * Unknown types are left to run time; an INTEGER is accepted for a FLOAT (it widens); lists are
 * checked element by element.
 */
export function acceptsArgument(declared: StaticType, given: StaticType): boolean {
  if (declared.kind === 'any' || given.kind === 'any' || given.kind === 'null') return true;
  if (declared.kind === 'list') return given.kind === 'list' && acceptsArgument(declared.element, given.element);
  if (declared.kind === 'float' && given.kind === 'integer') return true;
  return mayBe(given, declared.kind);
}
