import type { StaticType } from './static-type.js';

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
