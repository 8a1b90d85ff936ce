export { createGazetteer, type Gazetteer, pointOf, TownGrid } from './create-gazetteer.js';
export { haversineKm } from './haversine-km.js';
export { lineCoverage } from './line-coverage.js';
export { normalizePlaceText } from './normalize-place-text.js';
export { parseLatLng } from './parse-lat-lng.js';
export { placeAmong } from './place-among.js';
export { type Province, provinceOfPostalCode } from './province-of-postal-code.js';
export { MAX_TOWN_DISTANCE_KM, resolvePoint } from './resolve-point.js';
export { resolvePostalCode } from './resolve-postal-code.js';
export { ADDRESS_WORDS, resolveText, SINGLE_WORD_MIN_POPULATION } from './resolve-text.js';
export type {
  CountryName,
  GazetteerInput,
  HomeArea,
  LatLng,
  LineAreas,
  LineCoverage,
  ResolvedPlace,
  Town,
} from './types.js';
