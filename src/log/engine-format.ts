/**
 * The engine format version: it changes with a release when what members exchange or what the data
 * directory holds changes (SPEC 9.2). Releases with the same number mix freely. A server always runs
 * host format epoch 0; embedding applications set their own.
 */
export const ENGINE_FORMAT = 1;
export const SERVER_HOST_EPOCH = 0;

/** The first engine format: the one that introduced the ENGINE_FORMAT file. No directory has an older one. */
export const FIRST_ENGINE_FORMAT = 1;

/**
 * The format a release of `format` takes over in place at an upgrade (SPEC 9.5: each member is
 * updated on its own data directory): the one just before it. Absent for the first format.
 */
export function predecessorFormat(format: number): number | undefined {
  return format - 1 >= FIRST_ENGINE_FORMAT ? format - 1 : undefined;
}
