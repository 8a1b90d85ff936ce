import { loadConfig, runMain } from '@nogpets/runtime';
import { allInOne } from './parts.js';

const worker = (() => {
  try {
    return loadConfig().RUN_WORKER;
  } catch {
    return true; // runMain reports the bad configuration
  }
})();
await runMain(allInOne({ worker }));
