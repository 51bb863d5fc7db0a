/**
 * What semantic analysis needs to know of a function before any value exists: whether the name is
 * known, how many arguments it takes, and whether it aggregates. The function library implements the
 * catalog; the binder only asks it.
 */
export interface FunctionSignature {
  /** Canonical (lower-case, dotted) name, e.g. `tolower`, `date.truncate`. Lookup is case-insensitive. */
  readonly name: string;
  readonly min_args: number;
  /** `Infinity` for variadic functions such as coalesce. */
  readonly max_args: number;
  readonly kind: 'scalar' | 'aggregate';
  /** False for functions whose result may differ between calls with equal arguments (rand, timestamp...). */
  readonly deterministic: boolean;
}

export interface FunctionCatalog {
  lookup(name: string): FunctionSignature | undefined;
}
