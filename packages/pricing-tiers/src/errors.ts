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

/** What a refusal concerns: the pet (by name) and the service, when there is one. */
export interface PricingErrorDetails {
  pet?: string;
  serviceId?: string;
  [key: string]: unknown;
}

/**
 * A request the pricing rules refuse. `code` is stable; `message` is a sentence for a person,
 * naming the pet and the service.
 *
 * @example
 * try { quote(input) } catch (e) { if (e instanceof PricingError && e.code === 'NO_PRIMARY') ... }
 */
export class PricingError extends Error {
  readonly code: PricingErrorCode;
  readonly details: PricingErrorDetails;

  constructor(code: PricingErrorCode, message: string, details: PricingErrorDetails = {}) {
    super(message);
    this.name = 'PricingError';
    this.code = code;
    this.details = details;
  }
}
