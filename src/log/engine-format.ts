/**
 * The engine format version: it changes with a release when what members exchange or what the data
 * directory holds changes (SPEC 9.2). Releases with the same number mix freely. A server always runs
 * host format epoch 0; embedding applications set their own.
 */
export const ENGINE_FORMAT = 1;
export const SERVER_HOST_EPOCH = 0;
