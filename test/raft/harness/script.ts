import type { RaftConfig } from '../../../src/log/raft/index.js';
import { TraceEnv } from './env.js';

/**
 * A trace file is a list of blocks: optional `#` comment lines, a `> command` line, then the exact
 * output expected, ended by a blank line. Output lines never start with `>` or `#` and are never blank.
 */
export interface Block {
  readonly comments: string[];
  readonly command: string;
  readonly expected: string[];
}

export function parseTrace(text: string): Block[] {
  const blocks: Block[] = [];
  let comments: string[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('> ')) {
      const expected: string[] = [];
      while (i + 1 < lines.length && lines[i + 1] !== '') expected.push(lines[++i]!);
      blocks.push({ comments, command: line.slice(2), expected });
      comments = [];
    } else if (line.startsWith('#')) {
      comments.push(line);
    } else if (line !== '') {
      throw new Error(`trace line ${i + 1}: expected a comment or a command, got ${JSON.stringify(line)}`);
    }
  }
  return blocks;
}

export function formatTrace(blocks: readonly { comments: string[]; command: string; output: string[] }[]): string {
  const parts: string[] = [];
  for (const b of blocks) parts.push([...b.comments, `> ${b.command}`, ...b.output].join('\n'));
  return parts.join('\n\n') + '\n';
}

/** Runs every command of a trace, returning the output each produced. */
export function runTrace(blocks: readonly Block[]): string[][] {
  const env = new TraceEnv();
  return blocks.map((b) => {
    try {
      return runCommand(env, b.command);
    } catch (e) {
      throw new Error(`command "${b.command}" failed: ${(e as Error).message}`, { cause: e });
    }
  });
}

function ids(s: string | undefined): number[] {
  if (s === undefined || s === '') return [];
  return s.split(',').map(Number);
}

function runCommand(env: TraceEnv, command: string): string[] {
  const words = command.split(/\s+/).filter((w) => w !== '');
  const name = words[0] ?? '';
  const args = words.slice(1).filter((w) => !w.includes('='));
  const kv: Record<string, string> = {};
  for (const w of words.slice(1)) if (w.includes('=')) kv[w.slice(0, w.indexOf('='))] = w.slice(w.indexOf('=') + 1);
  const n = (k: number): number => {
    const v = Number(args[k]);
    if (!Number.isFinite(v)) throw new Error(`argument ${k + 1} of ${name} must be a number`);
    return v;
  };
  switch (name) {
    case 'add-nodes': {
      const opts: { -readonly [K in keyof RaftConfig]?: RaftConfig[K] } = {};
      if (kv.pre_vote) opts.pre_vote = kv.pre_vote === 'true';
      if (kv.check_quorum) opts.check_quorum = kv.check_quorum === 'true';
      if (kv.election) opts.election_ticks = Number(kv.election);
      if (kv.heartbeat) opts.heartbeat_ticks = Number(kv.heartbeat);
      if (kv.inflight) opts.inflight_msgs_max = Number(kv.inflight);
      if (kv.msg_bytes) opts.msg_bytes_max = Number(kv.msg_bytes);
      if (kv.quiet) opts.quiet_commit_notices = kv.quiet === 'true';
      if (kv.unsafe) opts.unsafe_bugs = { [kv.unsafe]: true };
      return env.addNodes(ids(kv.ids), ids(kv.voters), ids(kv.learners), opts);
    }
    case 'campaign':
      env.members.get(n(0))!.node.campaign();
      return [];
    case 'tick':
      return env.tick(n(0), args[1] === undefined ? 1 : n(1));
    case 'tick-election':
      return env.tick(n(0), env.members.get(n(0))!.config.election_ticks);
    case 'tick-heartbeat':
      return env.tick(n(0), env.members.get(n(0))!.config.heartbeat_ticks);
    case 'propose':
      return env.propose(n(0), args[1] ?? '');
    case 'propose-batch':
      return env.proposeBatch(n(0), args.slice(1));
    case 'add-learner':
      return env.proposeConf(n(0), { kind: 'add_learner', node: n(1) });
    case 'promote':
    case 'add-voter':
      return env.proposeConf(n(0), { kind: 'add_voter', node: n(1) });
    case 'remove':
      return env.proposeConf(n(0), { kind: 'remove', node: n(1) });
    case 'process-ready':
      return args.flatMap((_, k) => env.processReady(n(k)));
    case 'deliver':
      return args.length === 0 ? env.deliver(undefined, false) : args.flatMap((_, k) => env.deliver(n(k), false));
    case 'drop-msgs':
      return env.deliver(args[0] === undefined ? undefined : n(0), true);
    case 'drop':
      return env.dropBetween(n(0), n(1));
    case 'hold':
      return env.hold(n(0), n(1));
    case 'release':
      return env.release();
    case 'stabilize':
      return env.stabilize(args.map((_, k) => n(k)));
    case 'partition':
      return env.partition(
        words
          .slice(1)
          .join(' ')
          .split('|')
          .map((g) => g.trim().split(/\s+/).map(Number)),
      );
    case 'cut':
      return env.cutLink(n(0), n(1));
    case 'heal':
      return env.heal();
    case 'transfer':
      return env.transfer(n(0), n(1));
    case 'read-index':
      return env.readIndex(n(0), args[1] ?? '');
    case 'compact':
      return env.compact(n(0), n(1));
    case 'restart':
      return env.restart(n(0));
    case 'report-snapshot':
      env.members.get(n(0))!.node.reportSnapshot(n(1), args[2] !== 'fail');
      return [];
    case 'report-unreachable':
      env.members.get(n(0))!.node.reportUnreachable(n(1));
      return [];
    case 'status':
      return args.flatMap((_, k) => env.status(n(k)));
    case 'log':
      return args.flatMap((_, k) => env.log(n(k)));
    case 'check':
      return env.check(n(0), kv);
    default:
      throw new Error(`unknown command ${name}`);
  }
}
