import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Gazetteer } from './create-gazetteer.js';
import { resolvePoint } from './resolve-point.js';
import { resolvePostalCode } from './resolve-postal-code.js';
import { areas, stellenbosch } from './test-fixtures.js';

let g: Gazetteer;
beforeAll(() => {
  g = stellenbosch();
});

describe('resolvePoint', () => {
  it("puts an area's own centroid in that area (or one sharing the spot)", () => {
    fc.assert(
      fc.property(fc.constantFrom(...areas), (area) => {
        const place = resolvePoint(g, area.lat!, area.lng!);
        expect(place.kind).toBe('area');
        if (place.kind === 'area')
          expect(place.area.lat === area.lat && place.area.lng === area.lng).toBe(true);
      }),
    );
  });

  it('puts a point in Somerset West in that town', () => {
    expect(resolvePoint(g, -34.079, 18.849)).toMatchObject({
      kind: 'town',
      town: 'Somerset West',
      country: 'ZA',
    });
  });

  it('puts a point in Lisbon in Portugal', () => {
    expect(resolvePoint(g, 38.72, -9.14)).toMatchObject({
      kind: 'town',
      country: 'PT',
      lat: 38.72,
      lng: -9.14,
    });
  });

  it('does not name a town for a point in the middle of the Atlantic', () => {
    expect(resolvePoint(g, -20, -20)).toMatchObject({ kind: 'unknown', reason: 'FAR_FROM_ANY_TOWN' });
  });

  it('handles the poles and the antimeridian', () => {
    expect(resolvePoint(g, 90, 180).kind).toBe('unknown');
    expect(resolvePoint(g, -90, -180).kind).toBe('unknown');
    expect(resolvePoint(g, -17.7, 179.99).kind).not.toBe('area');
  });
});

describe('resolvePostalCode', () => {
  it.each([
    ['7600', 'postal-code'],
    ['7681', 'area'],
    ['7690', 'area'],
    ['7130', 'town'],
    [' 7130 ', 'town'],
  ])('reads %j as %s', (code, kind) => {
    expect(resolvePostalCode(g, code).kind).toBe(kind);
  });

  it('does not guess a code it does not know', () => {
    expect(resolvePostalCode(g, '10115')).toEqual({
      kind: 'unknown',
      reason: 'UNKNOWN_POSTAL_CODE',
      query: '10115',
    });
  });
});
