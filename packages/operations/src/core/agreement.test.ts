import { describe, expect, it } from 'vitest';
import { agreementOfCall, type ConfirmationFacts, confirmationPageState } from './agreement.js';

const NOW = new Date('2026-11-23T04:00:00Z');
const SUMMARY =
  'Book mobile grooming for Rex at Home, Wed, 25 Nov 2026, 08:00 to 09:00. R380 in cash to the crew on the day.';

/** A confirmation of Pat's, open for ten minutes from NOW. */
function aConfirmation(over: Partial<ConfirmationFacts> = {}): ConfirmationFacts {
  return {
    id: 'cfm_1',
    userId: 'usr_pat',
    status: 'pending',
    summary: SUMMARY,
    expiresAt: new Date(NOW.getTime() + 10 * 60_000),
    usedAt: null,
    ...over,
  };
}

describe('agreementOfCall', () => {
  it.each([
    ['no confirmation yet', null, 'ask'],
    ['confirmed, unused, in time, the same summary', aConfirmation({ status: 'confirmed' }), 'agreed'],
    ['still open on the page', aConfirmation(), 'waiting'],
    ['refused', aConfirmation({ status: 'refused' }), 'refused'],
    ['refused, even when expired', aConfirmation({ status: 'refused', expiresAt: NOW }), 'refused'],
    ['confirmed but used already', aConfirmation({ status: 'confirmed', usedAt: NOW }), 'ask'],
    [
      'confirmed but expired (at the instant it ends)',
      aConfirmation({ status: 'confirmed', expiresAt: NOW }),
      'ask',
    ],
    ['open but expired', aConfirmation({ expiresAt: new Date(NOW.getTime() - 1) }), 'ask'],
  ] as const)('%s: %s', (_name, found, expected) => {
    expect(agreementOfCall(found, SUMMARY, NOW)).toBe(expected);
  });

  it('asks anew when what would happen now is not what the person confirmed (a price or a time changed)', () => {
    const found = aConfirmation({ status: 'confirmed' });
    expect(agreementOfCall(found, SUMMARY.replace('R380', 'R420'), NOW)).toBe('ask');
    expect(agreementOfCall(aConfirmation(), SUMMARY.replace('08:00', '09:00'), NOW)).toBe('ask');
  });
});

describe('confirmationPageState', () => {
  it.each([
    ['none', null, 'usr_pat', 'missing'],
    ["someone else's, whatever its state", aConfirmation({ status: 'confirmed' }), 'usr_sam', 'missing'],
    ['open', aConfirmation(), 'usr_pat', 'open'],
    [
      'open until the instant it expires',
      aConfirmation({ expiresAt: new Date(NOW.getTime() + 1) }),
      'usr_pat',
      'open',
    ],
    ['expired unanswered', aConfirmation({ expiresAt: NOW }), 'usr_pat', 'expired'],
    ['confirmed', aConfirmation({ status: 'confirmed' }), 'usr_pat', 'confirmed'],
    [
      'confirmed, not used in time',
      aConfirmation({ status: 'confirmed', expiresAt: NOW }),
      'usr_pat',
      'expired',
    ],
    [
      'confirmed and used',
      aConfirmation({ status: 'confirmed', usedAt: NOW, expiresAt: NOW }),
      'usr_pat',
      'used',
    ],
    ['refused', aConfirmation({ status: 'refused', expiresAt: NOW }), 'usr_pat', 'refused'],
  ] as const)('%s: %s', (_name, row, viewer, expected) => {
    expect(confirmationPageState(row, viewer, NOW)).toBe(expected);
  });
});
