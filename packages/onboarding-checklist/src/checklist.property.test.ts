// Properties of the whole checklist over generated applications, tidy and untidy alike.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checklist } from './checklist.js';
import { REQUIRED_ITEM_IDS, SIGNUP_TOOLS } from './constants.js';
import { anApplication } from './test-utils.js';
import type { ApplicationData, Category, ChecklistStatus, Week } from './types.js';

const CATEGORIES: Category[] = ['grooming', 'walking', 'sitting'];

const text = (known: string[]) =>
  fc.option(fc.oneof(fc.constantFrom(...known), fc.string({ maxLength: 12 })), { nil: null });

const week: fc.Arbitrary<Week> = fc.record(
  {
    mon: fc.array(fc.record({ start: fc.constant('09:00'), end: fc.constant('17:00') }), { maxLength: 2 }),
    wed: fc.array(fc.record({ start: fc.constant('08:00'), end: fc.constant('12:00') }), { maxLength: 2 }),
    sat: fc.array(fc.record({ start: fc.constant('10:00'), end: fc.constant('14:00') }), { maxLength: 1 }),
  },
  { requiredKeys: [] },
);

const application: fc.Arbitrary<ApplicationData> = fc.record(
  {
    businessName: text(['Paws', 'Dr. Paws & Co.', '  ']),
    town: text(['Lisbon', 'Tokyo', 'Stellenbosch']),
    country: text(['ZA', 'PT', 'JP', 'US', 'BR', 'NL', 'PA', 'XK', 'pt', 'XX']),
    phone: text([
      '+351 912 345 678',
      '+81 3-1234-5678',
      '+27 21 123 4567',
      '+1 555 555 5555',
      '082 123 4567',
    ]),
    currency: text(['EUR', 'ZAR', 'JPY', 'usd', 'RAND']),
    timezone: text(['Europe/Lisbon', 'Asia/Tokyo', 'Africa/Johannesburg', 'US/Pacific', 'Lisbon']),
    categories: fc.option(fc.array(fc.constantFrom(...CATEGORIES), { maxLength: 4 }), { nil: null }),
    mode: fc.option(fc.constantFrom('MOBILE', 'SALON', 'BOTH'), { nil: null }),
    staff: fc.option(fc.integer({ min: 0, max: 500 }), { nil: null }),
    services: fc.option(
      fc.array(
        fc.record(
          {
            id: fc.string({ maxLength: 4 }),
            category: fc.constantFrom(...CATEGORIES),
            kind: fc.constantFrom('PRIMARY', 'EXTRA'),
            name: fc.oneof(
              fc.constantFrom('Dog bath', 'Walk. Long', 'Nails!\nand more'),
              fc.string({ maxLength: 20 }),
            ),
            priceCents: fc.option(fc.oneof(fc.integer({ min: 0, max: 1_000_000 }), fc.double()), {
              nil: null,
            }),
            durationMin: fc.integer({ min: 5, max: 600 }),
            needsPrice: fc.boolean(),
            fromTemplate: fc.boolean(),
          },
          { requiredKeys: ['id', 'category', 'kind', 'name', 'priceCents', 'durationMin'] },
        ),
        { maxLength: 6 },
      ),
      { nil: null },
    ),
    area: fc.option(
      fc.array(
        fc.record({ name: fc.string({ maxLength: 20 }), status: fc.constantFrom('PENDING', 'APPROVED') }),
        {
          maxLength: 3,
        },
      ),
      { nil: null },
    ),
    resources: fc.option(
      fc.array(
        fc.record({
          id: fc.string({ maxLength: 4 }),
          kind: fc.constantFrom('VAN', 'WALKER', 'SITTER'),
          name: fc.string({ maxLength: 12 }),
          week: fc.option(week, { nil: null }),
        }),
        { maxLength: 4 },
      ),
      { nil: null },
    ),
    businessHours: fc.option(week, { nil: null }),
    staffInvites: fc.option(
      fc.array(fc.record({ email: fc.constant('x@example.com'), role: fc.constantFrom('manager', 'crew') }), {
        maxLength: 3,
      }),
      { nil: null },
    ),
    gateway: fc.option(
      fc.record({ kind: fc.constant('PAYFAST'), merchantId: fc.string({ maxLength: 10 }) }),
      {
        nil: null,
      },
    ),
    payoutPreference: fc.option(
      fc.record({
        method: fc.string({ maxLength: 10 }),
        note: fc.option(fc.string({ maxLength: 10 }), { nil: null }),
      }),
      { nil: null },
    ),
    claimListingId: fc.option(fc.string({ maxLength: 8 }), { nil: null }),
    possibleListingsCount: fc.option(fc.oneof(fc.nat(5), fc.double()), { nil: null }),
    listingsDeclined: fc.option(fc.boolean(), { nil: null }),
  },
  { requiredKeys: [] },
);

