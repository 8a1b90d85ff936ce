import { runMain } from '@nogpets/runtime';
import { startWorkerIn } from './worker.js';

// The worker serves only /healthz, /readyz and /metrics over HTTP.
await runMain({ name: 'worker', background: startWorkerIn });
