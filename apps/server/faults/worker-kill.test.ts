// Fault 3: the worker killed with SIGKILL in the middle of a job: hold expiry, order expiry and the
// sign-up draft purge. Each job is idempotent and works item by item (holds, orders) or in one
// transaction (drafts): after the worker is started again and the job sent again, as its schedule
// does, the work is done, each item once (one audit row per booking and order, stock returned once,
// every expired draft purged and no live one). Payouts are no job: they are made by the operator's
// CLI (`nogpets payout`), so there is nothing of theirs for a worker to be killed in.
// `pnpm faults worker-kill` runs it; FAULT_TRIALS and FAULT_WORKER_ITEMS change its size.
import { afterAll, describe, expect, it } from 'vitest';
import { FAULT_TRIALS } from './support.js';
import { type JobFigures, workerKillTrial } from './worker-jobs.js';

const ITEMS = Number(process.env.FAULT_WORKER_ITEMS ?? 300);

describe('worker killed with SIGKILL mid-job', () => {
  const report: unknown[] = [];
  afterAll(() => {
    console.log(JSON.stringify({ fault: 'worker-kill', items: ITEMS, trials: report }, null, 2));
  });

  for (let trial = 1; trial <= FAULT_TRIALS; trial++) {
    it(`trial ${trial}: each job runs again and does its work once`, async () => {
      const figures: JobFigures[] = await workerKillTrial({
        bookings: ITEMS,
        orders: ITEMS,
        drafts: Math.min(1000, ITEMS * 2),
        draftApplications: 20,
      });
      report.push({ trial, jobs: figures });
      for (const f of figures) {
        expect(f.problems, f.job).toEqual([]);
        expect(f.doneAfterKillMs, f.job).not.toBeNull();
      }
      // The kill landed mid-job where the job works item by item.
      for (const f of figures.filter((f) => f.job !== 'purge-signup-drafts')) {
        expect(f.doneAtKill, f.job).toBeGreaterThan(0);
        expect(f.doneAtKill!, f.job).toBeLessThan(f.items);
        expect(f.effects, f.job).toEqual({ 1: f.items });
      }
    });
  }
});
