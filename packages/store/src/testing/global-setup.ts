import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '../embedded.js';
import type { TestProject } from 'vitest/node';
import './provided.js';

/**
 * Starts one embedded PostgreSQL for the whole test run. With `DATABASE_URL` set it is started
 * only when the run asks for both servers (`NOGPETS_TEST_BOTH_DATABASES=1`, set by the store's
 * config), so that the store and migration tests always cover the embedded path too.
 */
export default async function setup(project: TestProject) {
  const needEmbedded = !process.env.DATABASE_URL || project.config.env?.NOGPETS_TEST_BOTH_DATABASES === '1';
  if (!needEmbedded) {
    project.provide('embeddedServerUrl', '');
    return;
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'nogpets-test-pg-'));
  // mkdtemp makes a 0700 directory; PostgreSQL runs as another user when we are root.
  await chmod(dir, 0o755);
  const server = await startEmbeddedPostgres({ dataDir: path.join(dir, 'pg'), ephemeral: true });
  project.provide('embeddedServerUrl', server.url);
  return async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  };
}
