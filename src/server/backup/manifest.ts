/** `backup.json`: what a backup directory holds, written once the whole backup is on disk. */
export interface BackupManifest {
  readonly format: number;
  readonly engine_format: number;
  /** The ops address the backup was read from. */
  readonly source: string;
  /** Hex deployment id of the member backed up. A restore forms a new deployment (docs/backup.md). */
  readonly deployment: string;
  readonly checkpoint_index: number;
  /** Empty when the member had no checkpoint; then the tail starts at entry 1. */
  readonly checkpoint_file: string;
  /** Invariant: the tail holds exactly entries checkpoint_index + 1 ..= last_index. */
  readonly last_index: number;
  /** commit_ts of last_index: the state a restore reproduces is the source's AS OF this timestamp. */
  readonly commit_ts: number;
  readonly entries: number;
  readonly files: Readonly<Record<string, { readonly bytes: number; readonly sha256: string }>>;
}
