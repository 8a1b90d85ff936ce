// Short form of the worker fault test (faults/worker-kill.test.ts, `pnpm faults worker-kill`): the
// worker process killed with SIGKILL mid-job in hold expiry, order expiry and the draft purge, on a
// PostgreSQL of its own; started again, each job does its work, each item once.
import { describe, expect, it } from 'vitest';
import { workerKillTrial } from '../faults/worker-jobs.js';

describe('worker killed with SIGKILL mid-job', () => {
  it('runs each job again and does its work once: holds and orders expired once, drafts purged', async () => {
    const figures = await workerKillTrial({
      bookings: 30,
      orders: 30,
      drafts: 60,
      draftApplications: 5,
      settleMs: 2500,
      killWhenActive: true,
    });
    expect(figures.map((f) => f.job)).toEqual([
      'expire-unpaid-holds',
      'expire-unpaid-orders',
      'purge-signup-drafts',
    ]);
    for (const f of figures) {
      expect(f.problems, f.job).toEqual([]);
      expect(f.doneAfterKillMs, f.job).not.toBeNull();
    }
    for (const f of figures.filter((f) => f.job !== 'purge-signup-drafts')) {
      // Killed while the job ran (some items may not have been reached yet), never after it ended.
      expect(f.doneAtKill!, f.job).toBeLessThan(f.items);
      expect(f.effects, f.job).toEqual({ 1: f.items });
    }
  }, 150_000);
});
