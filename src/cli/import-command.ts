/**
 * `weft import`: a bulk load of CSV files into a data directory that no server has open
 * (docs/import.md). Progress goes to stderr: one line rewritten in place on a terminal, plain lines
 * otherwise; the summary goes to stdout.
 */
import { invalidArgument } from '../common/errors.js';
import { bad_tolerance_default } from '../server/import/bad-rows.js';
import { importCsv, type ImportOptions, type NodeInput, type RelationshipInput } from '../server/import/importer.js';
import { progressLine, type ImportProgress } from '../server/import/progress.js';

export const import_usage = `usage: weft import --data-dir DIR
         --nodes[=Label[:Label]] FILE[,FILE] [FILE ...]      (repeatable; also --nodes=Label=FILE,FILE)
         --relationships[=TYPE] FILE[,FILE] [FILE ...]       (repeatable; also --relationships=TYPE=FILE)
         [--delimiter ,] [--array-delimiter ;] [--id-type string|integer]
         [--skip-bad-relationships] [--bad-tolerance ${bad_tolerance_default}] [--report-file import.report]
         [--into-existing] [--batch-rows 250000]
The first line of each group's first file is its header (neo4j-admin import's format).
`;

const valued = new Set(['data-dir', 'delimiter', 'array-delimiter', 'id-type', 'bad-tolerance', 'report-file', 'batch-rows']);
const switches = new Set(['skip-bad-relationships', 'into-existing']);

interface ParsedImport {
  readonly dataDir: string;
  readonly options: ImportOptions;
}

export function parseImportArgs(args: readonly string[]): ParsedImport {
  const nodes: NodeInput[] = [];
  const relationships: RelationshipInput[] = [];
  const values = new Map<string, string>();
  const on = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('--')) throw invalidArgument(`unexpected argument '${arg}'\n\n${import_usage}`);
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    const inline = eq < 0 ? undefined : arg.slice(eq + 1);
    if (name === 'nodes' || name === 'relationships') {
      // --nodes=Label:Label=a.csv,b.csv, or --nodes[=Label:Label] followed by files.
      let spec = inline ?? '';
      const files: string[] = [];
      const inner = spec.indexOf('=');
      if (inner >= 0) {
        files.push(...spec.slice(inner + 1).split(','));
        spec = spec.slice(0, inner);
      }
      while (i + 1 < args.length && !args[i + 1]!.startsWith('--')) files.push(...args[++i]!.split(','));
      const named = files.filter((f) => f !== '');
      if (named.length === 0) throw invalidArgument(`${arg} needs at least one file\n\n${import_usage}`);
      if (name === 'nodes') nodes.push({ labels: spec === '' ? [] : spec.split(':').filter((l) => l !== ''), files: named });
      else relationships.push({ ...(spec !== '' ? { type: spec } : {}), files: named });
    } else if (valued.has(name)) {
      const v = inline ?? args[++i];
      if (v === undefined) throw invalidArgument(`--${name} needs a value\n\n${import_usage}`);
      values.set(name, v);
    } else if (switches.has(name)) {
      if (inline !== undefined && inline !== 'true' && inline !== 'false') throw invalidArgument(`--${name} takes no value (or true/false)`);
      if (inline !== 'false') on.add(name);
    } else {
      throw invalidArgument(`unknown flag --${name}\n\n${import_usage}`);
    }
  }
  const dataDir = values.get('data-dir');
  if (dataDir === undefined) throw invalidArgument(`--data-dir is required\n\n${import_usage}`);
  const idType = values.get('id-type')?.toLowerCase() ?? 'string';
  if (idType !== 'string' && idType !== 'integer') throw invalidArgument(`--id-type is string or integer, got ${idType}`);
  const count = (name: string): number | undefined => {
    const v = values.get(name);
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isSafeInteger(n) || n < 0) throw invalidArgument(`--${name} must be a whole number, got ${v}`);
    return n;
  };
  const tolerance = count('bad-tolerance');
  const batch = count('batch-rows');
  return {
    dataDir,
    options: {
      nodes,
      relationships,
      id_type: idType,
      report_file: values.get('report-file') ?? 'import.report',
      skip_bad_relationships: on.has('skip-bad-relationships'),
      into_existing: on.has('into-existing'),
      ...(values.has('delimiter') ? { delimiter: values.get('delimiter')! } : {}),
      ...(values.has('array-delimiter') ? { array_delimiter: values.get('array-delimiter')! } : {}),
      ...(tolerance !== undefined ? { bad_tolerance: tolerance } : {}),
      ...(batch !== undefined ? { batch_rows: batch } : {}),
    },
  };
}

export async function importMain(args: readonly string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(import_usage);
    return 0;
  }
  const { dataDir, options } = parseImportArgs(args);
  const tty = process.stderr.isTTY === true;
  let drawn = false;
  const show = (p: ImportProgress): void => {
    const line = progressLine(p);
    if (tty) {
      process.stderr.write(`\r${line}\u001b[K`);
      drawn = true;
    } else {
      process.stderr.write(`${line}\n`);
    }
  };
  try {
    const s = await importCsv(dataDir, { ...options, on_progress: show });
    if (drawn) process.stderr.write('\n');
    process.stdout.write(
      `imported ${s.nodes} nodes and ${s.relationships} relationships into ${s.data_dir} in ${(s.total_ms / 1000).toFixed(2)} s ` +
        `(read ${(s.read_ms / 1000).toFixed(2)} s, write ${(s.write_ms / 1000).toFixed(2)} s; ` +
        `${s.entries} log entries); ${s.bad_rows.length} bad rows${s.bad_rows.length > 0 ? `, listed in ${options.report_file!}` : ''}\n`,
    );
    return 0;
  } catch (e) {
    if (drawn) process.stderr.write('\n');
    throw e;
  }
}
