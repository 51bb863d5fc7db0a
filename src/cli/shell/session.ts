/**
 * One shell session against a server: its parameters, its open transaction, and what each input does.
 * Input is either a Cypher statement or a `:command`; every outcome is printed through `print`, and a
 * failure is reported as the server's error code, reason and message.
 */
import type { GrpcClient } from '../../api/grpc-client.js';
import { isWeftError } from '../../common/errors.js';
import type { QueryService } from '../../gen/weft/v1/query_pb.js';
import type { PropertyValue } from '../../gen/weft/v1/values_pb.js';
import { valueText } from './format-value.js';
import { renderPlan, renderResult, type OutputFormat } from './render.js';

export interface Printer {
  out(text: string): void;
  err(text: string): void;
}

export type Outcome = { readonly kind: 'ok' } | { readonly kind: 'failed' } | { readonly kind: 'exit' };

export const shell_help = `Cypher statements end with ';' and may span lines. Commands:
  :param name => expression   set a parameter to the value of a Cypher expression ($name in queries)
  :params                     list the parameters
  :params clear               forget every parameter
  :begin                      open a transaction; statements run in it until :commit or :rollback
  :commit                     commit the open transaction
  :rollback                   discard the open transaction
  :explain <query>            draw the query's plan with estimated rows and index suggestions
  :help                       this text
  :exit                       leave (also Ctrl-D)
`;

export class ShellSession {
  private readonly params = new Map<string, PropertyValue>();
  /** The open transaction's id; 0n when statements auto-commit. */
  private transaction = 0n;

  constructor(
    private readonly client: GrpcClient<typeof QueryService>,
    private readonly print: Printer,
    private readonly format: OutputFormat,
    /** Row counts and timings are for people; a pipe gets only the rows. */
    private readonly chatty: boolean,
  ) {}

  get inTransaction(): boolean {
    return this.transaction !== 0n;
  }

  async run(input: string): Promise<Outcome> {
    try {
      return input.startsWith(':') ? await this.command(input) : await this.statement(input);
    } catch (e) {
      this.print.err(errorText(e));
      return { kind: 'failed' };
    }
  }

  private async statement(query: string): Promise<Outcome> {
    const started = performance.now();
    const res = await this.client.executeCypher({ query, parameters: Object.fromEntries(this.params), transactionId: this.transaction });
    const elapsed_ms = performance.now() - started;
    const rows = res.rows.map((r) => r.values);
    this.print.out(renderResult({ columns: res.columns, rows }, this.format));
    if (this.chatty) this.print.out(`${summary(rows.length, res.stats)} (${elapsed_ms.toFixed(1)} ms)\n`);
    return { kind: 'ok' };
  }

  private async command(input: string): Promise<Outcome> {
    const [name = '', ...restWords] = input.trim().split(/\s+/);
    const rest = input.trim().slice(name.length).trim();
    switch (name) {
      case ':exit':
      case ':quit':
        return { kind: 'exit' };
      case ':help':
        this.print.out(shell_help);
        return { kind: 'ok' };
      case ':param':
        return this.setParam(rest);
      case ':params':
        if (restWords[0] === 'clear') {
          this.params.clear();
          return { kind: 'ok' };
        }
        for (const [k, v] of [...this.params].sort(([a], [b]) => (a < b ? -1 : 1))) this.print.out(`:param ${k} => ${valueText(v)}\n`);
        return { kind: 'ok' };
      case ':begin': {
        if (this.inTransaction) return this.fail('a transaction is already open; :commit or :rollback it first');
        const res = await this.client.beginTransaction({});
        this.transaction = res.transactionId;
        if (this.chatty) this.print.out(`transaction ${res.transactionId} open (snapshot ${res.snapshotTs})\n`);
        return { kind: 'ok' };
      }
      case ':commit': {
        if (!this.inTransaction) return this.fail('no transaction is open; :begin one first');
        const id = this.transaction;
        // The transaction is over whatever the outcome: a failed commit leaves nothing to roll back.
        this.transaction = 0n;
        const res = await this.client.commitTransaction({ transactionId: id });
        if (this.chatty) this.print.out(`committed at commit_ts ${res.commitTs}\n`);
        return { kind: 'ok' };
      }
      case ':rollback': {
        if (!this.inTransaction) return this.fail('no transaction is open');
        const id = this.transaction;
        this.transaction = 0n;
        await this.client.rollbackTransaction({ transactionId: id });
        if (this.chatty) this.print.out('rolled back\n');
        return { kind: 'ok' };
      }
      case ':explain': {
        const query = rest.replace(/;\s*$/, '');
        if (query === '') return this.fail('usage: :explain <query>');
        const res = await this.client.explainCypher({ query, parameters: Object.fromEntries(this.params) });
        if (res.plan === undefined) return this.fail('the server sent no plan');
        this.print.out(renderPlan(res.plan));
        return { kind: 'ok' };
      }
      default:
        return this.fail(`unknown command ${name}; :help lists them`);
    }
  }

  /** `:param name => expression`: the server evaluates the expression, so any Cypher literal works. */
  private async setParam(rest: string): Promise<Outcome> {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)\s*(?:=>|:)\s*([\s\S]+?);?\s*$/.exec(rest);
    if (m === null) return this.fail('usage: :param name => expression');
    const name = m[1]!;
    const res = await this.client.executeCypher({ query: `RETURN ${m[2]!} AS value`, parameters: Object.fromEntries(this.params) });
    const value = res.rows[0]?.values[0];
    if (value === undefined) return this.fail(`the expression for ${name} gave no value`);
    this.params.set(name, value);
    if (this.chatty) this.print.out(`:param ${name} => ${valueText(value)}\n`);
    return { kind: 'ok' };
  }

  private fail(message: string): Outcome {
    this.print.err(`error: ${message}\n`);
    return { kind: 'failed' };
  }
}

function summary(rows: number, stats: { nodesCreated: bigint; nodesDeleted: bigint; edgesCreated: bigint; edgesDeleted: bigint; propertiesSet: bigint } | undefined): string {
  const parts = [`${rows} row${rows === 1 ? '' : 's'}`];
  if (stats !== undefined) {
    const counts: [bigint, string][] = [
      [stats.nodesCreated, 'nodes created'],
      [stats.nodesDeleted, 'nodes deleted'],
      [stats.edgesCreated, 'relationships created'],
      [stats.edgesDeleted, 'relationships deleted'],
      [stats.propertiesSet, 'properties set'],
    ];
    for (const [n, what] of counts) if (n !== 0n) parts.push(`${n} ${what}`);
  }
  return parts.join(', ');
}

/** The error line a person and a script both read: the code, the reason when there is one, the message. */
export function errorText(e: unknown): string {
  if (isWeftError(e)) return `error: ${e.code}${e.reason !== undefined && e.reason !== '' ? ` (${e.reason})` : ''}: ${e.message}\n`;
  return `error: ${e instanceof Error ? e.message : String(e)}\n`;
}
