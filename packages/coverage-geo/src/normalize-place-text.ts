/**
 * Folds text for matching place names: lower case, accents removed, apostrophes dropped, every
 * other run of non-alphanumerics a single space.
 *
 * @example normalizePlaceText("Ida's Valley, PNIËL") // "idas valley pniel"
 */
export function normalizePlaceText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/['’`ʼ]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
