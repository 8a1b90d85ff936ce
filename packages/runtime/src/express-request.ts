import type { Logger } from './logger.js';

// What requestLogging adds to every request.
declare global {
  namespace Express {
    interface Request {
      /** The request id: the caller's `X-Request-Id` when well-formed, else a new UUID. */
      id: string;
      /** A logger whose every line carries `reqId`. */
      log: Logger;
    }
  }
}
