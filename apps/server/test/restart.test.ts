// After a crash: the embedded PostgreSQL a killed server started lives on and holds DATA_DIR. The
// next start stops it and starts afresh, and says so; a second server on a DATA_DIR whose first
// server still runs refuses with the reason. (The long form under load: faults/crash.test.ts.)
import { existsSync } from 'node:fs';
import path from 'node:path';
import { runningEmbedded } from '@nogpets/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, type ServerProcess, spawnServer, tempDir } from '../faults/support.js';

describe('starting again after the server was killed', () => {
  let tmp: Awaited<ReturnType<typeof tempDir>>;
  const started: ServerProcess[] = [];
  beforeAll(async () => {
    tmp = await tempDir('nogpets-restart-');
  });
  afterAll(async () => {
    for (const s of started) await s.stop();
    await tmp?.rm();
  });

  it("refuses a second server on a live one's data, then after SIGKILL stops the cluster left running and serves", async () => {
    const env = { DATA_DIR: tmp.dir, RUN_WORKER: 'false' };
    const first = await spawnServer(env);
    started.push(first);
    const pgDir = path.join(tmp.dir, 'pg');

    // Its owner lives: not ours to stop. The start fails and says why.
    const second = await spawnServer(env).then(
      () => 'started',
      (err: Error) => err.message,
    );
    expect(second).toMatch(/exited \(1\)/);
    expect(second).toMatch(
      new RegExp(
        `failed to start: PostgreSQL \\(pid \\d+, port \\d+\\) already runs on .*started by process ${first.pid}`,
      ),
    );

    first.child.kill('SIGKILL');
    await first.exited;
    const left = await runningEmbedded(pgDir);
    expect(left).not.toBeNull(); // the cluster outlived its server

    const again = await spawnServer(env);
    started.push(again);
    expect(again.output()).toMatch(/was left running on .* by a start that died; stopping it/);
    expect(again.output()).toMatch(/Stopped the PostgreSQL left running/);
    expect((await request(again.url, 'GET', '/readyz')).status).toBe(200);
    expect((await request(again.url, 'GET', '/v1/services')).status).toBe(200);

    await again.stop();
    expect(existsSync(path.join(pgDir, 'postmaster.pid'))).toBe(false);
  }, 180_000);
});
