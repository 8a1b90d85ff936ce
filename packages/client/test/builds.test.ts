import { execFileSync } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Options } from 'tsup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import config from '../tsup.config.ts';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Inside the package, so the builds find openapi-fetch in its node_modules as the published one would.
const out = path.join(dir, 'node_modules/.cache/builds-test');

/**
 * Loads a build in a Node process of its own (require() with require(esm) off for the CommonJS
 * one), makes a client with a fetch that records, sends one booking and answers what was sent.
 */
function sendWith(
  file: string,
  format: 'cjs' | 'esm',
): { method: string; url: string; auth: string; key: string } {
  const load =
    format === 'cjs'
      ? `const { createNogPetsClient } = require(${JSON.stringify(file)});`
      : `const { createNogPetsClient } = await import(${JSON.stringify(file)});`;
  const script = `${format === 'cjs' ? '(async () => {' : ''}
${load}
let sent;
const api = createNogPetsClient({
  baseUrl: 'http://localhost:3000',
  token: 'npk_test',
  fetch: async (request) => {
    sent = { method: request.method, url: request.url, auth: request.headers.get('authorization'), key: request.headers.get('idempotency-key') };
    return new Response('{}', { status: 201, headers: { 'content-type': 'application/json' } });
  },
});
await api.POST('/v1/bookings', { body: {} });
console.log(JSON.stringify(sent));
${format === 'cjs' ? '})().catch((e) => { console.error(e); process.exit(1); });' : ''}`;
  const args =
    format === 'cjs'
      ? ['--no-experimental-require-module', '-e', script]
      : ['--input-type=module', '-e', script];
  return JSON.parse(execFileSync(process.execPath, args, { cwd: dir, encoding: 'utf8' }));
}

describe('the builds of tsup.config.ts', () => {
  beforeAll(async () => {
    const options = config as Options;
    await rm(out, { recursive: true, force: true });
    await mkdir(out, { recursive: true });
    await build({
      ...options,
      entry: (options.entry as string[]).map((e) => path.join(dir, e)),
      outDir: out,
      dts: false,
      sourcemap: false,
      silent: true,
      config: false,
    });
  });
  afterAll(() => rm(out, { recursive: true, force: true }));

  for (const [format, file] of [
    ['cjs', 'index.cjs'],
    ['esm', 'index.js'],
  ] as const) {
    it(`the ${format} build makes a working client: Bearer key and Idempotency-Key on a booking`, () => {
      const sent = sendWith(path.join(out, file), format);
      expect(sent).toMatchObject({
        method: 'POST',
        url: 'http://localhost:3000/v1/bookings',
        auth: 'Bearer npk_test',
      });
      expect(sent.key).toMatch(/^[0-9a-f-]{36}$/);
    });
  }
});
