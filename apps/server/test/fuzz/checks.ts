/** What the fuzzer asserts of each answer, and how it gathers what went wrong. */
import type { TestServer } from '../harness.js';

/**
 * Tables left out of the "a refused change changes nothing" comparison: the shared request
 * counter is written by whatever request arrives, refused or not.
 */
const NOT_DATA = new Set(['rate_limits']);

export type Counts = Record<string, number>;

/** Exact row counts of every table of the public schema, in one query. */
export async function rowCounter(server: TestServer): Promise<() => Promise<Counts>> {
  const tables = (
    await server.db.sql<{ name: string }[]>`
      select table_name as name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`
  )
    .map((r) => r.name)
    .filter((t) => !NOT_DATA.has(t));
  if (!tables.includes('audit_log')) throw new Error('no audit_log table in the public schema');
  const query = `select ${tables.map((t, i) => `(select count(*) from "${t.replace(/"/g, '""')}")::int as c${i}`).join(', ')}`;
  return async () => {
    const [row] = await server.db.sql.unsafe(query);
    const out: Counts = {};
    tables.forEach((t, i) => {
      out[t] = Number((row as Record<string, unknown>)[`c${i}`]);
    });
    return out;
  };
}

/** Tables whose counts differ, as `table: before → after`. */
export function countChanges(before: Counts, after: Counts, allowed: Record<string, number> = {}): string[] {
  const changes: string[] = [];
  for (const [t, n] of Object.entries(after)) {
    const was = before[t] ?? 0;
    const delta = n - was;
    if (delta === 0) continue;
    if (allowed[t] !== undefined && delta >= 0 && delta <= allowed[t]!) continue;
    changes.push(`${t}: ${was} → ${n}`);
  }
  return changes;
}

/** The spec's error shape: `{error: {code, message, details}}`, and nothing else at the top. */
export function errorShapeProblem(body: unknown): string | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return `not a JSON object: ${preview(body)}`;
  const error = (body as { error?: unknown }).error;
  if (typeof error !== 'object' || error === null || Array.isArray(error))
    return `no error object: ${preview(body)}`;
  const { code, message, details } = error as Record<string, unknown>;
  if (typeof code !== 'string' || !code) return `error.code is not a string: ${preview(body)}`;
  if (typeof message !== 'string' || !message) return `error.message is not a string: ${preview(body)}`;
  if (typeof details !== 'object' || details === null || Array.isArray(details))
    return `error.details is not an object: ${preview(body)}`;
  return null;
}

/** Long runs of one character or percent-escape written once with a count: `x{×5000}`. */
export function squeeze(text: string): string {
  return text.replace(
    /((?:%[0-9A-Fa-f]{2}){1,4}?|\\u[0-9a-fA-F]{4}|[^%\\])\1{7,}/g,
    (run, unit: string) => `${unit}{×${run.length / unit.length}}`,
  );
}

export function preview(v: unknown, max = 300): string {
  let text: string;
  if (typeof v === 'string') text = JSON.stringify(v);
  else if (v instanceof Uint8Array) text = `bytes[${Buffer.from(v).toString('hex')}]`;
  else {
    try {
      text = JSON.stringify(v) ?? String(v);
    } catch {
      text = String(v);
    }
  }
  text = squeeze(text);
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}

export type FailureKind =
  | '5xx'
  | 'error-shape'
  | 'rows-changed'
  | 'mcp-internal'
  | 'mcp-transport'
  | 'output-schema';

export interface Failure {
  kind: FailureKind;
  /** `operationId` for /v1, `tool:name` for MCP. */
  where: string;
  status: number | string;
  /** The answer's error code and message. */
  error: string;
  /** What the server logged for it, when it logged something. */
  serverError?: string;
  /** The request, as short as the smallest one seen. */
  sample: string;
  /** How big the request was (the sample may be cut short); the smallest is kept. */
  size?: number;
}

/** Failures by what went wrong; each keeps the shortest request that showed it, and how often. */
export class Failures {
  private readonly byKey = new Map<string, Failure & { count: number }>();

  add(f: Failure): void {
    const key = [f.kind, f.where, f.status, f.error, f.serverError ?? ''].join('|');
    const seen = this.byKey.get(key);
    if (!seen) this.byKey.set(key, { ...f, count: 1 });
    else {
      seen.count++;
      if ((f.size ?? f.sample.length) < (seen.size ?? seen.sample.length)) {
        seen.sample = f.sample;
        seen.size = f.size ?? f.sample.length;
      }
    }
  }

  get size(): number {
    return this.byKey.size;
  }

  list(): (Failure & { count: number })[] {
    return [...this.byKey.values()].sort(
      (a, b) =>
        a.kind.localeCompare(b.kind) ||
        a.where.localeCompare(b.where) ||
        String(a.status).localeCompare(String(b.status)),
    );
  }

  report(): string {
    return this.list()
      .map(
        (f, i) =>
          `${i + 1}. [${f.kind}] ${f.where} → ${f.status} ${f.error} (×${f.count})` +
          (f.serverError ? `\n   server: ${f.serverError}` : '') +
          `\n   sample: ${f.sample}`,
      )
      .join('\n');
  }
}

export interface LoggedError {
  reqId?: string;
  msg: string;
  err?: string;
}

/**
 * Reads what the running server logs at level error, without printing it: the server's pino logger
 * is pointed at a stream of ours (its own level stays as the test set it, silent by default, until
 * this raises it). Returns the lines seen; `take` empties them.
 */
export function captureServerErrors(server: TestServer): { take(): LoggedError[] } {
  const lines: LoggedError[] = [];
  const logger = server.service.runtime.logger as unknown as Record<string | symbol, unknown> & {
    level: string;
  };
  const streamSym = Object.getOwnPropertySymbols(logger).find((s) => s.description === 'pino.stream');
  if (streamSym) {
    logger[streamSym] = {
      write(chunk: string) {
        try {
          const line = JSON.parse(chunk) as {
            reqId?: string;
            msg?: string;
            err?: { type?: string; message?: string; stack?: string };
          };
          const err = line.err
            ? `${line.err.type ?? 'Error'}: ${line.err.message ?? ''}${firstFrame(line.err.stack)}`
            : undefined;
          lines.push({
            ...(line.reqId ? { reqId: line.reqId } : {}),
            msg: line.msg ?? '',
            ...(err ? { err } : {}),
          });
        } catch {
          lines.push({ msg: String(chunk).slice(0, 500) });
        }
      },
    };
    logger.level = 'error';
  }
  return {
    take() {
      return lines.splice(0, lines.length);
    },
  };
}

function firstFrame(stack: string | undefined): string {
  const frame = stack
    ?.split('\n')
    .slice(1)
    .find((l) => !l.includes('node_modules') && !l.includes('(node:'));
  return frame ? ` (${frame.trim().replace(/^at /, 'at ')})` : '';
}
