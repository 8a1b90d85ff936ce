import { describe, expect, it } from 'vitest';
import { canPay } from './can-pay.js';
import { BOOKING_STATUSES, PAYMENT_STATUSES } from './constants.js';
import { aBooking } from './test-utils.js';
import type { PaymentMethod } from './types.js';

describe('canPay', () => {
  it('is true for an active card booking still waiting for payment', () => {
    expect(canPay(aBooking({ status: 'PENDING', paymentStatus: 'PENDING', paymentMethod: 'CARD' }))).toBe(
      true,
    );
    expect(canPay(aBooking({ status: 'ACCEPTED', paymentStatus: 'PENDING', paymentMethod: 'CARD' }))).toBe(
      true,
    );
  });

  it.each([
    ['paid', { paymentStatus: 'PAID' }],
    ['cash, due on the day', { paymentMethod: 'CASH', paymentStatus: 'CASH_DUE' }],
    ['cancelled and refunded', { status: 'CANCELLED', paymentStatus: 'REFUNDED' }],
    ['expired with its hold', { status: 'EXPIRED', paymentStatus: 'VOID' }],
    ['done but never paid', { status: 'DONE', paymentStatus: 'PENDING' }],
    ['cancelled, still marked PENDING', { status: 'CANCELLED', paymentStatus: 'PENDING' }],
  ] as const)('is false for a booking %s', (_, overrides) => {
    expect(canPay(aBooking(overrides))).toBe(false);
  });

  it('is true for exactly 2 of the 60 combinations of status, payment and method', () => {
    const yes: string[] = [];
    for (const status of BOOKING_STATUSES) {
      for (const paymentStatus of PAYMENT_STATUSES) {
        for (const paymentMethod of ['CARD', 'CASH'] as PaymentMethod[]) {
          if (canPay(aBooking({ status, paymentStatus, paymentMethod })))
            yes.push(`${status} ${paymentStatus} ${paymentMethod}`);
        }
      }
    }
    expect(yes).toEqual(['PENDING PENDING CARD', 'ACCEPTED PENDING CARD']);
  });
});
