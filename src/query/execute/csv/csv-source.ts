import { CypherError } from '../../errors.js';

/**
 * Where LOAD CSV reads its text. The engine does no I/O of its own: the server (or the embedded
 * database) gives it a `CsvSources` that resolves URLs under its settings (the import directory,
 * whether file and remote URLs are allowed) and reads them.
 */
export interface CsvSources {
  /**
   * Opens `url` for reading. Throws a CypherError of type ExternalResourceFailed for a URL that is
   * malformed, of a scheme not served, outside the import directory, or not found.
   */
  open(url: string): CsvInput;
}

export interface CsvInput {
  /** What `file()` answers for the rows read from it: the file's path on disk, or the URL of a remote source. */
  readonly file: string;
  /**
   * The next piece of text: a string (possibly empty), null at the end, or a promise when nothing has
   * arrived yet, to be awaited before asking again. A source that fails answers by throwing, from
   * here or from the promise's next call.
   */
  read(): string | null | Promise<void>;
  /** Stops reading and frees what the input holds; called once, also when the statement stops early. */
  close(): void;
}

/** The sources of an engine without any: every LOAD CSV is refused. */
export const no_csv_sources: CsvSources = {
  open: () => {
    throw externalResourceFailed('LoadCsvUnavailable', 'LOAD CSV is not available here: no import directory or remote source is configured');
  },
};

export function externalResourceFailed(detail: string, message: string, code: 'INVALID_ARGUMENT' | 'FAILED_PRECONDITION' | 'NOT_FOUND' = 'INVALID_ARGUMENT'): CypherError {
  return new CypherError('ExternalResourceFailed', 'runtime', detail, message, code);
}
