import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { payLink } from './pay-link.js';
import { payLinkExpiresAt } from './pay-link-expires-at.js';

describe('payLinkExpiresAt', () => {
  it('is 48 hours after the link is made', () => {
    expect(payLinkExpiresAt(new Date('2026-05-01T08:00:00Z')).toISOString()).toBe('2026-05-03T08:00:00.000Z');
  });

  it('is the expiry payLink gives a payable booking', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 * 365 * 24 }), (hours) => {
        const now = new Date(Date.UTC(2026, 0, 1) + hours * 3_600_000);
        const start = new Date(now.getTime() + 72 * 3_600_000);
        const link = payLink(
          {
            status: 'PENDING',
            paymentStatus: 'PENDING',
            paymentMethod: 'CARD',
            start,
            end: new Date(start.getTime() + 3_600_000),
          },
          now,
        );
        expect(link.ok && link.expiresAt.getTime()).toBe(payLinkExpiresAt(now).getTime());
      }),
    );
  });
});
