import type { Value } from '../../common/values/value.js';
import type { GraphReader } from '../../projections/graph/view.js';
import type { ProcedureCatalog, ProcedureSignature } from '../bind/procedures.js';
import type { SchemaObjects } from '../plan/explain.js';
import type { TransactionAdmin } from './transaction-admin.js';

/** What a procedure may read while it runs: the graph as the calling statement sees it, and the schema. */
export interface ProcedureContext {
  readonly graph: GraphReader;
  /** The indexes and constraints of the member (SHOW INDEXES, SHOW CONSTRAINTS); absent where there is no catalog. */
  readonly schema?: SchemaObjects;
  /** The member's running statements and open transactions (SHOW and TERMINATE TRANSACTIONS); absent where there are none to list. */
  readonly transactions?: TransactionAdmin;
}


/**
 * Procedures callable with CALL: a signature for the binder and an implementation for the engine.
 * Weft has no procedure libraries (SPEC 1); it answers the schema procedures of builtin-procedures.ts,
 * and embedders and the TCK register their own.
 */
export interface Procedure extends ProcedureSignature {
  /** Yields one list of output values (in `outputs` order) per result row. */
  call(args: readonly Value[], context: ProcedureContext): Iterable<readonly Value[]>;
}

export interface ProcedureLibrary extends ProcedureCatalog {
  lookup(name: string): Procedure | undefined;
  /** Changes whenever the set of procedures changes, so cached statements are bound again. */
  readonly version: number;
}

/** A mutable library, keyed by the procedure's exact name. */
export class ProcedureRegistry implements ProcedureLibrary {
  private readonly byName = new Map<string, Procedure>();
  private changes = 0;

  get version(): number {
    return this.changes;
  }

  lookup(name: string): Procedure | undefined {
    return this.byName.get(name);
  }

  register(p: Procedure): void {
    this.byName.set(p.name, p);
    this.changes++;
  }

  clear(): void {
    if (this.byName.size === 0) return;
    this.byName.clear();
    this.changes++;
  }
}

export const no_procedure_library: ProcedureLibrary = { lookup: () => undefined, version: 0 };
