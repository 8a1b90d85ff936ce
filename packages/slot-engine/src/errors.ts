export type SlotEngineErrorCode =
  | 'BAD_TIME_ZONE'
  | 'BAD_DATE'
  | 'BAD_RANGE'
  | 'RANGE_TOO_LONG'
  | 'RANGE_IN_PAST'
  | 'BAD_TIME'
  | 'BAD_DURATION'
  | 'TOO_MANY_RANGES';

/** Input the engine cannot work with; `code` says which rule. */
export class SlotEngineError extends Error {
  readonly code: SlotEngineErrorCode;
  readonly details: Record<string, unknown>;

  constructor(code: SlotEngineErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = 'SlotEngineError';
    this.code = code;
    this.details = details;
  }
}
