import { describe, expect, it } from 'vitest';
import { WeftError, type StatusCode } from '../../src/common/errors.js';
import { CypherError } from '../../src/query/errors.js';
import { errorFromStatus, errorJson, grpc_codes, http_statuses, reasonError, reasons, statusDetails, toWireError } from '../../src/api/error-catalog.js';

describe('error catalog', () => {
  it('maps each status to the standard transcoding HTTP status', () => {
    const expected: Record<StatusCode, number> = {
      INVALID_ARGUMENT: 400, FAILED_PRECONDITION: 400, OUT_OF_RANGE: 400, NOT_FOUND: 404, ALREADY_EXISTS: 409, ABORTED: 409,
      RESOURCE_EXHAUSTED: 429, UNIMPLEMENTED: 501, UNAVAILABLE: 503, DEADLINE_EXCEEDED: 504, UNAUTHENTICATED: 401,
      PERMISSION_DENIED: 403, CANCELLED: 499, INTERNAL: 500, UNKNOWN: 500, DATA_LOSS: 500,
    };
    for (const [code, status] of Object.entries(expected) as [StatusCode, number][]) {
      expect(toWireError(new WeftError(code, 'x')).http_status, code).toBe(status);
      expect(http_statuses[code]).toBe(status);
    }
  });

  it('the SPEC section 7 reasons carry the codes SPEC gives them', () => {
    expect(reasons.OPERATION_SETTLED.code).toBe('FAILED_PRECONDITION');
    expect(reasons.FOREIGN_OPERATION.code).toBe('INVALID_ARGUMENT');
    expect(reasons.MEMBER_READ_ONLY.code).toBe('FAILED_PRECONDITION');
    expect(reasons.REVISION_MISMATCH.code).toBe('ABORTED');
    expect(reasons.EXCEEDS_MEMORY_BUDGET.code).toBe('RESOURCE_EXHAUSTED');
    const e = reasonError('REVISION_MISMATCH', 'node 5 moved', { expected_version: '10', current_version: '12' });
    expect(errorJson(toWireError(e))).toEqual({
      code: 'ABORTED', message: 'node 5 moved', reason: 'REVISION_MISMATCH', metadata: { expected_version: '10', current_version: '12' },
    });
  });

  it('grpc-status-details-bin carries the reason and metadata and decodes back to the same WeftError', () => {
    const sent = reasonError('MEMBER_READ_ONLY', 'member is read-only', { behind: 'true', leader_id: '2' });
    const wire = toWireError(sent);
    const back = errorFromStatus(wire.grpc_code, 'ignored', statusDetails(wire));
    expect([back.code, back.message, back.reason, back.metadata]).toEqual(['FAILED_PRECONDITION', 'member is read-only', 'MEMBER_READ_ONLY', { behind: 'true', leader_id: '2' }]);
    expect(grpc_codes[back.code]).toBe(9);
  });

  it('details that do not decode still leave the code and message', () => {
    const back = errorFromStatus(5, 'gone', new Uint8Array([0xff, 0xff]));
    expect([back.code, back.message, back.reason]).toEqual(['NOT_FOUND', 'gone', '']);
  });

  it('a Cypher error keeps its TCK type as reason, phase and detail as metadata', () => {
    const wire = toWireError(new CypherError('SyntaxError', 'compile time', 'UnexpectedSyntax', 'bad token'));
    expect([wire.code, wire.http_status, wire.reason, wire.metadata]).toEqual(['INVALID_ARGUMENT', 400, 'SyntaxError', { phase: 'compile time', detail: 'UnexpectedSyntax' }]);
  });

  it('anything else thrown is INTERNAL with a logged error id and no detail of the fault', () => {
    const logged: [string, unknown][] = [];
    const fault = new TypeError('secret internals');
    const wire = toWireError(fault, (id, f) => logged.push([id, f]));
    expect(wire.code).toBe('INTERNAL');
    expect(wire.http_status).toBe(500);
    expect(logged).toEqual([[wire.metadata['error_id'], fault]]);
    expect(wire.message).not.toContain('secret');
  });

  it('an oversized message is 413 over HTTP though RESOURCE_EXHAUSTED, so clients do not retry it as a rate limit', () => {
    expect(toWireError(reasonError('MESSAGE_TOO_LARGE', 'big', { limit_bytes: '1' })).http_status).toBe(413);
    expect(toWireError(reasonError('EXCEEDS_MEMORY_BUDGET', 'big')).http_status).toBe(429);
  });
});
