import type { InternalOperation } from '../core/index.js';
import { identityOperations } from '../identity/index.js';
import * as jobOperations from './jobs.js';
import * as operatorOperations from './operator.js';
import * as pageOperations from './pages.js';

export { identityOperations, jobOperations, operatorOperations, pageOperations };

/** Every internal operation: run by NogPets itself or by our own pages, served by no door (registry.ts holds none). */
export const internalOperations: readonly InternalOperation[] = [
  ...Object.values(jobOperations),
  ...Object.values(operatorOperations),
  ...Object.values(pageOperations),
  ...Object.values(identityOperations),
] as unknown as InternalOperation[];
