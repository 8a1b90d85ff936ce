import { listServices } from './catalogue/list-services.js';
import { checkCoverage } from './coverage/check-coverage.js';
import { addAddress, listAddresses } from './account/addresses.js';
import { myProfile } from './account/my-profile.js';
import { addPet, listPets } from './account/pets.js';
import { findTimes } from './booking/find-times.js';
import { getQuote } from './booking/get-quote.js';
import type { Operation } from './define.js';

/** Every operation of the service, in the order of the spec. Adapters derive everything from this list. */
export const operations: readonly Operation[] = [listServices, checkCoverage, getQuote, findTimes, myProfile, listPets, addPet, listAddresses, addAddress] as unknown as Operation[];
