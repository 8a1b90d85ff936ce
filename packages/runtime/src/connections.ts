import type { EventEmitter } from 'node:events';

/**
 * Watches the connections of a node-postgres pool, to wait for them to be closed once the pool is
 * ended. `pool.end()` resolves as soon as it has asked its idle connections to close, before they
 * are: a PostgreSQL stopped just after (the embedded one, as the server stops) still finds their
 * sessions, ends them with "terminating connection due to administrator command", and the pool
 * reports that as an error. Start watching before the pool's first connection. The function
 * returned resolves true once every connection is closed, false if some are still open after
 * `timeoutMs`.
 */
export function watchConnections(pool: EventEmitter): (timeoutMs: number) => Promise<boolean> {
  const open = new Set<EventEmitter>();
  pool.on('connect', (client: EventEmitter) => {
    open.add(client);
    client.once('end', () => open.delete(client));
  });
  return async (timeoutMs) => {
    const deadline = performance.now() + timeoutMs;
    while (open.size > 0) {
      const left = deadline - performance.now();
      if (left <= 0) return false;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all([...open].map((client) => new Promise((resolve) => client.once('end', resolve)))),
        new Promise((resolve) => {
          timer = setTimeout(resolve, left);
        }),
      ]);
      clearTimeout(timer);
    }
    return true;
  };
}
