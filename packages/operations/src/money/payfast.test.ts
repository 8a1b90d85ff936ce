import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { formPairs } from './gateway.js';
import {
  checkoutSignature,
  createPayFastGateway,
  itnParamString,
  PAYFAST_HOSTS,
  PAYFAST_SOURCES,
  type PayFastOptions,
  payfastSettingProblems,
  payfastText,
  phpUrlencode,
} from './payfast.js';

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
    expect(checkoutSignature({ ...fields, cycles: '' }, 'payfastsandbox')).not.toBe(
      '3441682c5d8a65486f5b7cc8ce41d146',
    );
  });

  it("encodes like PHP's urlencode", () => {
    expect(phpUrlencode("Groom & bath: Rex's (small) ~dog*!")).toBe(
      'Groom+%26+bath%3A+Rex%27s+%28small%29+%7Edog%2A%21',
    );
  });

  it('signs the ITN string in the order received, empty values included, and stops at the signature', () => {
    const pairs = formPairs(
      'm_payment_id=pay_1&pf_payment_id=99&item_description=&amount_gross=450.00&signature=abc&extra=1',
    );
    expect(itnParamString(pairs)).toBe(
      'm_payment_id=pay_1&pf_payment_id=99&item_description=&amount_gross=450.00',
    );
  });

  it('refuses a notification with a bad signature, from elsewhere, or unconfirmed, before trusting anything in it', async () => {
    let validated = 0;
    const gateway = createPayFastGateway({
      merchantId: '10000100',
      merchantKey: '46f0cd694581a',
      passphrase: 'jt7NOE43FZPn',
      baseUrl: 'https://sandbox.payfast.co.za',
      allowedSources: ['197.97.145.144/28'],
      lookup: async () => [],
      fetch: (async () => {
        validated++;
        return new Response('INVALID');
      }) as typeof fetch,
    });
    const params =
      'm_payment_id=pay_1&pf_payment_id=99&payment_status=COMPLETE&amount_gross=450.00&merchant_id=10000100';
    const signature = createHash('md5').update(`${params}&passphrase=jt7NOE43FZPn`).digest('hex');
    expect(
      await gateway.verify(`${params}&signature=${'0'.repeat(32)}`, { ip: '197.97.145.145' }),
    ).toMatchObject({ ok: false, reason: 'bad signature' });
    expect(await gateway.verify(`${params}&signature=${signature}`, { ip: '10.0.0.1' })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/not from PayFast/),
    });
    expect(validated).toBe(0);
    expect(
      await gateway.verify(`${params}&signature=${signature}`, { ip: '::ffff:197.97.145.150' }),
    ).toMatchObject({ ok: false, reason: 'PayFast did not confirm it' });
    expect(validated).toBe(1);
  });

  it('builds the checkout form in documented order with its signature', () => {
    const gateway = createPayFastGateway({
      merchantId: '10000100',
      merchantKey: '46f0cd694581a',
      baseUrl: 'https://sandbox.payfast.co.za',
      allowedSources: [],
      lookup: async () => [],
    });
    const checkout = gateway.checkout({
      paymentId: 'pay_1',
      amountCents: 45000,
      currency: 'ZAR',
      itemName: 'Groom',
      returnUrl: 'https://x/r',
      cancelUrl: 'https://x/c',
      notifyUrl: 'https://x/n',
    });
    expect(checkout.kind).toBe('form');
    if (checkout.kind !== 'form') return;
    expect(checkout.action).toBe('https://sandbox.payfast.co.za/eng/process');
    expect(checkout.fields.map(([k]) => k)).toEqual([
      'merchant_id',
      'merchant_key',
      'return_url',
      'cancel_url',
      'notify_url',
      'm_payment_id',
      'amount',
      'item_name',
      'signature',
    ]);
    expect(checkout.fields.find(([k]) => k === 'amount')?.[1]).toBe('450.00');
  });
});

const PASSPHRASE = 'jt7NOE43FZPn';
const md5 = (s: string) => createHash('md5').update(s).digest('hex');
const ITN =
  'm_payment_id=pay_1&pf_payment_id=99&payment_status=COMPLETE&amount_gross=450.00&merchant_id=10000100';
const signedItn = (params = ITN, passphrase: string | null = PASSPHRASE) =>
  `${params}&signature=${md5(passphrase ? `${params}&passphrase=${passphrase}` : params)}`;
