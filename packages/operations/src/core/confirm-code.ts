/**
 * CONFIRM_REQUIRED as `ServiceError` takes it. Every other code is a plain string; this one is
 * branded, and only core/confirm.ts may import this file (dependency-cruiser: only-confirm-step),
 * so the 409 always comes from `confirmStep`, with the summary and its parts.
 */
declare const confirmStepOnly: unique symbol;
export type ConfirmCode = 'CONFIRM_REQUIRED' & { readonly [confirmStepOnly]: true };
export const CONFIRM_CODE = 'CONFIRM_REQUIRED' as ConfirmCode;
