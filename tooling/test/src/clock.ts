/** A clock tests set and move; the service takes `now()` from whatever clock it is given. */
export interface TestClock {
  now(): Date;
  set(instant: Date | string): void;
  advance(ms: number): void;
}

export function fixedClock(start: Date | string = '2026-11-23T08:00:00Z'): TestClock {
  let current = new Date(start).getTime();
  return {
    now: () => new Date(current),
    set(instant) {
      current = new Date(instant).getTime();
    },
    advance(ms) {
      current += ms;
    },
  };
}