const valid = (async () => new Response('VALID')) as typeof fetch;
const aGateway = (o: Partial<PayFastOptions> = {}) =>
  createPayFastGateway({
    merchantId: '10000100',
    merchantKey: '46f0cd694581a',
    passphrase: PASSPHRASE,
    baseUrl: 'https://sandbox.payfast.co.za',
    allowedSources: [],
    lookup: async () => [],
    fetch: valid,
    ...o,
  });

describe('PayFast ITN source', () => {
  it("accepts what PayFast's hosts resolve to, looking them up once while fresh", async () => {
    const asked: string[] = [];
    const gateway = aGateway({
      lookup: async (host) => {
        asked.push(host);
        return host === 'w2w.payfast.co.za' ? ['203.0.113.7'] : ['198.51.100.1'];
      },
    });
    expect(await gateway.verify(signedItn(), { ip: '203.0.113.7' })).toMatchObject({
      ok: true,
      outcome: 'COMPLETE',
      amountCents: 45000,
    });
    expect(await gateway.verify(signedItn(), { ip: '::ffff:198.51.100.1' })).toMatchObject({ ok: true });
    expect(await gateway.verify(signedItn(), { ip: '203.0.113.8' })).toMatchObject({
      ok: false,
      reason: 'not from PayFast (203.0.113.8)',
      signed: true,
      claimed: 'COMPLETE',
    });
    expect(asked.sort()).toEqual([...PAYFAST_HOSTS].sort());
  });

  it('falls back to the configured ranges when the look-up fails or hangs, and never throws', async () => {
    const failing = aGateway({
      allowedSources: ['197.97.145.144/28'],
      lookup: async () => Promise.reject(new Error('ENOTFOUND')),
    });
    expect(await failing.verify(signedItn(), { ip: '197.97.145.150' })).toMatchObject({ ok: true });
    expect(await failing.verify(signedItn(), { ip: '10.0.0.1' })).toMatchObject({
      ok: false,
      reason: 'not from PayFast (10.0.0.1)',
    });
    const throwing = aGateway({
      lookup: () => {
        throw new Error('resolver broke');
      },
    });
    expect(await throwing.verify(signedItn(), { ip: '10.0.0.1' })).toMatchObject({
      ok: false,
      reason: 'not from PayFast (10.0.0.1)',
    });
  });

  it("by default takes PayFast's published ranges and nothing else", async () => {
    const gateway = aGateway({ allowedSources: PAYFAST_SOURCES });
    for (const ip of [
      '197.97.145.145',
      '41.74.179.200',
      '102.216.36.5',
      '102.216.36.130',
      '144.126.193.139',
    ]) {
      expect(await gateway.verify(signedItn(), { ip }), ip).toMatchObject({ ok: true });
    }
    for (const ip of ['197.97.145.160', '144.126.193.140', '127.0.0.1', 'not-an-ip', '']) {
      expect(await gateway.verify(signedItn(), { ip }), ip).toMatchObject({
        ok: false,
        reason: expect.stringMatching(/^not from PayFast/),
      });
    }
  });
});

describe('PayFast ITN checks', () => {
  it('refuses a 32-character signature holding non-ASCII as a bad signature (it does not throw)', async () => {
    const gateway = aGateway();
    const odd = `${ITN}&signature=${encodeURIComponent(`é${'0'.repeat(31)}`)}`;
    expect(await gateway.verify(odd, { ip: '127.0.0.1' })).toMatchObject({
      ok: false,
      reason: 'bad signature',
      signed: false,
    });
  });

  it('gives up on a confirmation call that does not answer in time, keeping what the ITN claims', async () => {
    const hanging = ((_url: string, init: RequestInit) =>
      new Promise((_, reject) =>
        init.signal?.addEventListener('abort', () => reject(init.signal?.reason)),
      )) as unknown as typeof fetch;
    const gateway = aGateway({ allowedSources: ['127.0.0.1/32'], fetch: hanging, validateTimeoutMs: 50 });
    expect(await gateway.verify(signedItn(), { ip: '127.0.0.1' })).toMatchObject({
      ok: false,
      reason: 'PayFast could not confirm it (validate timed out)',
      signed: true,
      claimed: 'COMPLETE',
      paymentId: 'pay_1',
      gatewayRef: '99',
      amountCents: 45000,
    });
  });

  it('checks an ITN signed without a passphrase when none is set (and only then)', async () => {
    const none = aGateway({ passphrase: undefined, allowedSources: ['127.0.0.1/32'] });
    expect(await none.verify(signedItn(ITN, null), { ip: '127.0.0.1' })).toMatchObject({ ok: true });
    expect(await none.verify(signedItn(), { ip: '127.0.0.1' })).toMatchObject({
      ok: false,
      reason: 'bad signature',
    });
    expect(
      await aGateway({ allowedSources: ['127.0.0.1/32'] }).verify(signedItn(ITN, null), { ip: '127.0.0.1' }),
    ).toMatchObject({ ok: false, reason: 'bad signature' });
  });

  it('refuses another merchant, keeping the refusal signed', async () => {
    const gateway = aGateway({ allowedSources: ['127.0.0.1/32'] });
    const other = ITN.replace('merchant_id=10000100', 'merchant_id=10000101');
    expect(await gateway.verify(signedItn(other), { ip: '127.0.0.1' })).toMatchObject({
      ok: false,
      reason: 'another merchant (10000101)',
      signed: true,
      claimed: 'COMPLETE',
    });
  });
});

