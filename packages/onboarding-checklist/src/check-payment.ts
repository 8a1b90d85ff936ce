import type { Context } from './context.js';
import { optionalItem } from './item.js';
import { isSet, nameOf } from './text.js';
import type { ChecklistItem } from './types.js';

/**
 * Gateway or payout, never both. In South Africa: a PayFast merchant id (`connect_gateway`), optional
 * before submitting. Elsewhere, and while the country is unknown: a payout preference (a method and
 * a note, never bank details), optional too.
 */
export function checkPayment({ data, country }: Context): ChecklistItem {
  if (country === 'ZA') {
    const gateway = data.gateway;
    if (gateway && gateway.kind === 'PAYFAST' && isSet(gateway.merchantId)) {
      return optionalItem(
        'gateway',
        'DONE',
        [],
        'connect_gateway',
        `PayFast merchant ${nameOf(gateway.merchantId, '')} is connected.`,
      );
    }
    return optionalItem(
      'gateway',
      'OPTIONAL',
      ['a PayFast merchant id, for card payments (optional: the application can be submitted without it)'],
      'connect_gateway',
      'South Africa only, and only the merchant id: never a key or a passphrase.',
    );
  }
  const preference = data.payoutPreference;
  if (preference && isSet(preference.method)) {
    // The note is the person's own words and may hold what must never be repeated (an account
    // number): it is kept, not echoed.
    return optionalItem(
      'payout',
      'DONE',
      [],
      'start_business_signup',
      `Paid by ${nameOf(preference.method, '')}${isSet(preference.note) ? ', with a note for the operator' : ''}.`,
    );
  }
  return optionalItem(
    'payout',
    'OPTIONAL',
    ['how the business would like to be paid: a method and a note (optional; never bank details)'],
    'start_business_signup',
    country === null ? 'In South Africa a PayFast merchant id takes its place.' : null,
  );
}
