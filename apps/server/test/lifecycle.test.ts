import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from './harness.js';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface Started {
  child: ChildProcess;
  url: string;
  output: () => string;
}

/** Starts `src/main.ts` exactly as `pnpm start` does, with no DATABASE_URL: embedded PostgreSQL. */
function startMain(dataDir: string): Promise<Started> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    RATE_LIMIT_POINTS: '60',
  };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 90 s:\n${output}`)), 90_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = output.match(/is running at (http:\/\/\S+)/);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve({ child, url: m[1], output: () => output });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before starting:\n${output}`));
    });
  });
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

describe('the one-process start (embedded PostgreSQL, no DATABASE_URL)', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'nogpets-main-'));
    await chmod(dataDir, 0o755);
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('starts, serves, stops cleanly on SIGTERM, and a second start reuses the data; the CLI works on it running or not', async () => {
    // The operator CLI before anything runs: it starts the embedded cluster for itself, and stops it.
    const before = await cli(
      undefined,
      ['key', 'create', '--email', 'op@example.com', '--scopes', 'profile'],
      { DATA_DIR: dataDir },
    );
    expect(before.status, before.stderr).toBe(0);
    expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
    const first = await startMain(dataDir);
    // While `pnpm start` runs, the CLI attaches to its cluster.
    const during = await cli(
      undefined,
      ['key', 'create', '--email', 'op@example.com', '--scopes', 'profile,pets'],
      { DATA_DIR: dataDir },
    );
    expect(during.status, during.stderr).toBe(0);
    const a = await fetch(`${first.url}/v1/services`);
    expect(a.status).toBe(200);
    expect(a.headers.get('ratelimit-remaining')).toBe('59');
    // The request's log line carries its request id (it may be written just after the answer).
    await expect
      .poll(() =>
        first
          .output()
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .map((l) => JSON.parse(l))
          .find((l) => l.req?.url === '/v1/services'),
      )
      .toMatchObject({ reqId: a.headers.get('x-request-id') });
    expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(true);
    // Both keys work on the running server (two more requests from this address: 57 left).
    for (const key of [before.lastLine, during.lastLine]) {
      const me = await fetch(`${first.url}/v1/me`, { headers: { authorization: `Bearer ${key}` } });
      expect(me.status).toBe(200);
      expect(await me.json()).toMatchObject({ email: 'op@example.com' });
    }

    const exited = exitOf(first.child);
    first.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    // The embedded server went down with it.
    expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);

    const second = await startMain(dataDir);
    const b = await fetch(`${second.url}/v1/services`);
    expect(b.status).toBe(200);
    // The counter from the first run is still there: same cluster, same data.
    expect(b.headers.get('ratelimit-remaining')).toBe('56');
    const exitedAgain = exitOf(second.child);
    second.child.kill('SIGINT');
    expect(await exitedAgain).toBe(0);
  });

  it('refuses a bad configuration with a message naming the variable', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: serverDir,
      env: { ...process.env, PORT: 'eighty', DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    expect(await exitOf(child)).toBe(78);
    expect(stderr).toMatch(/Invalid configuration:\n\s+- PORT: /);
  });
});
