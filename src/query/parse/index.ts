export { parse, nesting_depth_max } from './parse.js';
export { expression_depth_max } from './builder.js';
