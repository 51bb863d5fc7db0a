import { WeftError } from '../common/errors.js';

/**
 * A Cypher failure, classified the way the openCypher TCK names them: an error type, the phase it is
 * raised in, and a detail code. The API answers it as INVALID_ARGUMENT (or the code given) with the
 * type as `reason` and `phase` and `detail` in metadata, so clients and the TCK runner can read all three.
 */
export type CypherErrorType =
  | 'SyntaxError'
  | 'SemanticError'
  | 'TypeError'
  | 'ArgumentError'
  | 'ArithmeticError'
  | 'EntityNotFound'
  | 'ProcedureError'
  | 'ParameterMissing'
  | 'ConstraintValidationFailed'
  | 'ConstraintVerificationFailed'
  | 'PropertyNotFound'
  | 'LabelNotFound'
  /** LOAD CSV could not read its source (Neo4j's Neo.ClientError.Statement.ExternalResourceFailed). */
  | 'ExternalResourceFailed';

export type CypherErrorPhase = 'compile time' | 'runtime';

export class CypherError extends WeftError {
  constructor(
    readonly type: CypherErrorType,
    readonly phase: CypherErrorPhase,
    readonly detail: string,
    message: string,
    code: 'INVALID_ARGUMENT' | 'FAILED_PRECONDITION' | 'NOT_FOUND' = 'INVALID_ARGUMENT',
  ) {
    super(code, message, type, { phase, detail });
  }
}

export const syntaxError = (detail: string, message: string): CypherError =>
  new CypherError('SyntaxError', 'compile time', detail, message);
export const semanticError = (detail: string, message: string): CypherError =>
  new CypherError('SemanticError', 'compile time', detail, message);
export const compileTypeError = (detail: string, message: string): CypherError =>
  new CypherError('TypeError', 'compile time', detail, message);
export const runtimeTypeError = (detail: string, message: string): CypherError =>
  new CypherError('TypeError', 'runtime', detail, message);
export const argumentError = (detail: string, message: string): CypherError =>
  new CypherError('ArgumentError', 'runtime', detail, message);
export const arithmeticError = (detail: string, message: string): CypherError =>
  new CypherError('ArithmeticError', 'runtime', detail, message);
