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
export {
  EVENT_WATCH_KEY,
  startWorker,
  startWorkerIn,
  type Worker,
  type WorkerOptions,
} from './worker.js';
