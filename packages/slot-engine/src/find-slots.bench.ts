import { bench } from 'vitest';
import { findSlots } from './find-slots.js';
import { aResource } from './test-utils.js';

const resources = Array.from({ length: 20 }, (_, i) =>
  aResource({ id: `r${i}`, kind: i < 8 ? 'VAN' : 'WALKER' }),
);
const busy = Array.from({ length: 2000 }, (_, i) => {
  const s = Date.parse('2026-12-01T06:00:00Z') + (i % 31) * 86_400_000 + (i % 16) * 1_800_000;
  return {
    resourceId: `r${i % 20}`,
    start: new Date(s).toISOString(),
    end: new Date(s + 3_600_000).toISOString(),
  };
});

bench('31 days, 20 resources, 2,000 bookings', () => {
  findSlots({
    resources,
    busy,
    durationMin: 60,
    timeZone: 'Africa/Johannesburg',
    now: '2026-11-30T06:00:00Z',
    from: '2026-12-01',
    to: '2026-12-31',
  });
});
