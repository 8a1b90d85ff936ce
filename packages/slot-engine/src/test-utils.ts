import type { FindSlotsInput, Resource } from './types.js';

const weekdays = { start: '08:00', end: '17:00' };

export function aResource(overrides: Partial<Resource> = {}): Resource {
  return {
    id: 'van-1',
    kind: 'VAN',
    week: {
      mon: [weekdays],
      tue: [weekdays],
      wed: [weekdays],
      thu: [weekdays],
      fri: [weekdays],
      sat: [{ start: '08:00', end: '13:00' }],
    },
    ...overrides,
  };
}

/** Monday 23 November 2026, 06:00 in Johannesburg (04:00 UTC). */
export function anInput(overrides: Partial<FindSlotsInput> = {}): FindSlotsInput {
  return {
    resources: [aResource()],
    durationMin: 60,
    timeZone: 'Africa/Johannesburg',
    now: '2026-11-23T04:00:00Z',
    from: '2026-11-23',
    to: '2026-11-23',
    ...overrides,
  };
}
