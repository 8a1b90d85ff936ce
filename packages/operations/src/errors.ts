/**
 * The one error type of the service. `code` is the stable string clients branch on; the spec's
 * codes are used as written (including `RateLimited`), the rest are ours (docs/decisions.md).
 */
export type ErrorCode =
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'PAYLOAD_TOO_LARGE'
  | 'RateLimited'
  | 'INTERNAL'
  | 'UNAVAILABLE'
  | 'NO_COVERAGE'
  | 'NO_AVAILABILITY'
  | 'SLOT_TAKEN'
  | 'CONFIRM_REQUIRED'
  | 'TOO_LATE'
  | 'NOTHING_TO_PAY'
  | 'SHOP_OFF'
  | 'UNKNOWN_PLACE'
  | 'NOT_AVAILABLE_IN_COUNTRY'
  | 'NOT_ACTIVE'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'REQUEST_IN_PROGRESS';

/** Default HTTP status of each code; an operation may say otherwise where the spec does. */
export const STATUS_OF: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
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
  IDEMPOTENCY_KEY_REUSED: 422,
  REQUEST_IN_PROGRESS: 409,
};

export interface ErrorBody {
  error: { code: ErrorCode; message: string; details: Record<string, unknown> };
}

export class ServiceError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, details: Record<string, unknown> = {}, status?: number) {
    super(message);
    this.name = 'ServiceError';
    this.code = code;
    this.details = details;
    this.status = status ?? STATUS_OF[code];
  }

  toBody(): ErrorBody {
    return { error: { code: this.code, message: this.message, details: this.details } };
  }
}

/** Anything thrown becomes a ServiceError; unknown failures never leak their text. */
export function toServiceError(err: unknown): ServiceError {
  if (err instanceof ServiceError) return err;
  return new ServiceError('INTERNAL', 'Something went wrong on our side. Please try again in a moment.');
}
