/**
 * The one error type of the service. `code` is the stable string clients branch on; the spec's
 * codes are used as written (including `RateLimited`), the rest are ours (docs/decisions.md).
 */
import type { ConfirmCode } from './confirm-code.js';

export const ERROR_CODES = [
  'BAD_REQUEST',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RateLimited',
  'INTERNAL',
  'UNAVAILABLE',
  'NO_COVERAGE',
  'NO_AVAILABILITY',
  'SLOT_TAKEN',
  'CONFIRM_REQUIRED',
  'TOO_LATE',
  'NOTHING_TO_PAY',
  'SHOP_OFF',
  'UNKNOWN_PLACE',
  'NOT_AVAILABLE_IN_COUNTRY',
  'NOT_ACTIVE',
  'NOT_READY',
  'IDEMPOTENCY_KEY_REUSED',
  'REQUEST_IN_PROGRESS',
  'LAST_OWNER',
  'ALREADY_STAFF',
  'INVITATION_CLOSED',
  'OUT_OF_STOCK',
  'DISCOUNT_NOT_VALID',
  'CANNOT_DELIVER',
  'CASH_NOT_ALLOWED',
  'TOO_MANY_UNPAID_ORDERS',
  'CONFIRM_REFUSED',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * The codes any module may throw. CONFIRM_REQUIRED is not among them: only the confirm step
 * (core/confirm.ts: `confirmStep`) answers it, always with the summary the person agrees to.
 */
export type ThrownCode = Exclude<ErrorCode, 'CONFIRM_REQUIRED'> | ConfirmCode;

/** Default HTTP status of each code; an operation may say otherwise where the spec does. */
export const STATUS_OF: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RateLimited: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
  NO_COVERAGE: 409,
  NO_AVAILABILITY: 409,
  SLOT_TAKEN: 409,
  CONFIRM_REQUIRED: 409,
  TOO_LATE: 409,
  NOTHING_TO_PAY: 409,
  SHOP_OFF: 409,
  UNKNOWN_PLACE: 422,
  NOT_AVAILABLE_IN_COUNTRY: 409,
  NOT_ACTIVE: 409,
  NOT_READY: 409,
  IDEMPOTENCY_KEY_REUSED: 422,
  REQUEST_IN_PROGRESS: 409,
  LAST_OWNER: 409,
  ALREADY_STAFF: 409,
  INVITATION_CLOSED: 409,
  OUT_OF_STOCK: 409,
  DISCOUNT_NOT_VALID: 409,
  CANNOT_DELIVER: 409,
  CASH_NOT_ALLOWED: 409,
  TOO_MANY_UNPAID_ORDERS: 409,
  CONFIRM_REFUSED: 409,
};

export interface ErrorBody {
  error: { code: ErrorCode; message: string; details: Record<string, unknown> };
}

export class ServiceError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: Record<string, unknown>;

  constructor(code: ThrownCode, message: string, details: Record<string, unknown> = {}, status?: number) {
    super(message);
    this.name = 'ServiceError';
    this.code = code;
    this.details = details;
    this.status = status ?? STATUS_OF[this.code];
  }

  /**
   * An answer recorded before (an Idempotency-Key's), given again as it was. Not a way to make a
   * new answer: a new CONFIRM_REQUIRED comes from the confirm step only.
   */
  static replay(answer: ErrorBody, status: number): ServiceError {
    const { code, message, details } = answer.error;
    return Object.assign(new ServiceError('INTERNAL', message, details, status), { code });
  }

  toBody(): ErrorBody {
    return { error: { code: this.code, message: this.message, details: this.details } };
  }
}

/** Seconds a client is told to wait (`Retry-After`) when the database is away for a moment. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/**
 * Failures that mean "the database cannot be reached or answer just now", not "this request is
 * wrong": the client should retry. postgres.js's own codes, Node's socket errors, and SQLSTATEs of
 * class 08 (connection exception), 57P01-57P03 (shut down, crashed, not accepting connections yet),
 * 57014 (cancelled: statement_timeout), 53300 (too many connections), 40001/40P01 (serialization
 * failure, deadlock: the transaction was rolled back and may be retried).
 */
const TRANSIENT_CODES = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
  '57014',
  '53300',
  '40001',
  '40P01',
]);
/** node-postgres (pg-boss, the rate limiter's store) says it in words, without a code. */
const TRANSIENT_MESSAGE = /^(Connection terminated|timeout exceeded when trying to connect)/;

/** True when `err` (or an error it wraps) says the database is away or busy for a moment. */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 3) return false;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && (TRANSIENT_CODES.has(e.code) || e.code.startsWith('08'))) return true;
  if (typeof e.message === 'string' && TRANSIENT_MESSAGE.test(e.message)) return true;
  // Node's connection attempts to several addresses fail as one AggregateError.
  if (Array.isArray(e.errors) && e.errors.some((x) => isDatabaseUnavailable(x, depth + 1))) return true;
  return isDatabaseUnavailable(e.cause, depth + 1);
}

/** Anything thrown becomes a ServiceError; unknown failures never leak their text. */
export function toServiceError(err: unknown): ServiceError {
  if (err instanceof ServiceError) return err;
  if (isDatabaseUnavailable(err)) {
    return new ServiceError(
      'UNAVAILABLE',
      `The service is unavailable for a moment (its database is busy or cannot be reached). Please retry in ${DATABASE_RETRY_AFTER_SECONDS} seconds.`,
      { retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS },
    );
  }
  if (isDataException(err)) {
    // The last line of defence: every door checks text and numbers first (run.ts, text.ts), so
    // reaching this is a missed check to fix, but the person still gets a 400, not a 500.
    return new ServiceError(
      'BAD_REQUEST',
      'The request holds a value that cannot be stored (text or a number out of range). Check the values and try again.',
      {
        reason: 'unstorable_value',
      },
    );
  }
  return new ServiceError('INTERNAL', 'Something went wrong on our side. Please try again in a moment.');
}

/** PostgreSQL's class 22, "data exception": a value (NUL in text, a number out of range) it cannot take. */
function isDataException(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return (err as Error)?.name === 'PostgresError' && typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code);
}

/** The 400 of a request that names something the application does not have, or asks two contrary things. */
export function badRequest(fields: { field: string; message: string }[]): ServiceError {
  return new ServiceError(
    'BAD_REQUEST',
    `The request is not valid. ${fields.map((f) => `${f.field}: ${f.message}`).join('; ')}`,
    { fields },
  );
}
