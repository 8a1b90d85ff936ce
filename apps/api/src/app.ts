import { operations as allOperations, type Operation } from '@nogpets/operations';
import { jsonBody, type Runtime } from '@nogpets/platform';
import type { Express } from 'express';
import { docsRouter } from './docs-page.js';
import { createOpenApiDocument } from './openapi.js';
import { operationsRouter } from './routes.js';

export interface MountApiOptions {
  operations?: readonly Operation[];
  /** Server URL written into the OpenAPI document (read when the document is first asked for). */
  publicUrl: () => string;
}

/** Mounts `/v1` (every operation), `/v1/openapi.json` and the API reference at `/docs`. */
export function mountApi(app: Express, runtime: Runtime, options: MountApiOptions): void {
  const operations = options.operations ?? allOperations;
  let document: ReturnType<typeof createOpenApiDocument> | undefined;
  app.get('/v1/openapi.json', (_req, res) => {
    document ??= createOpenApiDocument(operations, options.publicUrl());
    res.json(document);
  });
  app.use('/docs', docsRouter());
  app.use('/v1', runtime.rateLimiter.middleware, jsonBody);
  app.use(operationsRouter(runtime, operations));
}