describe('payfastText', () => {
  it('cuts by characters, never splitting an emoji, and drops what PayFast refuses', () => {
    const name = `${'a'.repeat(99)}🐶 and more`;
    expect(name.slice(0, 100)).toMatch(/\uD83D$/); // the old cut: half an emoji
    const cut = payfastText(name, 100);
    expect(cut).toBe(`${'a'.repeat(99)} and more`.slice(0, 100).trim());
    expect(() => encodeURIComponent(cut)).not.toThrow();
    expect(payfastText("Rex 🐶 O'Brien-Smith: Bath & brush (small), 1/2 ❤️ ✂ Zoë\u200b\u0007 ", 100)).toBe(
      "Rex O'Brien-Smith: Bath & brush (small), 1/2 Zoë",
    );
    expect(Array.from(payfastText('é'.repeat(150), 100))).toHaveLength(100);
  });

  it('makes a checkout whose item_name can be signed', () => {
    const gateway = aGateway();
    const checkout = gateway.checkout({
      paymentId: 'pay_1',
      amountCents: 45000,
      currency: 'ZAR',
      itemName: `NogPets: ${'x'.repeat(90)}🐶🐶`,
      returnUrl: 'https://x/r',
      cancelUrl: 'https://x/c',
      notifyUrl: 'https://x/n',
    });
    if (checkout.kind !== 'form') throw new Error('form expected');
    expect(checkout.fields.find(([k]) => k === 'item_name')?.[1]).toBe(`NogPets: ${'x'.repeat(90)}`);
  });
});

describe('payfastSettingProblems', () => {
  it.each([
    [{ baseUrl: 'https://sandbox.payfast.co.za', merchantId: '10000100', merchantKey: '46f0cd694581a' }, []],
    [{ baseUrl: 'http://127.0.0.1:4000', merchantId: '10000100', merchantKey: '46f0cd694581a' }, []],
    [
      {
        baseUrl: 'https://www.payfast.co.za',
        merchantId: '1234567',
        merchantKey: 'k',
        publicUrl: 'https://pets.example',
      },
      [],
    ],
    [{ baseUrl: 'http://sandbox.payfast.co.za' }, [expect.stringMatching(/^PAYFAST_URL: must be https/)]],
    [
      {
        baseUrl: 'https://www.payfast.co.za',
        merchantId: '10000100',
        merchantKey: '46f0cd694581a',
        publicUrl: 'https://pets.example',
      },
      [expect.stringMatching(/^PAYFAST_MERCHANT_ID: PayFast's sandbox merchant/)],
    ],
    [
      {
        baseUrl: 'https://www.payfast.co.za',
        merchantId: '1234567',
        merchantKey: 'k',
        publicUrl: 'http://pets.example',
      },
      [expect.stringMatching(/^PUBLIC_URL: live PayFast payments need/)],
    ],
    [
      { baseUrl: 'https://www.payfast.co.za', merchantId: '1234567', merchantKey: 'k' },
      [expect.stringMatching(/^PUBLIC_URL: .* it is unset$/)],
    ],
  ])('%o → %o', (settings, problems) => {
    expect(payfastSettingProblems(settings)).toEqual(problems);
  });
});
