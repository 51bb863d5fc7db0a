import { writeFileSync } from 'node:fs';
import { failedPrecondition } from '../../common/errors.js';

/** A row the import left out, and why. */
export interface BadRow {
  readonly file: string;
  /** 1-based line where the row starts. */
  readonly line: number;
  readonly reason: string;
}

/** neo4j-admin import's default: the import stops at the 1001st bad row. */
export const bad_tolerance_default = 1000;

/**
 * The bad rows of one import. Past `tolerance` of them the import stops (and writes nothing); the
 * list is bounded by the tolerance, so memory is too.
 */
export class BadRows {
  readonly rows: BadRow[] = [];

  constructor(private readonly tolerance: number) {}

  add(row: BadRow): void {
    this.rows.push(row);
    if (this.rows.length > this.tolerance) {
      throw failedPrecondition(
        `${this.rows.length} bad rows, more than the tolerance of ${this.tolerance}; nothing was imported (last: ${row.file}:${row.line}: ${row.reason})`,
        'IMPORT_TOO_MANY_BAD_ROWS',
        { bad_rows: String(this.rows.length), bad_tolerance: String(this.tolerance), file: row.file, line: String(row.line) },
      );
    }
  }

  /** Writes the report: one `file:line: reason` per bad row. */
  writeReport(path: string): void {
    writeFileSync(path, this.rows.map((r) => `${r.file}:${r.line}: ${r.reason}\n`).join(''));
  }
}
