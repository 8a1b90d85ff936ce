import { describe, expect, it } from 'vitest';
import { checklist, stillNeeded } from './checklist.js';
import { anApplication, aResource, aService, WEEKDAYS_9_TO_5 } from './test-utils.js';
import type { ApplicationData, ChecklistItem, ChecklistItemId } from './types.js';

function item(data: ApplicationData, id: ChecklistItemId): ChecklistItem {
  const found = checklist(data).items.find((i) => i.id === id);
  if (!found) throw new Error(`no ${id} item`);
  return found;
}

describe('checklist', () => {
  it('is ready for a Stellenbosch groomer with everything required, and says to submit', () => {
    const list = checklist(anApplication());
    expect(list.items.map((i) => [i.id, i.status])).toEqual([
      ['details', 'DONE'],
      ['services', 'DONE'],
      ['area', 'DONE'],
      ['resources', 'DONE'],
      ['gateway', 'OPTIONAL'],
      ['staff', 'OPTIONAL'],
      ['listing', 'DONE'],
    ]);
    expect(list.readyToSubmit).toBe(true);
    expect(list.next).toBe(
      'Everything needed is there: show the person the summary, and once they agree call submit_business_for_review with confirm: true.',
    );
  });

  describe('details', () => {
    it('needs the business name, the town and what the business offers', () => {
      const details = item(anApplication({ businessName: ' ', town: null, categories: [] }), 'details');
      expect(details).toMatchObject({ status: 'MISSING', fixWith: 'start_business_signup', required: true });
      expect(details.missing).toEqual([
        'the business name',
        'the town the business works in',
        'what the business offers: grooming, walking or sitting',
      ]);
    });

    it('takes the country from the phone when none is given, and says so', () => {
      const details = item(anApplication({ country: null, phone: '+27 21 123 4567' }), 'details');
      expect(details.status).toBe('DONE');
      expect(details.note).toBe(
        "South Africa (ZA) comes from the phone's calling code. The currency ZAR and the time zone Africa/Johannesburg follow from the country.",
      );
    });

    it('misses the country when neither it nor the phone tells it', () => {
      expect(item(anApplication({ country: null, phone: null }), 'details').missing).toEqual([
        'the country (a two-letter ISO code like PT), or a phone number with its country code',
        'the currency the prices are in (an ISO 4217 code like EUR; it follows from the country when the country has one)',
        'the time zone the business keeps (an IANA name like Europe/Lisbon; it follows from the country when the country has one)',
      ]);
      expect(item(anApplication({ country: null, phone: '+1 555 555 5555' }), 'details').missing[0]).toBe(
        'the country (a two-letter ISO code like PT): the phone does not tell it',
      );
    });

    it('needs attention for a country, currency or time zone given but not valid', () => {
      const details = item(
        anApplication({ country: 'ZA', currency: 'RAND', timezone: 'Johannesburg' }),
        'details',
      );
      expect(details.status).toBe('NEEDS_ATTENTION');
      expect(details.missing).toEqual([
        'an ISO 4217 currency code instead of "RAND" (like EUR)',
        'an IANA time zone instead of "Johannesburg" (like Europe/Lisbon)',
      ]);
      // Without a valid country, currency and time zone cannot be defaulted either: missing, so listed first.
      expect(item(anApplication({ country: 'Portugal' }), 'details').missing).toEqual([
        'the currency the prices are in (an ISO 4217 code like EUR; it follows from the country when the country has one)',
        'the time zone the business keeps (an IANA name like Europe/Lisbon; it follows from the country when the country has one)',
        'a two-letter ISO country code instead of "Portugal" (like PT or ZA)',
      ]);
    });

    it('is MISSING rather than NEEDS_ATTENTION when something is missing too, missing things first', () => {
      const details = item(anApplication({ businessName: null, currency: 'RAND' }), 'details');
      expect(details.status).toBe('MISSING');
      expect(details.missing).toEqual([
        'the business name',
        'an ISO 4217 currency code instead of "RAND" (like EUR)',
      ]);
    });

    it('names the choices when the country has a few zones, and counts them when it has many', () => {
      expect(item(anApplication({ country: 'ES', phone: null }), 'details').missing).toEqual([
        'the time zone the business keeps: Spain (ES) has 3 (Africa/Ceuta, Atlantic/Canary or Europe/Madrid)',
      ]);
      expect(item(anApplication({ country: 'US', phone: null }), 'details').missing).toEqual([
        "the time zone the business keeps: United States (US) has 29, so ask which city's clock it keeps (an IANA name, Area/City)",
      ]);
    });

    it('asks which currency where the country uses two', () => {
      expect(item(anApplication({ country: 'PA', phone: null }), 'details').missing).toEqual([
        'the currency the prices are in: Panama (PA) uses PAB or USD',
      ]);
    });

    it('accepts a time zone of another country, with a note to check it', () => {
      const details = item(anApplication({ timezone: 'Europe/Lisbon' }), 'details');
      expect(details.status).toBe('DONE');
      expect(details.note).toContain(
        'Europe/Lisbon is not a time zone of South Africa (ZA): check it is the one the business keeps.',
      );
    });
  });

  describe('services', () => {
    it('needs a main (PRIMARY) service in every line offered', () => {
      const services = item(
        anApplication({
          categories: ['grooming', 'walking'],
          services: [aService({ kind: 'EXTRA', name: 'Nail clip', priceCents: 8000 })],
        }),
        'services',
      );
      expect(services).toMatchObject({ status: 'MISSING', fixWith: 'add_business_services' });
      expect(services.missing).toEqual([
        'a main grooming service (one people book on its own, not an extra), with its price and duration',
        'a main walking service (one people book on its own, not an extra), with its price and duration',
      ]);
    });

    it('names each service that needs a price, in the business’s currency', () => {
      const services = item(
        anApplication({
          country: 'PT',
          timezone: 'Europe/Lisbon',
          services: [
            aService({ name: 'Dog bath', priceCents: null, needsPrice: true, fromTemplate: true }),
            aService({ id: 's2', name: 'Full groom', priceCents: 4500 }),
            aService({ id: 's3', kind: 'EXTRA', name: 'Teeth', priceCents: null }),
          ],
        }),
        'services',
      );
      expect(services.status).toBe('NEEDS_ATTENTION');
      expect(services.missing).toEqual(['a price for Dog bath (EUR)', 'a price for Teeth (EUR)']);
    });

    it('counts a needsPrice service as unpriced even when it carries a price', () => {
      expect(item(anApplication({ services: [aService({ needsPrice: true })] }), 'services').missing).toEqual(
        ['a price for Full groom (ZAR)'],
      );
    });

    it('is done with a priced main service per line; a price of 0 is a price', () => {
      const services = item(anApplication({ services: [aService({ priceCents: 0 })] }), 'services');
      expect(services).toMatchObject({ status: 'DONE', missing: [], note: '1 service: 1 main, 0 extras.' });
    });

    it('needs services when nothing is offered yet', () => {
      expect(item(anApplication({ categories: [], services: [] }), 'services').missing).toEqual([
        'the services the business offers, each with its price',
      ]);
    });
  });

  describe('area', () => {
    it('is missing without a proposed area', () => {
      for (const area of [null, []]) {
        expect(item(anApplication({ area }), 'area')).toMatchObject({
          status: 'MISSING',
          fixWith: 'set_service_area',
          missing: [
            'the area the business serves: a radius around an address, suburbs with their postal codes, or postal codes',
          ],
        });
      }
    });

    it('is done with a PENDING area, and says the operator approves it in review', () => {
      const area = item(anApplication(), 'area');
      expect(area.status).toBe('DONE');
      expect(area.note).toBe(
        'Proposed: 10 km around Stellenbosch; it waits for the operator, who approves areas when reviewing the application.',
      );
      expect(
        item(anApplication({ area: [{ name: 'Stellenbosch central', status: 'APPROVED' }] }), 'area').note,
      ).toBe('Approved: Stellenbosch central.');
    });

    it('does not count an area the operator rejected, and names it', () => {
      const rejected = item(
        anApplication({ area: [{ name: 'All of Cape Town', status: 'REJECTED' }] }),
        'area',
      );
      expect(rejected).toMatchObject({
        status: 'NEEDS_ATTENTION',
        fixWith: 'set_service_area',
        missing: ['another area: the operator did not approve All of Cape Town'],
      });
      expect(
        item(
          anApplication({
            area: [
              { name: 'All of Cape Town', status: 'REJECTED' },
              { name: 'Stellenbosch central', status: 'APPROVED' },
            ],
          }),
          'area',
        ),
      ).toMatchObject({ status: 'DONE', note: 'Approved: Stellenbosch central.' });
    });
  });

  describe('resources', () => {
    it('needs a resource of each offered line’s kind: VAN for grooming, WALKER for walking, SITTER for sitting', () => {
      const resources = item(
        anApplication({
          categories: ['grooming', 'walking', 'sitting'],
          mode: 'SALON',
          resources: [aResource({ kind: 'WALKER', name: 'Sam' })],
        }),
        'resources',
      );
      expect(resources).toMatchObject({ status: 'MISSING', fixWith: 'add_resources' });
      expect(resources.missing).toEqual(['a salon table for grooming', 'a sitter for sitting']);
    });

    it('says who works in plain words: by kind, never "resource" (a salon counts tables)', () => {
      const one = item(anApplication(), 'resources');
      expect(one.note).toBe('1 van: 1 on the business hours, 0 with their own week.');
      const several = item(
        anApplication({
          categories: ['grooming', 'walking'],
          mode: 'SALON',
          resources: [
            aResource(),
            aResource({ id: 'van-2', name: 'Table 2', week: WEEKDAYS_9_TO_5 }),
            aResource({ id: 'w-1', kind: 'WALKER', name: 'Sam' }),
          ],
        }),
        'resources',
      );
      expect(several.note).toBe('2 salon tables and 1 walker: 2 on the business hours, 1 with its own week.');
      expect(several.missing.join(' ')).not.toMatch(/resource|kind/i);
    });

    it('needs business hours for resources without a week of their own', () => {
      const resources = item(
        anApplication({
          resources: [aResource(), aResource({ id: 'van-2', name: 'Van 2', week: WEEKDAYS_9_TO_5 })],
          businessHours: null,
        }),
        'resources',
      );
      expect(resources).toMatchObject({
        status: 'MISSING',
        fixWith: 'set_operating_hours',
        missing: ['working hours for Van 1: business hours for all, or a week for each'],
      });
      expect(item(anApplication({ businessHours: {} }), 'resources').status).toBe('MISSING');
    });

    it('needs no business hours when every resource has its own week', () => {
      expect(
        item(
          anApplication({ resources: [aResource({ week: WEEKDAYS_9_TO_5 })], businessHours: null }),
          'resources',
        ).status,
      ).toBe('DONE');
    });

    it('needs attention for a resource whose own week has no working time', () => {
      expect(
        item(anApplication({ resources: [aResource({ week: { mon: [] } })] }), 'resources'),
      ).toMatchObject({
        status: 'NEEDS_ATTENTION',
        fixWith: 'set_operating_hours',
        missing: ['working hours for Van 1 (its own week has none)'],
      });
    });

    it('does not look at resources of a line not offered', () => {
      const resources = item(
        anApplication({
          resources: [aResource(), aResource({ id: 's', kind: 'SITTER', name: 'Zola', week: {} })],
        }),
        'resources',
      );
      expect(resources.status).toBe('DONE');
    });
  });

  describe('gateway or payout', () => {
    it('in South Africa: a PayFast merchant id, optional before submitting', () => {
      expect(item(anApplication(), 'gateway')).toMatchObject({
        status: 'OPTIONAL',
        required: false,
        fixWith: 'connect_gateway',
        missing: [
          'a PayFast merchant id, for card payments (optional: the application can be submitted without it)',
        ],
      });
      expect(
        item(anApplication({ gateway: { kind: 'PAYFAST', merchantId: '10000100' } }), 'gateway'),
      ).toMatchObject({ status: 'DONE', note: 'PayFast merchant 10000100 is connected.' });
    });

    it('elsewhere: a payout preference, optional and never bank details; never a gateway item', () => {
      const lisbon = checklist(anApplication({ country: 'PT', timezone: 'Europe/Lisbon' }));
      expect(lisbon.items.map((i) => i.id)).not.toContain('gateway');
      expect(lisbon.items.find((i) => i.id === 'payout')).toMatchObject({
        status: 'OPTIONAL',
        required: false,
        fixWith: 'start_business_signup',
        missing: [
          'how the business would like to be paid: a method and a note (optional; never bank details)',
        ],
      });
      expect(
        item(
          anApplication({ country: 'PT', payoutPreference: { method: 'Wise', note: 'monthly' } }),
          'payout',
        ),
      ).toMatchObject({ status: 'DONE', note: 'Paid by Wise, with a note for the operator.' });
      // The person's note is never echoed: it may hold what must not be repeated.
      const banked = item(
        anApplication({ country: 'PT', payoutPreference: { method: 'bank', note: 'IBAN PT50 0002 0123' } }),
        'payout',
      );
      expect(JSON.stringify(banked)).not.toContain('PT50');
    });
  });

  describe('staff', () => {
    it('is optional, and counts the people the business said it has', () => {
      expect(item(anApplication({ staff: 4 }), 'staff')).toMatchObject({
        status: 'OPTIONAL',
        required: false,
        fixWith: 'invite_staff',
        missing: [
          'the 4 people who work for the business to invite (optional): each by email or phone, as manager or crew',
        ],
      });
    });

    it('is done once someone is invited', () => {
      expect(
        item(
          anApplication({
            staffInvites: [
              { email: 'a@example.com', role: 'manager' },
              { phone: '+27 82 123 4567', role: 'crew' },
              { phone: '+27 82 123 4568', role: 'crew' },
            ],
          }),
          'staff',
        ),
      ).toMatchObject({
        status: 'DONE',
        note: '1 manager and 2 crew invited. Invitations take effect once the business is approved.',
      });
    });

    it('asks for a role it does not know instead of calling it crew', () => {
      expect(
        item(
          anApplication({
            staffInvites: [
              { email: 'a@example.com', role: 'manager' },
              { email: 'b@example.com', role: 'boss' as never },
            ],
          }),
          'staff',
        ),
      ).toMatchObject({ status: 'NEEDS_ATTENTION', missing: ['a role for 1 invitation: manager or crew'] });
    });
  });

  describe('listing', () => {
    it('needs attention, without stopping the application, when a listing may be this business', () => {
      const list = checklist(anApplication({ possibleListingsCount: 2 }));
      expect(list.items.find((i) => i.id === 'listing')).toMatchObject({
        status: 'NEEDS_ATTENTION',
        required: false,
        fixWith: 'start_business_signup',
        missing: [
          'an answer about the 2 directory listings that may be this business: claim the one that is, or say none is',
        ],
      });
      expect(list.readyToSubmit).toBe(true);
      expect(list.next).toBe(
        'Everything needed is there: ask the person for an answer about the 2 directory listings that may be this business: claim the one that is, or say none is (start_business_signup with claimListingId), then show the person the summary, and once they agree call submit_business_for_review with confirm: true.',
      );
    });

    it('is done once a listing is claimed or the person said none is theirs', () => {
      expect(
        item(anApplication({ possibleListingsCount: 1, claimListingId: 'dir_42' }), 'listing'),
      ).toMatchObject({
        status: 'DONE',
        note: 'Claims directory listing dir_42.',
      });
      expect(
        item(anApplication({ possibleListingsCount: 1, listingsDeclined: true }), 'listing').status,
      ).toBe('DONE');
    });
  });

  describe('readyToSubmit and next', () => {
    it('is not ready while a required item is not done; next asks for the first thing with its tool', () => {
      const list = checklist(anApplication({ area: null, services: [aService({ needsPrice: true })] }));
      expect(list.readyToSubmit).toBe(false);
      expect(list.next).toBe(
        'Ask the person for a price for Full groom (ZAR), then call add_business_services.',
      );
    });

    it('says how many more things the same item lists', () => {
      expect(checklist(anApplication({ businessName: null, town: null })).next).toBe(
        'Ask the person for the business name, then call start_business_signup (1 more thing is listed under Business details).',
      );
    });

    it('is ready whatever the optional items say', () => {
      const list = checklist(anApplication({ possibleListingsCount: 3, staff: 9, gateway: null }));
      expect(list.readyToSubmit).toBe(true);
    });
  });

  describe('five businesses', () => {
    it('a Lisbon groomer: PT and EUR from the phone; the zone is asked, then given', () => {
      const lisbon = anApplication({
        businessName: 'Banho & Tosa Lisboa',
        phone: '+351 912 345 678',
        country: null,
        town: 'Lisbon',
        services: [aService({ name: 'Dog bath', priceCents: 3500, durationMin: 60 })],
        area: [{ name: 'Lisbon 1000-1200', status: 'PENDING' }],
      });
      const asked = checklist(lisbon);
      expect(asked.readyToSubmit).toBe(false);
      expect(asked.next).toBe(
        'Ask the person for the time zone the business keeps: Portugal (PT) has 3 (Atlantic/Azores, Atlantic/Madeira or Europe/Lisbon), then call start_business_signup.',
      );
      const given = checklist({ ...lisbon, timezone: 'Europe/Lisbon' });
      expect(given.readyToSubmit).toBe(true);
      expect(given.items.map((i) => i.id)).toContain('payout');
      expect(given.items[0]!.note).toBe(
        "Portugal (PT) comes from the phone's calling code. The currency EUR follows from the country.",
      );
    });

    it('a Tokyo walker: JP, JPY and Asia/Tokyo all from the phone', () => {
      const tokyo = checklist(
        anApplication({
          businessName: 'Shibuya Walks',
          phone: '+81 3-1234-5678',
          country: null,
          town: 'Tokyo',
          categories: ['walking'],
          mode: null,
          services: [
            aService({ category: 'walking', name: 'Group walk', priceCents: 2500, durationMin: 60 }),
          ],
          resources: [aResource({ kind: 'WALKER', name: 'Yuki' })],
        }),
      );
      expect(tokyo.readyToSubmit).toBe(true);
      expect(tokyo.items[0]!.note).toBe(
        "Japan (JP) comes from the phone's calling code. The currency JPY and the time zone Asia/Tokyo follow from the country.",
      );
    });

    it('a Stellenbosch groomer: ZA, ZAR, Africa/Johannesburg and a PayFast item', () => {
      const list = checklist(anApplication());
      expect(list.readyToSubmit).toBe(true);
      expect(list.items.map((i) => i.id)).toEqual([
        'details',
        'services',
        'area',
        'resources',
        'gateway',
        'staff',
        'listing',
      ]);
    });

    it('a US business: USD, and the time zone reported missing', () => {
      const list = checklist(anApplication({ country: 'US', phone: '+1 212 555 0123', town: 'Brooklyn' }));
      expect(list.readyToSubmit).toBe(false);
      expect(list.items[0]).toMatchObject({
        status: 'MISSING',
        note: 'The currency USD follows from the country.',
      });
      expect(list.items[0]!.missing).toEqual([
        "the time zone the business keeps: United States (US) has 29, so ask which city's clock it keeps (an IANA name, Area/City)",
      ]);
      expect(checklist(anApplication({ country: 'US', timezone: 'America/New_York' })).readyToSubmit).toBe(
        true,
      );
    });

    it('a Brazilian business: BRL, and the time zone reported missing', () => {
      const list = checklist(anApplication({ country: 'BR', phone: '+55 11 91234-5678', town: 'São Paulo' }));
      expect(list.items[0]!.note).toBe('The currency BRL follows from the country.');
      expect(list.items[0]!.missing[0]).toMatch(/^the time zone the business keeps: Brazil \(BR\) has 16/);
      expect(list.readyToSubmit).toBe(false);
    });
  });

  it('starts from nothing: every required item missing, details first', () => {
    const list = checklist({});
    expect(list.items.map((i) => [i.id, i.status])).toEqual([
      ['details', 'MISSING'],
      ['services', 'MISSING'],
      ['area', 'MISSING'],
      ['resources', 'MISSING'],
      ['payout', 'OPTIONAL'],
      ['staff', 'OPTIONAL'],
      ['listing', 'DONE'],
    ]);
    expect(list.next).toBe(
      'Ask the person for the business name, then call start_business_signup (5 more things are listed under Business details).',
    );
  });
});

describe('stillNeeded', () => {
  it('keeps the required items not DONE, in order, and nothing once an application is ready', () => {
    const items = [
      { id: 'a', required: true, status: 'DONE' },
      { id: 'b', required: true, status: 'MISSING' },
      { id: 'c', required: false, status: 'MISSING' },
      { id: 'd', required: true, status: 'NEEDS_ATTENTION' },
    ] as const;
    expect(stillNeeded(items).map((i) => i.id)).toEqual(['b', 'd']);
    const list = checklist({});
    expect(stillNeeded(list.items).length > 0).toBe(!list.readyToSubmit);
  });
});
