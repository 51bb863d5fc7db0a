import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ENGINE_FORMAT } from '../../src/log/engine-format.js';
import { DataDir } from '../../src/server/data-dir.js';
import { runningPair } from '../../src/server/version/running-pair.js';

const dirs: string[] = [];
function fresh(): string {
  const d = mkdtempSync(join(tmpdir(), 'weft-format-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function formatOf(dir: string): string {
  return readFileSync(join(dir, 'ENGINE_FORMAT'), 'utf8').trim();
}

describe('ENGINE_FORMAT of a data directory (SPEC 9.6, 9.7)', () => {
  it('a new directory records the format of the release that created it', () => {
    const dir = fresh();
    DataDir.open(dir).release();
    expect(formatOf(dir)).toBe(String(ENGINE_FORMAT));
    DataDir.open(dir).release();
  });

  it('an upgrade: the next release takes over its predecessor directory, after which the older release refuses it', () => {
    const dir = fresh();
    DataDir.open(dir, 1).release();
    DataDir.open(dir, 2).release();
    expect(formatOf(dir)).toBe('2');
    expect(() => DataDir.open(dir, 1)).toThrow(expect.objectContaining({ reason: 'ENGINE_FORMAT_MISMATCH', metadata: { directory_engine_format: '2', engine_format: '1' } }));
  });

  it('a directory of a newer format is refused by name and left untouched', () => {
    const dir = fresh();
    mkdirSync(join(dir, 'log'));
    writeFileSync(join(dir, 'ENGINE_FORMAT'), '2\n');
    const before = readdirSync(dir).sort();
    expect(() => DataDir.open(dir, 1)).toThrow(/has engine format 2; this release opens only format 1\. It was written by a newer release/);
    expect(readdirSync(dir).sort()).toEqual(before);
    expect(formatOf(dir)).toBe('2');
  });

  it('a format older than the predecessor, or one that is not a number, is refused', () => {
    const dir = fresh();
    writeFileSync(join(dir, 'ENGINE_FORMAT'), '1\n');
    expect(() => DataDir.open(dir, 3)).toThrow(expect.objectContaining({ reason: 'ENGINE_FORMAT_MISMATCH' }));
    writeFileSync(join(dir, 'ENGINE_FORMAT'), 'x\n');
    expect(() => DataDir.open(dir, 1)).toThrow(expect.objectContaining({ reason: 'ENGINE_FORMAT_MISMATCH' }));
    expect(existsSync(join(dir, 'LOCK'))).toBe(false);
  });

  it('a directory holding data without ENGINE_FORMAT is refused and left without one', () => {
    const dir = fresh();
    mkdirSync(join(dir, 'checkpoints'));
    expect(() => DataDir.open(dir)).toThrow(expect.objectContaining({ reason: 'ENGINE_FORMAT_MISSING' }));
    expect(existsSync(join(dir, 'ENGINE_FORMAT'))).toBe(false);
  });
});

describe('engine_format_override (test only)', () => {
  it('is refused unless WEFT_TEST_FORMATS=1', () => {
    expect(() => runningPair({ engine_format_override: 2 }, {})).toThrow(/test-only setting/);
    expect(runningPair({ engine_format_override: 2 }, { WEFT_TEST_FORMATS: '1' })).toEqual({ engine: 2, host_epoch: 0 });
    expect(runningPair({ engine_format_override: 0 }, {})).toEqual({ engine: ENGINE_FORMAT, host_epoch: 0 });
  });
});
