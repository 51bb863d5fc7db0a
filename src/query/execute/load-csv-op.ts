import type { Value } from '../../common/values/value.js';
import { argumentError, runtimeTypeError } from '../errors.js';
import type { LogicalOp } from '../plan/logical.js';
import type { Deadline } from './budget.js';
import type { PhysicalOp } from './context.js';
import { CsvRecords } from './csv/csv-records.js';
import { externalResourceFailed } from './csv/csv-source.js';
import type { OpEnv } from './read-ops.js';
import { holding, loop, type Flow, type Slices } from './slices.js';
import { typeName } from '../values/index.js';

type LoadCsvOp = Extract<LogicalOp, { op: 'load_csv' }>;

/**
 * LOAD CSV (Neo4j 5 Cypher manual, "LOAD CSV"): for each input row, the URL is evaluated and its
 * records streamed one by one, as a list of fields or, WITH HEADERS, a map from the first record's
 * names (a field the record lacks is null, fields past the header are dropped). Nothing of the file is
 * held but the piece being parsed, so a file of any size runs in bounded memory; downstream, a
 * `CALL { } IN TRANSACTIONS` commits its batches as the file is read. A source that has nothing yet (a
 * remote one) pauses the statement until it has (the driver awaits `Deadline.waiting`); the
 * statement's deadline and its call's cancellation end the wait.
 */
export function loadCsv(op: LoadCsvOp, input: PhysicalOp, env: OpEnv): PhysicalOp {
  const url = env.exprs.compile(op.url);
  const cx = env.cx;
  const deadline = cx.deadline;
  const position = cx.functions.loadCsv;
  return (arg, sink) =>
    input(arg, (row) => {
      const location = urlOf(url(row));
      const source = cx.csv.open(location);
      const records = new CsvRecords(op.terminator, location);
      let header: readonly string[] | undefined;
      let ended = false;
      row[op.file] = source.file;
      const step = (): Flow | null => {
        for (;;) {
          const record = records.next();
          if (record !== undefined) {
            if (op.headers && header === undefined) {
              header = record.fields.map((f) => f ?? '');
              continue;
            }
            deadline.tick();
            const line = BigInt(record.line);
            row[op.variable] = header === undefined ? record.fields : mapOf(header, record.fields);
            row[op.line] = line;
            position.line = line;
            position.file = source.file;
            return sink(row);
          }
          if (ended) return null;
          const piece = source.read();
          if (piece === null) {
            records.end();
            ended = true;
          } else if (typeof piece === 'string') {
            records.push(piece);
          } else {
            return pause(piece, deadline, cx.can_wait, cx.signal, location);
          }
        }
      };
      return holding(
        () => loop(step, deadline),
        () => source.close(),
      );
    });
}

function urlOf(v: Value): string {
  if (typeof v === 'string') return v;
  if (v === null) throw argumentError('InvalidArgumentValue', 'LOAD CSV FROM needs a URL, not null');
  throw runtimeTypeError('InvalidArgumentType', `LOAD CSV FROM needs a STRING URL, not a ${typeName(v)}`);
}

/** A record as a map from the header's names: a field the record lacks is null, fields past the header are dropped. */
function mapOf(header: readonly string[], fields: readonly (string | null)[]): Map<string, Value> {
  const out = new Map<string, Value>();
  for (let i = 0; i < header.length; i++) out.set(header[i] as string, fields[i] ?? null);
  return out;
}

/**
 * Pauses until `arrived` settles, the statement's deadline passes or its call is cancelled (the driver
 * then fails the statement); the loop then asks the source again. A statement run in one go has no
 * driver to wait for it.
 */
function pause(arrived: Promise<void>, deadline: Deadline, can_wait: boolean, signal: AbortSignal | undefined, location: string): Slices {
  if (!can_wait) {
    throw externalResourceFailed(
      'CannotWait',
      `LOAD CSV cannot wait for ${location} here: a remote source is read only by a statement run in time slices`,
      'FAILED_PRECONDITION',
    );
  }
  return waitFor(untilStopped(arrived, deadline.at_ms, signal), deadline);
}

function* waitFor(settled: Promise<void>, deadline: Deadline): Slices {
  deadline.waiting = settled;
  yield;
  return true;
}

/** `arrived`, or the deadline or the cancellation if one comes first; never rejects (a failed source throws at its next read). */
function untilStopped(arrived: Promise<void>, at_ms: number, signal: AbortSignal | undefined): Promise<void> {
  const settled = arrived.then(
    () => undefined,
    () => undefined,
  );
  if (at_ms === Infinity && signal === undefined) return settled;
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<void>((resolve) => {
    if (at_ms !== Infinity) timer = setTimeout(resolve, Math.max(0, at_ms - Date.now()));
    if (signal !== undefined) {
      if (signal.aborted) resolve();
      onAbort = () => resolve();
      signal.addEventListener('abort', onAbort, { once: true });
    }
  });
  return Promise.race([settled, stopped]).then(() => {
    clearTimeout(timer);
    if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
  });
}
