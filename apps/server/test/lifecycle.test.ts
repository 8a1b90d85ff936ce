import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliProcess } from './harness.js';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = path.resolve(serverDir, '../..');

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
    const before = await cliProcess(
      undefined,
      ['key', 'create', '--email', 'op@example.com', '--scopes', 'profile'],
      { DATA_DIR: dataDir },
    );
    expect(before.status, before.stderr).toBe(0);
    expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
    const first = await startMain(dataDir);
    // While `pnpm start` runs, the CLI attaches to its cluster.
    const during = await cliProcess(
      undefined,
      ['key', 'create', '--email', 'op@example.com', '--scopes', 'profile,pets'],
      { DATA_DIR: dataDir },
    );
    expect(during.status, during.stderr).toBe(0);
    // A refusal ends the process with status 1 and the reason on stderr, nothing on stdout.
    const refused = await cliProcess(undefined, ['booking', 'accept', 'bkg_nosuchbooking'], {
      DATA_DIR: dataDir,
    });
    expect(refused.status).toBe(1);
    expect(refused.stderr.trim()).not.toBe('');
    expect(refused.stdout).toBe('');
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
    // Two starts of an embedded cluster and three CLI runs: over a minute on a loaded machine.
  }, 180_000);

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

/** `pnpm start` in the repo root as a terminal runs it: in its own process group, which it leads. */
function pnpmStart(dataDir: string): Promise<Started> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
  };
  delete env.DATABASE_URL;
  const child = spawn('pnpm', ['start'], {
    cwd: repoRoot,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 120 s:\n${output}`)), 120_000);
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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A slow client: POSTs `body` to `pathname` and, once the server has taken the request (its
 * `100 Continue`), calls `taken` and sends the body in six pieces over `overMs`. Resolves with
 * the final answer's status and body; status 0 when the connection was cut first.
 */
function slowPost(
  url: string,
  pathname: string,
  body: string,
  options: { taken: () => void; overMs: number },
): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), '127.0.0.1');
  socket.setEncoding('utf8');
  let received = '';
  let sending = false;
  const sendSlowly = async () => {
    const pieces = 6;
    const size = Math.ceil(body.length / pieces);
    for (let i = 0; i < pieces && !socket.destroyed; i++) {
      socket.write(body.slice(i * size, (i + 1) * size));
      if (i === 0) options.taken();
      await sleep(options.overMs / pieces);
    }
  };
  socket.on('connect', () => {
    socket.write(
      `POST ${pathname} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
    );
  });
  socket.on('data', (chunk: string) => {
    received += chunk;
    if (!sending && received.startsWith('HTTP/1.1 100')) {
      sending = true;
      void sendSlowly();
    }
  });
  return new Promise((resolve) => {
    socket.on('error', (err) => resolve({ status: 0, body: err.message }));
    socket.on('close', () => {
      const answer = received.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, '');
      const [head = '', rest = ''] = answer.split('\r\n\r\n', 2);
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), body: rest });
    });
  });
}

const quote = JSON.stringify({
  category: 'grooming',
  address: 'Die Boord',
  pets: [{ name: 'Rex', type: 'DOG', weightKg: 12, coat: 'SHORT', serviceIds: ['groom-dog-bath'] }],
});

/** The running postmaster's pid from PostgreSQL's lock file, or null. */
function postmasterPid(dataDir: string): number | null {
  try {
    const pid = Number(readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
    return pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** Alive and not a zombie (PostgreSQL orphaned by a forced exit may wait unreaped). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, 'utf8') : '';
  return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
}

async function stoppedWithin(pid: number, ms: number): Promise<boolean> {
  for (const until = Date.now() + ms; Date.now() < until; await sleep(100)) if (!isRunning(pid)) return true;
  return !isRunning(pid);
}

/** Lines that say something went wrong: log lines at error or fatal, pnpm's failure, a forced exit. */
const troubleIn = (output: string) =>
  output
    .split('\n')
    .filter((l) => /\berror\b|\bfatal\b|ELIFECYCLE|ERR_PNPM|second signal|"level":(50|60)/i.test(l))
    .join('\n');

describe('`pnpm start` stopped as from a terminal (the whole process group signalled)', () => {
  let dataDir: string;
  const started: Started[] = [];
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'nogpets-pnpm-start-'));
    await chmod(dataDir, 0o755);
  });
  afterAll(async () => {
    // A failed test may leave a group or the cluster behind: neither may outlive the run.
    for (const { child } of started) {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
    }
    const pid = postmasterPid(dataDir);
    if (pid && isRunning(pid)) {
      process.kill(pid, 'SIGINT');
      await stoppedWithin(pid, 20_000);
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  async function start() {
    const running = await pnpmStart(dataDir);
    started.push(running);
    const pgPid = postmasterPid(dataDir);
    expect(pgPid).not.toBeNull();
    const signal = (name: NodeJS.Signals) => process.kill(-running.child.pid!, name);
    return { ...running, pgPid: pgPid!, exited: exitOf(running.child), signal };
  }

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'on %s finishes the request in flight, then stops PostgreSQL; no error line, exit 0',
    async (name) => {
      const server = await start();
      const answer = await slowPost(server.url, '/v1/quote', quote, {
        taken: () => server.signal(name),
        overMs: 1_500,
      });
      expect(answer.status, `${answer.body}\n${server.output()}`).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({ category: 'grooming', subtotalCents: 38000 });
      expect(await server.exited, server.output()).toBe(0);
      expect(troubleIn(server.output())).toBe('');
      expect(server.output()).toMatch(/"msg":"stopped"/);
      expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
      expect(isRunning(server.pgPid)).toBe(false);
    },
    150_000,
  );

  it.each(['SIGINT', 'SIGHUP'] as const)(
    'on %s during the start (PostgreSQL up, not yet serving) finishes starting, then stops; PostgreSQL is not left behind',
    async (name) => {
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'info',
      };
      delete env.DATABASE_URL;
      const child = spawn('pnpm', ['start'], {
        cwd: repoRoot,
        env,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      started.push({ child, url: '', output: () => output });
      let output = '';
      child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
      const exited = exitOf(child);
      // As soon as PostgreSQL is up, before the service listens.
      let pgPid: number | null = null;
      for (const until = Date.now() + 120_000; Date.now() < until && pgPid === null; await sleep(20)) {
        pgPid = postmasterPid(dataDir);
      }
      expect(pgPid, output).not.toBeNull();
      expect(output).not.toMatch(/is running at/);
      process.kill(-child.pid!, name);
      // pnpm passes SIGINT on and waits; a hang-up ends pnpm itself at once, and the server stops on its own.
      const code = await exited;
      if (name === 'SIGINT') expect(code, output).toBe(0);
      expect(await stoppedWithin(pgPid!, 30_000), output).toBe(true);
      for (const until = Date.now() + 10_000; Date.now() < until && !/"msg":"stopped"/.test(output); )
        await sleep(100);
      expect(output).toMatch(/"msg":"stopped"/);
      expect(troubleIn(output)).toBe('');
    },
    150_000,
  );

  it('a signal more than a second after the first exits at once, and PostgreSQL still stops', async () => {
    const server = await start();
    const answer = slowPost(server.url, '/v1/quote', quote, {
      taken: () => {
        server.signal('SIGTERM');
        setTimeout(() => server.signal('SIGTERM'), 1_500);
      },
      overMs: 6_000,
    });
    expect(await server.exited).not.toBe(0);
    expect(server.output()).toMatch(/second signal: exiting now/);
    expect((await answer).status).toBe(0);
    expect(await stoppedWithin(server.pgPid, 30_000)).toBe(true);
  }, 150_000);
});
