import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';

/**
 * `weft shell` against a real `weft serve`: scripted with -c and -f in every output format, failing
 * with the server's error code and a non-zero exit, and typed into at a terminal (a tmux pane) the
 * way a person uses it: parameters, a statement over several lines, a transaction rolled back, a
 * plan, and history that survives to the next session.
 */
const repo = fileURLToPath(new URL('../../', import.meta.url));
const shell_wait_ms = 20_000;

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function runShell(args: readonly string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'shell', ...args], {
      cwd: repo,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_NO_WARNINGS: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`shell did not finish within ${shell_wait_ms} ms:\n${stdout}\n${stderr}`));
    }, shell_wait_ms);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A terminal a test types into: a detached tmux session on its own socket. */
class Terminal {
  private static made = 0;
  /** A socket of its own: a server still shutting down on the last one must not take this session with it. */
  private readonly socket = `weft-shell-test-${process.pid}-${++Terminal.made}`;
  constructor(command: string) {
    this.tmux('new-session', '-d', '-s', 'shell', '-x', '160', '-y', '60', command);
  }
  private tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8' });
  }
  /** Types text as keystrokes (sent as bytes, so tmux reads no `;` as its own separator), then Enter. */
  type(text: string): void {
    if (text !== '') this.tmux('send-keys', '-t', 'shell', '-H', ...[...Buffer.from(text)].map((b) => b.toString(16)));
    this.tmux('send-keys', '-t', 'shell', 'Enter');
  }
  key(name: string): void {
    this.tmux('send-keys', '-t', 'shell', name);
  }
  screen(): string {
    return this.tmux('capture-pane', '-p', '-t', 'shell', '-S', '-500');
  }
  /** Waits (bounded) until the screen, after `from` characters, matches. The pane drops trailing blanks. */
  async waitFor(pattern: RegExp, from = 0): Promise<string> {
    const deadline = Date.now() + shell_wait_ms;
    for (;;) {
      const text = this.screen().slice(from);
      if (pattern.test(text)) return text;
      if (Date.now() > deadline) throw new Error(`terminal never showed ${String(pattern)}; it shows:\n${this.screen()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  /** The screen's length with trailing blank lines dropped: a mark to wait for what comes after. */
  mark(): number {
    return this.screen().trimEnd().length;
  }
  close(): void {
    try {
      this.tmux('kill-server');
    } catch {
      // The shell exited and took the session with it.
    }
  }
}

describe('weft shell', () => {
  let dir: string;
  let server: ServerProcess;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'weft-shell-'));
    server = await startServerProcess(join(dir, 'data'));
  });
  afterAll(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('-c runs several statements and prints aligned tables', async () => {
    const r = await runShell(['-a', server.grpc, '-c', "CREATE (:City {name: 'Oslo', pop: 709000}), (:City {name: 'Bergen', pop: 291000}); MATCH (c:City) RETURN c.name AS name, c.pop AS pop ORDER BY name"]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      ['+----------+--------+', '| name     | pop    |', '+----------+--------+', "| 'Bergen' | 291000 |", "| 'Oslo'   | 709000 |", '+----------+--------+'].join('\n'),
    );
  });

  it('-f runs a file with parameters and a committed transaction; csv and json print the rows', async () => {
    const file = join(dir, 'script.cypher');
    writeFileSync(
      file,
      [':param city => "Tromsø"', ':param pop => 77000 + 544', ':begin', 'CREATE (:City {name: $city,', '  pop: $pop});', ':commit', 'MATCH (c:City {name: $city}) RETURN c.name, c.pop, c;'].join('\n'),
    );
    const csv = await runShell(['-a', server.grpc, '-f', file, '--format', 'csv']);
    expect(csv.stderr).toBe('');
    expect(csv.code).toBe(0);
    expect(csv.stdout).toBe('c.name,c.pop,c\nTromsø,77544,"(:City {name: \'Tromsø\', pop: 77544})"\n');
    const json = await runShell(['-a', server.grpc, '--format', 'json', '-c', "MATCH (c:City {name: 'Tromsø'}) RETURN c.pop AS pop, c"]);
    expect(json.code).toBe(0);
    const row = JSON.parse(json.stdout) as { pop: number; c: { labels: string[]; properties: Record<string, unknown> } };
    expect(row).toMatchObject({ pop: 77544, c: { labels: ['City'], properties: { name: 'Tromsø', pop: 77544 } } });
  });

  it('an error stops the script, names its code and exits 1; what ran before it stays', async () => {
    const r = await runShell(['-a', server.grpc, '-c', "CREATE (:Marker {n: 1}); MATCH (m:Marker RETURN m; CREATE (:Marker {n: 2})"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: INVALID_ARGUMENT \(\w+\): .*RETURN/);
    const count = await runShell(['-a', server.grpc, '--format', 'csv', '-c', 'MATCH (m:Marker) RETURN count(m) AS n']);
    expect(count.stdout).toBe('n\n1\n');
    const down = await runShell(['-a', '127.0.0.1:1', '-c', 'RETURN 1']);
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/^error: UNAVAILABLE/);
  });

  it('at a terminal: a person sets a parameter, types a statement over two lines, rolls back a transaction, explains, and finds yesterday in the history', async () => {
    const history = join(dir, 'history');
    const command = `cd ${repo} && NODE_NO_WARNINGS=1 ${process.execPath} --import tsx src/cli/main.ts shell -a ${server.grpc} --history ${history}`;
    let term = new Terminal(command);
    try {
      await term.waitFor(/weft>$/m);
      term.type(":param who => 'Grace'");
      await term.waitFor(/:param who => 'Grace'\nweft>$/m);
      let mark = term.mark();
      term.type('CREATE (p:Person {name: $who})');
      await term.waitFor(/\.\.\.>$/m, mark);
      term.type('RETURN p.name AS name;');
      let out = await term.waitFor(/1 row, 1 nodes created, 1 properties set \([\d.]+ ms\)\nweft>$/m, mark);
      expect(out).toContain("| 'Grace' |");

      mark = term.mark();
      term.type(':begin');
      await term.waitFor(/weft\(tx\)>$/m, mark);
      term.type("CREATE (:Person {name: 'Ghost'});");
      await term.waitFor(/1 nodes created.*\nweft\(tx\)>$/m, mark);
      term.type(':rollback');
      await term.waitFor(/rolled back\nweft>$/m, mark);
      // A second transaction, committed: what it wrote stays.
      mark = term.mark();
      term.type(':begin');
      await term.waitFor(/weft\(tx\)>$/m, mark);
      term.type("CREATE (:Person {name: 'Hopper'});");
      await term.waitFor(/1 nodes created.*\nweft\(tx\)>$/m, mark);
      term.type(':commit');
      await term.waitFor(/committed at commit_ts \d+\nweft>$/m, mark);
      mark = term.mark();
      term.type("MATCH (p:Person) WHERE p.name IN ['Grace', 'Ghost', 'Hopper'] RETURN p.name AS name ORDER BY name;");
      out = await term.waitFor(/2 rows \([\d.]+ ms\)\nweft>$/m, mark);
      expect(out).toContain("| 'Grace'  |");
      expect(out).toContain("| 'Hopper' |");
      expect(out).not.toContain('Ghost\' |');

      mark = term.mark();
      term.type(':explain MATCH (p:Person) WHERE p.name = $who RETURN p');
      out = await term.waitFor(/suggestions:\n.*CREATE INDEX[^\n]*\n+weft>$/m, mark);
      expect(out).toMatch(/ProduceResults {2}\(est\. [\d.]+ rows\)[^\n]*\n.*└─ /);

      term.type(':exit');
      const deadline = Date.now() + shell_wait_ms;
      while (!readFileSync(history, 'utf8').includes(':exit') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    } finally {
      term.close();
    }
    expect(readFileSync(history, 'utf8')).toContain(":param who => 'Grace'");

    // The next session: the arrow key brings back what was typed last time.
    term = new Terminal(command);
    try {
      await term.waitFor(/weft>$/m);
      term.key('Up');
      term.key('Up');
      await term.waitFor(/weft> :explain MATCH \(p:Person\) WHERE p\.name = \$who RETURN p$/m);
    } finally {
      term.close();
    }
  });
});
