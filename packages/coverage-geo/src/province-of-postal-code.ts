/** South African provinces, ISO 3166-2:ZA codes without the `ZA-` prefix. */
export type Province = 'EC' | 'FS' | 'GP' | 'KZN' | 'LP' | 'MP' | 'NC' | 'NW' | 'WC';

/** Street-code ranges after SAPO's allocation, by first code of each range, ascending. */
const RANGES: readonly [from: number, province: Province][] = [
  [1, 'GP'], // Pretoria / Tshwane
  [300, 'NW'],
  [500, 'LP'],
  [1000, 'MP'],
  [1400, 'GP'], // East Rand, Johannesburg, West Rand, Vaal
  [2200, 'MP'],
  [2500, 'NW'],
  [2900, 'KZN'], // Newcastle area
  [3000, 'KZN'],
  [4731, 'EC'],
  [6500, 'WC'],
  [8100, 'NC'],
  [9000, 'FS'],
];

/**
 * The province of a South African 4-digit street postal code, from SAPO's ranges (0001–0299 GP,
 * 0300–0499 NW, 0500–0999 LP, 1000–1399 MP, 1400–2199 GP, 2200–2499 MP, 2500–2899 NW, 2900–4730
 * KZN, 4731–6499 EC, 6500–8099 WC, 8100–8999 NC, 9000–9999 FS), or null for anything that is not
 * 4 digits (surrounding spaces are ignored) or is 0000. The ranges are approximate at their edges
 * (a few towns near a border carry a neighbouring province's codes). Anything priced by province
 * (a courier fee) should take this answer rather than a province the person states, and refuse a
 * stated one that contradicts it: otherwise the cheapest province is one word away.
 *
 * @example provinceOfPostalCode('8001') // 'WC' (Cape Town)
 * @example provinceOfPostalCode('2001') // 'GP' (Johannesburg)
 * @example provinceOfPostalCode('800')  // null
 */
export function provinceOfPostalCode(code: string): Province | null {
  const trimmed = code.trim();
  if (!/^[0-9]{4}$/.test(trimmed)) return null;
  const n = Number(trimmed);
  let province: Province | null = null;
  for (const [from, p] of RANGES) {
    if (n < from) break;
    province = p;
  }
  return province;
}
