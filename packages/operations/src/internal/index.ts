import type { InternalOperation } from '../core/define.js';
import * as identityOperations from '../identity/page-operations.js';
import * as jobOperations from './jobs.js';
import * as operatorOperations from './operator.js';

export { identityOperations, jobOperations, operatorOperations };

/** Every internal operation: run by NogPets itself, served by no door (registry.ts holds none). */
export const internalOperations: readonly InternalOperation[] = [
  ...Object.values(jobOperations),
  ...Object.values(operatorOperations),
  ...Object.values(identityOperations),
] as unknown as InternalOperation[];
