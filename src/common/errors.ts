/**
 * The one error type every layer throws for an expected failure. It carries what the API's error
 * catalog (src/api) needs to answer it on every transport: a gRPC status name, an optional
 * machine-readable reason, and string metadata (sent as google.rpc.ErrorInfo).
 *
 * A failed `assert` is a bug, never a WeftError, and is never caught to be hidden.
 */
export type StatusCode =
  | 'CANCELLED'
  | 'UNKNOWN'
  | 'INVALID_ARGUMENT'
  | 'DEADLINE_EXCEEDED'
  | 'NOT_FOUND'
  | 'ALREADY_EXISTS'
  | 'PERMISSION_DENIED'
  | 'RESOURCE_EXHAUSTED'
  | 'FAILED_PRECONDITION'
  | 'ABORTED'
  | 'OUT_OF_RANGE'
  | 'UNIMPLEMENTED'
  | 'INTERNAL'
  | 'UNAVAILABLE'
  | 'DATA_LOSS'
  | 'UNAUTHENTICATED';

export class WeftError extends Error {
  override readonly name = 'WeftError';
  constructor(
    readonly code: StatusCode,
    message: string,
    readonly reason: string = '',
    readonly metadata: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

export function isWeftError(e: unknown): e is WeftError {
  return e instanceof WeftError;
}

export const invalidArgument = (message: string, reason = '', metadata: Record<string, string> = {}): WeftError =>
  new WeftError('INVALID_ARGUMENT', message, reason, metadata);
export const failedPrecondition = (message: string, reason = '', metadata: Record<string, string> = {}): WeftError =>
  new WeftError('FAILED_PRECONDITION', message, reason, metadata);
export const notFound = (message: string, reason = '', metadata: Record<string, string> = {}): WeftError =>
  new WeftError('NOT_FOUND', message, reason, metadata);
export const alreadyExists = (message: string, reason = '', metadata: Record<string, string> = {}): WeftError =>
  new WeftError('ALREADY_EXISTS', message, reason, metadata);
export const unavailable = (message: string, reason = '', metadata: Record<string, string> = {}): WeftError =>
  new WeftError('UNAVAILABLE', message, reason, metadata);
export const aborted = (message: string, reason = '', metadata: Record<string, string> = {}): WeftError =>
  new WeftError('ABORTED', message, reason, metadata);
export const resourceExhausted = (message: string, reason = '', metadata: Record<string, string> = {}): WeftError =>
  new WeftError('RESOURCE_EXHAUSTED', message, reason, metadata);
export const unimplemented = (message: string, reason = '', metadata: Record<string, string> = {}): WeftError =>
  new WeftError('UNIMPLEMENTED', message, reason, metadata);
export const deadlineExceeded = (message: string, reason = '', metadata: Record<string, string> = {}): WeftError =>
  new WeftError('DEADLINE_EXCEEDED', message, reason, metadata);
