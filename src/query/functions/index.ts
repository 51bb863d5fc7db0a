/** The function library: catalog, implementations, aggregates and the context they need. */
export { functionCatalog, lookupFunction, allFunctions } from './catalog.js';
export type { FunctionCatalog, FunctionSignature } from './signature.js';
export type {
  Accumulator,
  AggregateFunction,
  AggregateOptions,
  FunctionDefinition,
  ScalarFunction,
  ScalarImplementation,
} from './definition.js';
export type { EpochInstant, FunctionContext, TemporalClock } from './context.js';
export { vectorDistance, VECTOR_METRICS, type VectorMetric } from './vector-functions.js';
export { roundDecimal, ROUNDING_MODES, type RoundingMode } from './math-functions.js';
export { toBooleanValue, toFloatValue, toIntegerValue, toStringValue } from './conversion-functions.js';
export { RANGE_ELEMENTS_MAX } from './list-functions.js';
