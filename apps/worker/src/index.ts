export {
  completeFinishedBookings,
  expireUnpaidHolds,
  expireUnpaidOrders,
  fanOutWebhooks,
  type JobContext,
  type JobDefinition,
  jobs,
  keepSeriesBooked,
  purgeExpiredRateLimits,
  purgeOldIdempotencyKeys,
  sendWebhooks,
} from './jobs.js';
export { startWorker, startWorkerIn, type Worker, type WorkerOptions } from './worker.js';
