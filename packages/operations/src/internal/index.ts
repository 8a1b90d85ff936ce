import type { InternalOperation } from '../core/index.js';
import * as jobOperations from './jobs.js';
import * as operatorOperations from './operator.js';

export { jobOperations, operatorOperations };

/** Every internal operation: run by NogPets itself, served by no door (registry.ts holds none). */
export const internalOperations: readonly InternalOperation[] = [
  ...Object.values(jobOperations),
  ...Object.values(operatorOperations),
] as unknown as InternalOperation[];
