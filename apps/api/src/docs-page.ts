/// <reference path="./swagger-ui-dist.d.ts" />
import express, { type Router } from 'express';
import swaggerUi from 'swagger-ui-dist';

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>NogPets API reference</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="reference"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>`;

// Kept out of the HTML so that a strict Content-Security-Policy (no inline scripts) holds.
const INIT = `window.ui = SwaggerUIBundle({ url: '/v1/openapi.json', dom_id: '#reference', deepLinking: true, tryItOutEnabled: true });`;

/** The interactive API reference, served from our own host (no CDN) and read from /v1/openapi.json. */
export function docsRouter(): Router {
  const router = express.Router();
  router.get('/', (_req, res) => {
    res.setHeader(
      'Content-Security-Policy',
      "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; base-uri 'none'; object-src 'none'; frame-ancestors 'none'",
    );
    res.type('html').send(PAGE);
  });
  router.get('/init.js', (_req, res) => {
    res.type('application/javascript').send(INIT);
  });
  router.use('/assets', express.static(swaggerUi.getAbsoluteFSPath(), { index: false, maxAge: '1h' }));
  return router;
}