// Mostly complete applications with one or two things knocked out: they reach every status.
const nearlyReady: fc.Arbitrary<ApplicationData> = fc
  .tuple(
    application,
    fc.subarray(['country', 'phone', 'services', 'area', 'resources', 'businessHours', 'categories']),
  )
  .map(([generated, keep]) => {
    const base = anApplication() as Record<string, unknown>;
    for (const key of keep) base[key] = (generated as Record<string, unknown>)[key] ?? null;
    return base as ApplicationData;
  });

const anyApplication = fc.oneof(application, nearlyReady);

describe('checklist, for any application', () => {
  it('is tried on applications that reach every status of every item, and both answers of readyToSubmit', () => {
    const seen = new Set<string>();
    for (const data of fc.sample(anyApplication, { numRuns: 2000, seed: 42 })) {
      const list = checklist(data);
      seen.add(`ready ${list.readyToSubmit}`);
      for (const item of list.items) seen.add(`${item.id} ${item.status}`);
    }
    expect([...seen].sort()).toEqual([
      'area DONE',
      'area MISSING',
      'details DONE',
      'details MISSING',
      'details NEEDS_ATTENTION',
      'gateway DONE',
      'gateway OPTIONAL',
      'listing DONE',
      'listing NEEDS_ATTENTION',
      'payout DONE',
      'payout OPTIONAL',
      'ready false',
      'ready true',
      'resources DONE',
      'resources MISSING',
      'resources NEEDS_ATTENTION',
      'services DONE',
      'services MISSING',
      'services NEEDS_ATTENTION',
      'staff DONE',
      'staff OPTIONAL',
    ]);
  });

  it('never throws, gives seven items in order, and gateway or payout, never both', () => {
    fc.assert(
      fc.property(anyApplication, (data) => {
        const ids = checklist(data).items.map((i) => i.id);
        expect(ids).toHaveLength(7);
        expect([
          ['details', 'services', 'area', 'resources', 'gateway', 'staff', 'listing'],
          ['details', 'services', 'area', 'resources', 'payout', 'staff', 'listing'],
        ]).toContainEqual(ids);
      }),
      { numRuns: 400 },
    );
  });

  it('is readyToSubmit exactly when no required item is MISSING or NEEDS_ATTENTION', () => {
    fc.assert(
      fc.property(anyApplication, (data) => {
        const { items, readyToSubmit } = checklist(data);
        const blocked = items.some(
          (i) => i.required && (i.status === 'MISSING' || i.status === 'NEEDS_ATTENTION'),
        );
        expect(readyToSubmit).toBe(!blocked);
        expect(items.filter((i) => i.required).map((i) => i.id)).toEqual(REQUIRED_ITEM_IDS);
      }),
      { numRuns: 400 },
    );
  });

  it('gives every item not DONE at least one plain line of what is missing, and a sign-up tool', () => {
    fc.assert(
      fc.property(anyApplication, (data) => {
        for (const item of checklist(data).items) {
          expect(SIGNUP_TOOLS).toContain(item.fixWith);
          const allowed: ChecklistStatus[] = item.required
            ? ['DONE', 'MISSING', 'NEEDS_ATTENTION']
            : ['DONE', 'OPTIONAL', 'NEEDS_ATTENTION'];
          expect(allowed).toContain(item.status);
          if (item.status === 'DONE') {
            expect(item.missing).toEqual([]);
          } else {
            expect(item.missing.length).toBeGreaterThan(0);
          }
          for (const line of item.missing) {
            expect(line).toMatch(/^[a-z]/); // a phrase to put after "Ask the person for"
            expect(line).not.toMatch(/\n/);
            expect(line).not.toMatch(/[.!?](\s|$)/);
          }
        }
      }),
      { numRuns: 400 },
    );
  });

  it('says next in one sentence, naming the first blocking item’s tool, or submit when ready', () => {
    fc.assert(
      fc.property(anyApplication, (data) => {
        const { items, readyToSubmit, next } = checklist(data);
        expect(next).toMatch(/^[A-Z]/);
        expect(next).not.toMatch(/\n/);
        expect(next.match(/[.!?](\s|$)/g)).toEqual(['.']);
        const blocking = items.find((i) => i.required && i.status !== 'DONE');
        if (readyToSubmit) {
          expect(next).toContain('submit_business_for_review');
        } else {
          expect(next).toContain(`then call ${blocking?.fixWith}`);
          expect(next).toContain(blocking?.missing[0]);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('never changes the application it is given, and answers the same twice', () => {
    fc.assert(
      fc.property(anyApplication, (data) => {
        const before = structuredClone(data);
        const first = checklist(data);
        expect(data).toEqual(before);
        expect(checklist(data)).toEqual(first);
      }),
      { numRuns: 300 },
    );
  });
});
