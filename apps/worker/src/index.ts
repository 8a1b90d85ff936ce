export {
  completeFinishedBookings,
  expireUnpaidHolds,
  expireUnpaidOrders,
  type JobContext,
  type JobDefinition,
  jobs,
  keepSeriesBooked,
  purgeExpiredRateLimits,
  purgeOldIdempotencyKeys,
} from './jobs.js';
export { startWorker, startWorkerIn, type Worker, type WorkerOptions } from './worker.js';
