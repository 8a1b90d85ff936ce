export { type JobContext, type JobDefinition, jobs, purgeExpiredRateLimits } from './jobs.js';
export { startWorker, type Worker, type WorkerOptions } from './worker.js';
