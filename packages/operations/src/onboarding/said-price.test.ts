import { describe, expect, it } from 'vitest';
import { parseSaidPrice } from './draft.js';

describe('parseSaidPrice: a price as people type it, in minor units of the currency', () => {
  it.each([
    ['350', 'ZAR', 35000],
    ['R350', 'ZAR', 35000],
    ['R 1 500', 'ZAR', 150000],
    ['1,500', 'ZAR', 150000],
    ['1.500', 'EUR', 150000],
    ['35.50', 'ZAR', 3550],
    ['35,5', 'EUR', 3550],
    ['€30', 'EUR', 3000],
    ['1500', 'JPY', 1500],
    ['0.50', 'ZAR', 50],
  ])('reads %j in %s as %d', (said, currency, cents) => {
    expect(parseSaidPrice(said, currency)).toBe(cents);
  });

  it.each([
    ['0.001', 'ZAR'], // three decimals where the rand has two, not "one rand"
    ['0,001', 'EUR'],
    ['00.500', 'ZAR'],
    ['1.50', 'JPY'],
    ['$30', 'ZAR'],
    ['about R400', 'ZAR'],
    ['', 'ZAR'],
    ['350', null],
    ['99999999999999999999', 'ZAR'],
  ])('refuses %j in %s', (said, currency) => {
    expect(parseSaidPrice(said, currency)).toBeNull();
  });
});
