import { operations as allOperations, type Operation } from '@nogpets/operations';
import { jsonBody, requireJsonBody, type Runtime } from '@nogpets/runtime';
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
  // Built at start, so that a definition the generator cannot describe stops the start, not a request.
  const document = createOpenApiDocument(operations);
  app.get('/v1/openapi.json', (_req, res) => {
    const url = options.publicUrl();
    res.json({
      ...document,
      info: { ...document.info, contact: { ...document.info.contact, url: `${url}/docs` } },
      servers: [{ url }],
    });
  });
  app.use('/docs', docsRouter());
  app.use('/v1', (_req, res, next) => {
    res.locals.resourceMetadata = `${options.publicUrl()}/.well-known/oauth-protected-resource/v1`;
    // Answers carry people's bookings, pets and addresses: never kept by a browser or a proxy.
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  app.use('/v1', runtime.rateLimiter.middleware, requireJsonBody, jsonBody);
  app.use(operationsRouter(runtime, operations));
}
