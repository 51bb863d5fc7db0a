import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatTrace, parseTrace, runTrace } from './harness/script.js';

// Golden traces: each file is a script of commands with the exact output expected under each.
// RAFT_REWRITE=1 npx vitest run test/raft regenerates the outputs (review the diff before committing).
const dir = join(import.meta.dirname, 'traces');
const rewrite = process.env.RAFT_REWRITE === '1';

describe('raft interaction traces', () => {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.txt'))
    .sort();
  it('has at least 30 scenarios', () => {
    expect(files.length).toBeGreaterThanOrEqual(30);
  });
  for (const file of files) {
    it(file.replace(/\.txt$/, ''), () => {
      const path = join(dir, file);
      const text = readFileSync(path, 'utf8');
      const blocks = parseTrace(text);
      const outputs = runTrace(blocks);
      const actual = formatTrace(blocks.map((b, k) => ({ comments: b.comments, command: b.command, output: outputs[k]! })));
      if (rewrite) writeFileSync(path, actual);
      else expect(actual).toBe(text);
    });
  }
});
