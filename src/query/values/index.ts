/** Query-level values and the operators the evaluator applies to them. See docs/values.md. */
export * from '../../common/values/index.js';
export * from './graph-refs.js';
export * from './arithmetic.js';
export * from './temporal-arithmetic.js';
export * from './temporal-between.js';
export * from './temporal-access.js';
export * from './convert.js';
export { formatFloat } from '../../common/values/float-text.js';
export * from './coerce.js';
export * from './access.js';
