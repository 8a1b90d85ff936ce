import { bench, describe } from 'vitest';
import { resolvePoint } from './resolve-point.js';
import { resolveText } from './resolve-text.js';
import { stellenbosch } from './test-fixtures.js';

const g = stellenbosch();

describe('resolving places against ~140k world towns', () => {
  bench('a home address', () => {
    resolveText(g, '12 Dorp Street, Die Boord, Stellenbosch 7600');
  });
  bench('an address abroad', () => {
    resolveText(g, 'Rua Augusta 100, 1100-053 Lisbon, Portugal');
  });
  bench('text naming nothing', () => {
    resolveText(g, 'the blue house behind the school');
  });
  bench('a point abroad', () => {
    resolvePoint(g, 38.72, -9.14);
  });
});
