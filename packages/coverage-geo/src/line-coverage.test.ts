import { beforeAll, describe, expect, it } from 'vitest';
import type { Gazetteer } from './create-gazetteer.js';
import { lineCoverage } from './line-coverage.js';
import { resolvePoint } from './resolve-point.js';
import { resolveText } from './resolve-text.js';
import { areas, lines, stellenbosch } from './test-fixtures.js';

let g: Gazetteer;
beforeAll(() => {
  g = stellenbosch();
});

const covered = (text: string) =>
  Object.fromEntries(lineCoverage(resolveText(g, text), lines, areas).lines.map((l) => [l.id, l.covered]));

describe('lineCoverage', () => {
  it('covers a core suburb by every line', () => {
    expect(covered('Die Boord')).toEqual({ grooming: true, walking: true, sitting: true });
  });

  it('covers a fringe valley by vans and sitters but not by walkers on foot', () => {
    expect(covered('Jonkershoek')).toEqual({ grooming: true, walking: false, sitting: true });
  });

  it('says a known locality no line reaches is not covered, and names the nearest served area', () => {
    const result = lineCoverage(resolveText(g, 'Franschhoek'), lines, areas);
    expect(result.covered).toBe(false);
    expect(result.nearest?.name).toBe('Pniel');
    expect(result.nearest?.distanceKm).toBeGreaterThan(10);
    expect(result.nearest?.distanceKm).toBeLessThan(25);
  });

  it('gives a town elsewhere no line and the nearest area', () => {
    const result = lineCoverage(resolveText(g, 'Somerset West'), lines, areas);
    expect(result).toMatchObject({ covered: false, nearest: { name: expect.any(String) } });
    expect(result.lines.every((l) => !l.covered)).toBe(true);
  });

  it('covers a shared postal code by a line that serves any of its suburbs', () => {
    expect(covered('7600')).toEqual({ grooming: true, walking: true, sitting: true });
  });

  it('covers the home town named alone as its centre is covered', () => {
    expect(covered('Stellenbosch')).toEqual({ grooming: true, walking: true, sitting: true });
  });

  it('gives no nearest for an unknown place or a country', () => {
    expect(lineCoverage(resolveText(g, 'asdfgh'), lines, areas).nearest).toBeNull();
    expect(lineCoverage(resolveText(g, 'Portugal'), lines, areas).nearest).toBeNull();
  });

  it('gives nearest with one decimal for a point outside every area', () => {
    const result = lineCoverage(resolvePoint(g, -34.079, 18.849), lines, areas);
    expect(Number.isInteger(result.nearest!.distanceKm * 10)).toBe(true);
  });
});
