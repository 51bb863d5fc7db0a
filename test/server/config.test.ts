import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { defaultConfig, loadConfig } from '../../src/server/config.js';

describe('server configuration', () => {
  it('every setting is documented in docs/configuration.md with its default', () => {
    const doc = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');
    for (const [key, value] of Object.entries(defaultConfig)) {
      const row = doc.split('\n').find((l) => l.startsWith(`| \`${key}\` |`));
      expect(row, key).toBeDefined();
      expect(row!.split('|')[2]!.trim().replaceAll('`', ''), key).toBe(String(value));
    }
  });

  it('file, environment and flags apply in that order', () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-config-'));
    try {
      const file = join(dir, 'weft.json');
      writeFileSync(file, JSON.stringify({ grpc_port: 1, rest_port: 2, ops_port: 3 }));
      const config = loadConfig(['--config', file, '--ops-port', '30'], { WEFT_REST_PORT: '20', WEFT_DATA_DIR: '/tmp/x' });
      expect([config.grpc_port, config.rest_port, config.ops_port, config.data_dir]).toEqual([1, 20, 30, '/tmp/x']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('bad settings are refused with the source named', () => {
    expect(() => loadConfig(['--grpc-port', 'abc'], {})).toThrow(/--grpc-port/);
    expect(() => loadConfig(['--grpc-port', '70000'], {})).toThrow(/\[0, 65535\]/);
    expect(() => loadConfig([], { WEFT_QUERY_MEMORY_LIMIT_MB: '0' })).toThrow(/WEFT_QUERY_MEMORY_LIMIT_MB/);
    expect(() => loadConfig(['--no-such-setting', '1'], {})).toThrow(/unknown setting/);
    expect(() => loadConfig(['--default-read-concern', 'sometimes'], {})).toThrow(/one of/);
    expect(loadConfig(['--default-read-concern', 'majority'], {}).default_read_concern).toBe('MAJORITY');
  });

  it('a setting an earlier release had starts this one with a warning, not an error', () => {
    const emitted = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const config = loadConfig(['--blob-chunk-syncs-in-flight-max', '8'], {});
      expect(config.blob_pack_bytes_max).toBe(256 * 1024 * 1024);
      expect(Object.keys(config)).not.toContain('blob_chunk_syncs_in_flight_max');
      expect(String(emitted.mock.calls[0]?.[0])).toContain("'blob_chunk_syncs_in_flight_max' is no longer used");
    } finally {
      emitted.mockRestore();
    }
  });
});
