/**
 * findSlots on the case: 31 days, 20 resources, 2,000 existing bookings, 30-minute step,
 * against the floor no engine can beat: building the same output array (same days, same slots
 * with ISO starts and local times). Prints a Markdown table.   npx tsx bench/run.ts
 */
import { findSlots } from '../src/index.js';
import type { BusyInterval, FindSlotsResult, Resource } from '../src/index.js';

const day = { start: '08:00', end: '17:00' };
const resources: Resource[] = Array.from({ length: 20 }, (_, i) => ({
  id: `res-${String(i).padStart(2, '0')}`,
  kind: i < 8 ? 'VAN' : i < 16 ? 'WALKER' : 'SITTER',
  week: {
    mon: [day],
    tue: [day],
    wed: [day],
    thu: [day],
    fri: [day],
    sat: [{ start: '08:00', end: '13:00' }],
  },
}));
// 2,000 one-hour bookings spread over the 31 days and 20 resources, deterministic.
let seed = 42;
const rand = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
const startMs = Date.parse('2026-12-01T06:00:00Z');
const busy: BusyInterval[] = Array.from({ length: 2000 }, () => {
  const dayIdx = Math.floor(rand() * 31);
  const slot = Math.floor(rand() * 16);
  const s = startMs + dayIdx * 86_400_000 + slot * 30 * 60_000;
  // As the service passes them: instants from PostgreSQL, not text.
  return {
    resourceId: resources[Math.floor(rand() * 20)]!.id,
    start: new Date(s),
    end: new Date(s + 3_600_000),
  };
});
const input = {
  resources,
  busy,
  durationMin: 60,
  timeZone: 'Africa/Johannesburg',
  now: '2026-11-30T06:00:00Z',
  from: '2026-12-01',
  to: '2026-12-31',
};

function median(run: () => unknown, iterations: number): number {
  for (let i = 0; i < 50; i++) run();
  const times: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const t0 = performance.now();
    run();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

const reference: FindSlotsResult = findSlots(input);
const shape = reference.days.map((d) => ({
  date: d.date,
  label: d.label,
  slots: d.slots.map((s) => [Date.parse(s.start), s.time, s.resourceId] as const),
}));
const slotCount = shape.reduce((n, d) => n + d.slots.length, 0);

// The floor: only building the answer from already known values (ISO text made per distinct start, as the engine may).
const floor = () => {
  const iso = new Map<number, string>();
  return shape.map((d) => ({
    date: d.date,
    label: d.label,
    slots: d.slots.map(([ms, time, resourceId]) => {
      let text = iso.get(ms);
      if (text === undefined) {
        text = new Date(ms).toISOString();
        iso.set(ms, text);
      }
      return { start: text, time, resourceId };
    }),
  }));
};

const engineMs = median(() => findSlots(input), 300);
const floorMs = median(floor, 300);
console.log(
  `\n${slotCount} slots over 31 days, 20 resources, 2,000 bookings, 30-minute step, 60-minute duration\n`,
);
console.log('| measure | median ms |');
console.log('|---|---:|');
console.log(`| findSlots | ${engineMs.toFixed(3)} |`);
console.log(`| building the same output array (floor) | ${floorMs.toFixed(3)} |`);
console.log(`| ratio | ${(engineMs / floorMs).toFixed(2)}× |`);
