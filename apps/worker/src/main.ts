import { runMain } from '@nogpets/runtime';
import { startWorker } from './worker.js';

// The worker serves only /healthz, /readyz and /metrics over HTTP.
await runMain({
  name: 'worker',
  background: async (runtime) => {
    const worker = await startWorker({
      databaseUrl: runtime.db.url,
      sql: runtime.db.sql,
      logger: runtime.logger,
      deps: runtime.deps,
    });
    return () => worker.stop();
  },
});
