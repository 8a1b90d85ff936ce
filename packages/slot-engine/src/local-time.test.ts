import { Temporal } from '@js-temporal/polyfill';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DAY_KEYS, dayKeyOf, localDateText } from './local-time.js';

describe('localDateText', () => {
  it("is Temporal's local date of the instant, in zones either side of the date line and across DST", () => {
    const zones = [
      'Africa/Johannesburg',
      'Pacific/Kiritimati',
      'Pacific/Pago_Pago',
      'America/Sao_Paulo',
      'Europe/Lisbon',
      'Australia/Lord_Howe',
    ];
    fc.assert(
      fc.property(
        fc.integer({ min: Date.parse('1999-01-01T00:00:00Z'), max: Date.parse('2040-12-31T00:00:00Z') }),
        fc.constantFrom(...zones),
        (ms, zone) => {
          const expected = Temporal.Instant.fromEpochMilliseconds(ms)
            .toZonedDateTimeISO(zone)
            .toPlainDate()
            .toString();
          expect(localDateText(ms, zone)).toBe(expected);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('dayKeyOf', () => {
  it('names the day of the week of a date, Monday first as DAY_KEYS', () => {
    expect(dayKeyOf('2026-12-07')).toBe('mon');
    expect(dayKeyOf('2026-12-13')).toBe('sun');
    expect(dayKeyOf('2024-02-29')).toBe('thu');
    expect(DAY_KEYS).toEqual(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']);
  });
});
