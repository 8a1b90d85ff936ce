import { describe, expect, it } from 'vitest';
import { BOOKING_STATUSES, PAYMENT_STATUSES } from './constants.js';
import { isActive } from './is-active.js';
import { aBooking } from './test-utils.js';
import type { BookingStatus } from './types.js';

describe('isActive', () => {
  it.each<[BookingStatus, boolean]>([
    ['PENDING', true],
    ['ACCEPTED', true],
    ['CANCELLED', false],
    ['EXPIRED', false],
    ['DONE', false],
  ])('is %s → %s', (status, active) => {
    expect(isActive(aBooking({ status }))).toBe(active);
  });

  it('covers every status, active ones listed first', () => {
    expect(BOOKING_STATUSES.map((status) => isActive(aBooking({ status })))).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  it('depends on the status alone, not on the payment or the method', () => {
    for (const status of BOOKING_STATUSES) {
      const answers = new Set(
        PAYMENT_STATUSES.flatMap((paymentStatus) =>
          (['CARD', 'CASH'] as const).map((paymentMethod) =>
            isActive(aBooking({ status, paymentStatus, paymentMethod })),
          ),
        ),
      );
      expect(answers.size).toBe(1);
    }
  });
});
