/**
 * The engine format version: it changes with a release when what members exchange or what the data
 * directory holds changes (SPEC 9.2). Releases with the same number mix freely. A server always runs
 * host format epoch 0; embedding applications set their own.
 *
 * History (docs/upgrades.md "Format history"):
 *   1  the first: segment format 2, checkpoint format 1, snapshots sent from their first byte.
 *   2  log segments preallocated (segment format 3), checkpoints framed and loaded a frame at a time
 *      (checkpoint format 2), snapshot transfers that resume and carry saved vector graphs, large writes
 *      logged in parts (graph_write_part). A format-2 release reads a format-1 directory and takes it
 *      over in place.
 *   3  blob chunks stored in packs (`blobs/packs/`, docs/blobs.md) instead of one file per chunk; a
 *      format-2 release would find none of them. A format-3 release reads a format-2 directory's
 *      chunk files as they are and takes it over in place.
 *   4  POINT values in log entries and checkpoints (a msgpack extension, docs/values.md); a format-3
 *      release could not decode an entry or a checkpoint holding one. A format-4 release reads a format-3
 *      directory as it is and takes it over in place.
 */
export const ENGINE_FORMAT = 4;
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
