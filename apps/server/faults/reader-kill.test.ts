// Fault 4: a worker killed with SIGKILL while an event reader's pass is in flight (dispatch-notices,
// reader `notices`; fan-out-webhooks, reader `webhooks`), with two workers running, an SMTP server
// and a webhook receiver on loopback. Each trial kills a worker in each reader's pass in turn (the
// order alternating between trials), each on fresh work made through the server, and starts it again.
// Once drained: the mails and deliveries are exactly those a pass with no kill makes from the same
// events, one per (event, address, kind) and per (endpoint, event), all sent and SUCCEEDED, every
// Message-ID and webhook-id received with a valid signature, and a second copy only of what was in
// flight at a kill. `pnpm faults reader-kill` runs it; FAULT_TRIALS and FAULT_READER_BOOKINGS (per
// kill) change its size.
import { afterAll, describe, expect, it } from 'vitest';
import { type ReaderKillFigures, type ReaderName, readerKillTrial } from './reader-kill.js';
import { FAULT_TRIALS } from './support.js';

const BOOKINGS = Number(process.env.FAULT_READER_BOOKINGS ?? 200);

describe('worker killed with SIGKILL in an event reader’s pass', () => {
  const report: unknown[] = [];
  afterAll(() => {
    console.log(JSON.stringify({ fault: 'reader-kill', bookingsPerKill: BOOKINGS, trials: report }, null, 2));
  });

  for (let trial = 1; trial <= FAULT_TRIALS; trial++) {
    const kills: ReaderName[] = trial % 2 ? ['notices', 'webhooks'] : ['webhooks', 'notices'];
    it(`trial ${trial}: killed in ${kills.join(', then ')}: no mail or delivery lost or made twice`, async () => {
      const figures: ReaderKillFigures = await readerKillTrial({
        bookings: BOOKINGS,
        races: Math.max(5, Math.round(BOOKINGS / 20)),
        kills,
        // A few thousand mails, sent 50 to a run of deliver-mail or dispatch-notices.
        drainMs: 300_000,
      });
      report.push({ trial, ...figures, problems: figures.problems.slice(0, 50) });
      expect(figures.problems).toEqual([]);
      expect(figures.kills.map((k) => k.reader)).toEqual(kills);
      for (const k of figures.kills) expect(k.lagAtKill, k.reader).toBeGreaterThan(0);
      expect(figures.drainedMs).not.toBeNull();
      expect(figures.rolledBack).toBeGreaterThan(0);
    });
  }
});
