import { aggregateFunctions } from './aggregates.js';
import { conversionFunctions } from './conversion-functions.js';
import type { FunctionDefinition } from './definition.js';
import { listFunctions } from './list-functions.js';
import { loadCsvFunctions } from './load-csv-functions.js';
import { mathFunctions } from './math-functions.js';
import type { FunctionCatalog, FunctionSignature } from './signature.js';
import { spatialFunctions } from './spatial-functions.js';
import { stringFunctions } from './string-functions.js';
import { dynamicNameFunctions } from './dynamic-names.js';
import { temporalFunctions } from './temporal-functions.js';
import { trimNormalizeFunctions } from './trim-normalize-functions.js';
import { typeFunctions } from './type-functions.js';
import { searchFunctions } from './vector-functions.js';
import { vectorSimilarityFunctions } from './vector-similarity.js';

/**
 * Every function the engine knows, by canonical (lower-case, dotted) name. The binder asks
 * `functionCatalog` for signatures; the evaluator takes implementations from `lookupFunction`.
 */
const by_category: readonly { readonly category: string; readonly functions: readonly FunctionDefinition[] }[] = [
  { category: 'List', functions: listFunctions },
  { category: 'String', functions: [...stringFunctions, ...trimNormalizeFunctions] },
  { category: 'Other', functions: dynamicNameFunctions },
  { category: 'Predicate', functions: typeFunctions },
  { category: 'Numeric', functions: mathFunctions },
  { category: 'Scalar', functions: [...conversionFunctions, ...loadCsvFunctions] },
  { category: 'Temporal', functions: temporalFunctions },
  { category: 'Spatial', functions: spatialFunctions },
  { category: 'Aggregating', functions: aggregateFunctions },
  { category: 'Vector', functions: [...searchFunctions, ...vectorSimilarityFunctions] },
];

const all: readonly FunctionDefinition[] = [
  ...listFunctions,
  ...stringFunctions,
  ...dynamicNameFunctions,
  ...trimNormalizeFunctions,
  ...typeFunctions,
  ...mathFunctions,
  ...conversionFunctions,
  ...loadCsvFunctions,
  ...temporalFunctions,
  ...spatialFunctions,
  ...aggregateFunctions,
  ...searchFunctions,
  ...vectorSimilarityFunctions,
];

const byName = new Map<string, FunctionDefinition>();
for (const f of all) {
  if (byName.has(f.name)) throw new Error(`function ${f.name} defined twice`);
  byName.set(f.name, f);
}

export function lookupFunction(name: string): FunctionDefinition | undefined {
  return byName.get(name.toLowerCase());
}

export const functionCatalog: FunctionCatalog = {
  lookup(name: string): FunctionSignature | undefined {
    return lookupFunction(name);
  },
};

/** All definitions, for documentation and tests. */
export function allFunctions(): readonly FunctionDefinition[] {
  return all;
}

/** The definitions in groups named after the manual's function categories, for SHOW FUNCTIONS. */
export function allFunctionsByCategory(): typeof by_category {
  return by_category;
}
