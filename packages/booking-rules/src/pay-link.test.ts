import { describe, expect, it } from 'vitest';
import { PAY_LINK_HOURS } from './constants.js';
import { payLink } from './pay-link.js';
import { aBooking, at, HOUR, START } from './test-utils.js';
import type { BookingState } from './types.js';

describe('payLink', () => {
  it('keeps links valid for 48 hours', () => {
    expect(PAY_LINK_HOURS).toBe(48);
  });

  it('gives an unpaid card booking a link for 48 hours, holding the time as long when the start is further off', () => {
    const now = at(START, -72 * HOUR);
    expect(payLink(aBooking(), now)).toEqual({
      ok: true,
      expiresAt: at(now, 48 * HOUR),
      holdUntil: at(now, 48 * HOUR),
    });
  });

  it('holds the time only until the start when the booking begins before the link expires', () => {
    const now = at(START, -10 * HOUR);
    expect(payLink(aBooking(), now)).toEqual({ ok: true, expiresAt: at(now, 48 * HOUR), holdUntil: START });
  });

  it('ends the hold at the expiry, which is also the start, when both fall together', () => {
    const now = at(START, -48 * HOUR);
    expect(payLink(aBooking(), now)).toEqual({ ok: true, expiresAt: START, holdUntil: START });
  });

  it('gives an accepted, unpaid card booking a link too', () => {
    expect(payLink(aBooking({ status: 'ACCEPTED' }), at(START, -72 * HOUR)).ok).toBe(true);
  });

  it('gives a fresh link each time, from that moment', () => {
    const first = payLink(aBooking(), at(START, -100 * HOUR));
    const later = payLink(aBooking(), at(START, -90 * HOUR));
    expect(first.ok && later.ok && later.expiresAt.getTime() - first.expiresAt.getTime()).toBe(10 * HOUR);
  });

  it('counts 48 elapsed hours over a DST change elsewhere (instants, no wall clock)', () => {
    const now = new Date('2026-03-28T12:00:00Z'); // London moves its clocks the next night
    const outcome = payLink(
      aBooking({ start: new Date('2026-04-10T08:00:00Z'), end: new Date('2026-04-10T09:00:00Z') }),
      now,
    );
    expect(outcome.ok && outcome.expiresAt.toISOString()).toBe('2026-03-30T12:00:00.000Z');
  });

  it('leaves the booking alone and shares no Date with it', () => {
    const booking = aBooking();
    const before = structuredClone(booking);
    const now = at(START, -HOUR);
    const outcome = payLink(booking, now);
    expect(booking).toEqual(before);
    expect(outcome.ok && outcome.holdUntil).not.toBe(booking.start);
    expect(outcome.ok && outcome.expiresAt).not.toBe(now);
  });

  it.each<[string, Partial<BookingState>, RegExp]>([
    ['paid', { status: 'ACCEPTED', paymentStatus: 'PAID' }, /already paid/],
    ['paid and then moved (PENDING again)', { status: 'PENDING', paymentStatus: 'PAID' }, /already paid/],
    [
      'cancelled with a refund under way',
      { status: 'CANCELLED', paymentStatus: 'REFUND_REQUESTED' },
      /refund is under way \(5 to 7 working days\)/,
    ],
    ['cancelled and refunded', { status: 'CANCELLED', paymentStatus: 'REFUNDED' }, /has been refunded/],
    ['paid in cash', { paymentMethod: 'CASH', paymentStatus: 'CASH_DUE' }, /cash booking.*no payment link/],
    [
      'paid in cash and accepted',
      { status: 'ACCEPTED', paymentMethod: 'CASH', paymentStatus: 'CASH_DUE' },
      /cash booking/,
    ],
    ['expired (the hold lapsed)', { status: 'EXPIRED', paymentStatus: 'VOID' }, /expired.*book again/],
    [
      'cancelled before it was paid',
      { status: 'CANCELLED', paymentStatus: 'VOID' },
      /cancelled.*nothing to pay/,
    ],
    ['done without a card payment', { status: 'DONE', paymentStatus: 'PENDING' }, /done.*nothing to pay/],
  ])('answers NOTHING_TO_PAY for a booking %s, saying why and what to do next', (_, overrides, message) => {
    const outcome = payLink(aBooking(overrides), at(START, -72 * HOUR));
    expect(outcome).toMatchObject({ ok: false, code: 'NOTHING_TO_PAY' });
    expect(outcome.ok ? '' : outcome.message).toMatch(message);
    // An assistant passes this on: it must say what follows, not only the state.
    expect(outcome.ok ? '' : outcome.message).toMatch(/\b(tell the person|book again)\b/i);
  });
  it('refuses a link once the start has come: the unpaid hold lapsed there', () => {
    const booking = aBooking({
      start: new Date('2026-04-10T08:00:00Z'),
      end: new Date('2026-04-10T09:00:00Z'),
    });
    const atStart = payLink(booking, new Date('2026-04-10T08:00:00Z'));
    expect(atStart).toMatchObject({
      ok: false,
      code: 'NOTHING_TO_PAY',
      message: expect.stringMatching(/started/),
    });
    expect(payLink(booking, new Date('2026-04-10T07:59:59.999Z')).ok).toBe(true);
  });
});
