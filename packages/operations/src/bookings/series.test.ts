import { describe, expect, it } from 'vitest';
import { fullyBookedMessage } from './series.js';

describe('rule 8 message for fully booked weeks', () => {
  it('names the fully booked dates only, in words to pass on', () => {
    const skipped = [
      { date: '2026-12-16', reason: 'CLOSED_DAY', message: 'closed' },
      { date: '2026-12-23', reason: 'FULLY_BOOKED', message: 'full' },
    ];
    expect(fullyBookedMessage(skipped)).toBe(
      'The walk on 2026-12-23 is fully booked, so it was not booked. NogPets has noted it and will be in touch if a place opens.',
    );
    expect(
      fullyBookedMessage([...skipped, { date: '2026-12-30', reason: 'FULLY_BOOKED', message: 'full' }]),
    ).toMatch(/^The walks on 2026-12-23, 2026-12-30 are fully booked, so they were not booked\./);
  });
});
