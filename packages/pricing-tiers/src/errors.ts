export type PricingErrorCode =
  | 'NO_PETS'
  | 'UNKNOWN_SERVICE'
  | 'WRONG_LINE'
  | 'WRONG_PET_TYPE'
  | 'NO_PRIMARY'
  | 'TOO_MANY_PRIMARY'
  | 'DUPLICATE_SERVICE'
  | 'MIXED_GROUP_WALK'
  | 'GROUP_TOO_LARGE'
  | 'UNKNOWN_CURRENCY';

/** A request the rules refuse; `details` names the pet and the service concerned. */
export class PricingError extends Error {
  readonly code: PricingErrorCode;
  readonly details: { pet?: string; serviceId?: string; [key: string]: unknown };

  constructor(code: PricingErrorCode, message: string, details: PricingError['details'] = {}) {
    super(message);
    this.name = 'PricingError';
    this.code = code;
    this.details = details;
  }
}
