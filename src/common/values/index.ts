/** The value model shared by storage and the query engine. See docs/values.md. */
export * from './value.js';
export * from './temporal.js';
export * from './calendar.js';
export * from './time-zone.js';
export * from './zoned.js';
export * from './spatial.js';
export * from './float-text.js';
export * from './temporal-parse.js';
export * from './equality.js';
export * from './order.js';
export * from './hash.js';
export * from './storable.js';
export * from './memory.js';
