import { listServices } from './catalogue/list-services.js';
import { checkCoverage } from './coverage/check-coverage.js';
import { findTimes } from './booking/find-times.js';
import { getQuote } from './booking/get-quote.js';
import type { Operation } from './define.js';

/** Every operation of the service, in the order of the spec. Adapters derive everything from this list. */
export const operations: readonly Operation[] = [listServices, checkCoverage, getQuote, findTimes] as unknown as Operation[];
