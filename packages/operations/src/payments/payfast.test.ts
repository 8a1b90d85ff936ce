import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { formPairs } from './gateway.js';
import { checkoutSignature, createPayFastGateway, itnParamString, phpUrlencode } from './payfast.js';

describe('PayFast signatures', () => {
  it('matches the SDK test vector (documented order, cycles=0 kept, passphrase last)', () => {
    const fields = {
      // Given out of order on purpose: the signature follows PayFast's order, not the object's.
      amount: '5.00',
      merchant_id: '10028084',
      merchant_key: '4hjoenwbwnuso',
      return_url: 'https://test.com/billing/success',
      cancel_url: 'https://test.com/billing/cancel',
      notify_url: 'https://test.com/payfast/webhook',
      name_first: 'Test',
      name_last: 'Test',
      email_address: 'test@test.com',
      m_payment_id: '5',
      item_name: 'Test',
      custom_int1: '1',
      custom_int2: '1',
      custom_str1: 'U29tZSBUZXN0IFN0cmluZw',
      custom_str2: 'QW5vdGhlciBUZXN0IFN0cmluZw',
      email_confirmation: '1',
      confirmation_address: 'test@test.test',
      subscription_type: '1',
      billing_date: '2023-01-01',
      recurring_amount: '5',
      frequency: '3',
      cycles: '0',
    };
    expect(checkoutSignature(fields, 'payfastsandbox')).toBe('3441682c5d8a65486f5b7cc8ce41d146');
    expect(checkoutSignature({ ...fields, cycles: '' }, 'payfastsandbox')).not.toBe('3441682c5d8a65486f5b7cc8ce41d146');
  });

  it("encodes like PHP's urlencode", () => {
    expect(phpUrlencode("Groom & bath: Rex's (small) ~dog*!")).toBe('Groom+%26+bath%3A+Rex%27s+%28small%29+%7Edog%2A%21');
  });

  it('signs the ITN string in the order received, empty values included, and stops at the signature', () => {
    const pairs = formPairs('m_payment_id=pay_1&pf_payment_id=99&item_description=&amount_gross=450.00&signature=abc&extra=1');
    expect(itnParamString(pairs)).toBe('m_payment_id=pay_1&pf_payment_id=99&item_description=&amount_gross=450.00');
  });

  it('refuses a notification with a bad signature, from elsewhere, or unconfirmed, before trusting anything in it', async () => {
    let validated = 0;
    const gateway = createPayFastGateway({
      merchantId: '10000100',
      merchantKey: '46f0cd694581a',
      passphrase: 'jt7NOE43FZPn',
      baseUrl: 'https://sandbox.payfast.co.za',
      allowedSources: ['197.97.145.144/28'],
      fetch: (async () => {
        validated++;
        return new Response('INVALID');
      }) as typeof fetch,
    });
    const params = 'm_payment_id=pay_1&pf_payment_id=99&payment_status=COMPLETE&amount_gross=450.00&merchant_id=10000100';
    const signature = createHash('md5').update(`${params}&passphrase=jt7NOE43FZPn`).digest('hex');
    expect(await gateway.verify(`${params}&signature=${'0'.repeat(32)}`, { ip: '197.97.145.145' })).toMatchObject({ ok: false, reason: 'bad signature' });
    expect(await gateway.verify(`${params}&signature=${signature}`, { ip: '10.0.0.1' })).toMatchObject({ ok: false, reason: expect.stringMatching(/not from PayFast/) });
    expect(validated).toBe(0);
    expect(await gateway.verify(`${params}&signature=${signature}`, { ip: '::ffff:197.97.145.150' })).toMatchObject({ ok: false, reason: 'PayFast did not confirm it' });
    expect(validated).toBe(1);
  });

  it('builds the checkout form in documented order with its signature', () => {
    const gateway = createPayFastGateway({ merchantId: '10000100', merchantKey: '46f0cd694581a', baseUrl: 'https://sandbox.payfast.co.za', allowedSources: [] });
    const checkout = gateway.checkout({ paymentId: 'pay_1', amountCents: 45000, currency: 'ZAR', itemName: 'Groom', returnUrl: 'https://x/r', cancelUrl: 'https://x/c', notifyUrl: 'https://x/n' });
    expect(checkout.kind).toBe('form');
    if (checkout.kind !== 'form') return;
    expect(checkout.action).toBe('https://sandbox.payfast.co.za/eng/process');
    expect(checkout.fields.map(([k]) => k)).toEqual(['merchant_id', 'merchant_key', 'return_url', 'cancel_url', 'notify_url', 'm_payment_id', 'amount', 'item_name', 'signature']);
    expect(checkout.fields.find(([k]) => k === 'amount')?.[1]).toBe('450.00');
  });
});
