import pino from 'pino';

export type Logger = pino.Logger;

/** JSON lines on stdout; request lines carry `reqId` (see requestLogging). */
export function createLogger(level: string, name = 'nogpets'): Logger {
  return pino({
    name,
    level,
    base: { service: name },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
  });
}
