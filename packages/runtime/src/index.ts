export { type Config, ConfigError, ConfigSchema, loadConfig } from './env.js';
export {
  type BaseAppDeps,
  createBaseApp,
  finishApp,
  isJsonText,
  jsonBody,
  requireJsonBody,
  requestLogging,
  sendError,
  toHttpError,
} from './http.js';
export {
  allowedHostnames,
  type HostCheckOptions,
  hostCheck,
  type OriginCheckOptions,
  originCheck,
} from './hosts.js';
export { createLogger, type Logger } from './logger.js';
export { createMetrics, type Metrics } from './metrics.js';
export {
  createRateLimiter,
  type RateLimiter,
  type RateLimitOptions,
  rateLimitPool,
} from './rate-limit.js';
export {
  openOperatorDeps,
  poolDatabaseUrl,
  preparesStatements,
  publicBaseUrl,
  readySchema,
  type Runtime,
  type RuntimeOptions,
  serviceDeps,
  startRuntime,
} from './runtime.js';
export {
  findRepoRoot,
  type RunningService,
  runMain,
  type ServiceParts,
  type StartOptions,
  startService,
} from './serve.js';
export { bearerAuth } from './bearer.js';
export { watchConnections } from './connections.js';
