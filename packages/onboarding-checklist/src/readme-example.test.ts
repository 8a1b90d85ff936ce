// The README's example, run: its printed lines are the ones the README shows. (`pnpm pack-check`
// runs the README's own text against the packed package; this copy checks the printed lines.)
import assert from 'node:assert/strict';
import { expect, it } from 'vitest';
import { checklist, defaultsFor } from './index.js';

it('prints what the README says', () => {
  const lines: string[] = [];
  const console = { log: (...parts: unknown[]) => lines.push(parts.map(String).join(' ')) };

  // --- README example starts ---
  const defaults = defaultsFor({ phone: '+351 912 345 678' });
  assert.deepEqual([defaults.country, defaults.currency, defaults.timezone], ['PT', 'EUR', null]);
  assert.deepEqual(defaults.timezoneChoices, ['Atlantic/Azores', 'Atlantic/Madeira', 'Europe/Lisbon']);
  console.log(defaults.reasons.timezone);

  const list = checklist({
    businessName: 'Banho & Tosa Lisboa',
    phone: '+351 912 345 678',
    town: 'Lisbon',
    categories: ['grooming'],
    mode: 'MOBILE',
    services: [
      {
        id: 's1',
        category: 'grooming',
        kind: 'PRIMARY',
        name: 'Full groom',
        priceCents: null,
        durationMin: 90,
        needsPrice: true,
      },
      { id: 's2', category: 'grooming', kind: 'EXTRA', name: 'Nail clip', priceCents: 800, durationMin: 15 },
    ],
    area: [{ name: 'Lisbon 1000-1200', status: 'PENDING' }],
    resources: [{ id: 'van-1', kind: 'VAN', name: 'Van 1', week: null }],
    businessHours: null,
    possibleListingsCount: 1,
  });
  for (const item of list.items) {
    console.log(
      item.status.padEnd(15),
      item.id.padEnd(9),
      item.fixWith.padEnd(21),
      item.missing.join('; ') || item.note,
    );
  }
  assert.deepEqual(
    list.items.map((item) => [item.id, item.status]),
    [
      ['details', 'MISSING'],
      ['services', 'NEEDS_ATTENTION'],
      ['area', 'DONE'],
      ['resources', 'MISSING'],
      ['payout', 'OPTIONAL'],
      ['staff', 'OPTIONAL'],
      ['listing', 'NEEDS_ATTENTION'],
    ],
  );
  assert.equal(list.readyToSubmit, false);
  assert.equal(
    list.next,
    'Ask the person for the time zone the business keeps: Portugal (PT) has 3 (Atlantic/Azores, Atlantic/Madeira or Europe/Lisbon), then call start_business_signup.',
  );
  // --- README example ends ---

  expect(lines).toEqual([
    'Portugal (PT) has 3 time zones (Atlantic/Azores, Atlantic/Madeira or Europe/Lisbon): the person says which the business keeps.',
    'MISSING         details   start_business_signup the time zone the business keeps: Portugal (PT) has 3 (Atlantic/Azores, Atlantic/Madeira or Europe/Lisbon)',
    'NEEDS_ATTENTION services  add_business_services a price for Full groom (EUR)',
    'DONE            area      set_service_area      Proposed: Lisbon 1000-1200; it waits for the operator, who approves areas when reviewing the application.',
    'MISSING         resources set_operating_hours   working hours for Van 1: business hours for all, or a week for each',
    'OPTIONAL        payout    start_business_signup how the business would like to be paid: a method and a note (optional; never bank details)',
    'OPTIONAL        staff     invite_staff          staff to invite (optional): each by email or phone, as manager or crew',
    'NEEDS_ATTENTION listing   start_business_signup an answer about the directory listing that may be this business: claim it, or say it is not theirs',
  ]);
});
