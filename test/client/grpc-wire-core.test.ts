import { describe, expect, it } from 'vitest';
import { WeftError } from '../../src/common/errors.js';
import { authorityOf, defaultClientHttp2Engine } from '../../src/common/grpc/channel.js';
import { percentDecode, statusName, statusOfHttp, statusOfReset } from '../../src/common/grpc/status.js';
import { grpcTimeoutHeader, parseGrpcTimeoutMs } from '../../src/common/grpc/timeout.js';

describe('the transport-independent core of a gRPC call', () => {
  it('a deadline becomes grpc-timeout rounded up, and the server reads back at least as long', () => {
    expect(grpcTimeoutHeader(1500)).toBe('1500m');
    expect(grpcTimeoutHeader(0.2)).toBe('1m');
    expect(grpcTimeoutHeader(12.1)).toBe('13m');
    expect(grpcTimeoutHeader(99_999_999)).toBe('99999999m');
    expect(grpcTimeoutHeader(100_000_000)).toBe('100000S');
    expect(grpcTimeoutHeader(1e15)).toBe('99999999H');
    for (const ms of [1, 7.5, 999, 86_400_000, 99_999_999, 100_000_001, 3e11]) {
      expect(parseGrpcTimeoutMs(grpcTimeoutHeader(ms))!).toBeGreaterThanOrEqual(ms);
    }
    expect(parseGrpcTimeoutMs('123456789m')).toBeUndefined();
    expect(parseGrpcTimeoutMs('5x')).toBeUndefined();
  });

  it('grpc-message is percent-decoded as UTF-8; a stray % is kept', () => {
    expect(percentDecode('plain text')).toBe('plain text');
    expect(percentDecode('%C2%AB%E2%88%85%C2%BB 100%25')).toBe('«∅» 100%');
    expect(percentDecode('50% off %zz %4')).toBe('50% off %zz %4');
  });

  it('status numbers, HTTP statuses and reset codes map to the codes the protocol gives them', () => {
    expect(statusName(5)).toBe('NOT_FOUND');
    expect(statusName(0)).toBe('UNKNOWN');
    expect(statusName(99)).toBe('UNKNOWN');
    expect([400, 401, 403, 404, 429, 502, 503, 504, 500].map(statusOfHttp)).toEqual([
      'INTERNAL', 'UNAUTHENTICATED', 'PERMISSION_DENIED', 'UNIMPLEMENTED', 'UNAVAILABLE', 'UNAVAILABLE', 'UNAVAILABLE', 'UNAVAILABLE', 'UNKNOWN',
    ]);
    expect([0x0, 0x1, 0x7, 0x8, 0xb, 0xc].map(statusOfReset)).toEqual(['INTERNAL', 'INTERNAL', 'UNAVAILABLE', 'CANCELLED', 'RESOURCE_EXHAUSTED', 'PERMISSION_DENIED']);
  });

  it('addresses: host:port in the forms gRPC clients accept; TLS and malformed ones are refused', () => {
    expect(authorityOf('127.0.0.1:7080')).toBe('127.0.0.1:7080');
    expect(authorityOf('[::1]:7080')).toBe('[::1]:7080');
    expect(authorityOf('dns:///db.example:7080')).toBe('db.example:7080');
    expect(authorityOf('http://localhost:7080/')).toBe('localhost:7080');
    expect(authorityOf('https://db.example:7080')).toBe('db.example:7080');
    expect(() => authorityOf('localhost')).toThrow(/host:port/);
  });

  it("the HTTP/2 engine: Weft's own unless WEFT_GRPC_CLIENT_HTTP2_ENGINE names node; another name is refused", () => {
    const before = process.env['WEFT_GRPC_CLIENT_HTTP2_ENGINE'];
    try {
      delete process.env['WEFT_GRPC_CLIENT_HTTP2_ENGINE'];
      expect(defaultClientHttp2Engine()).toBe('weft');
      process.env['WEFT_GRPC_CLIENT_HTTP2_ENGINE'] = 'NODE';
      expect(defaultClientHttp2Engine()).toBe('node');
      process.env['WEFT_GRPC_CLIENT_HTTP2_ENGINE'] = 'grpc-js';
      expect(() => defaultClientHttp2Engine()).toThrow(/weft or node/);
    } finally {
      if (before === undefined) delete process.env['WEFT_GRPC_CLIENT_HTTP2_ENGINE'];
      else process.env['WEFT_GRPC_CLIENT_HTTP2_ENGINE'] = before;
    }
  });
});
