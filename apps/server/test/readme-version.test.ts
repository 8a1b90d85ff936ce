// The README says which version of the interface a server serves: the version in
// its opening lines is the one /v1/openapi.json and the MCP server's initialize answer give, so a
// release that moves the version and forgets the README fails here.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';

const readme = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../README.md');

describe("the README's version", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.stop());

  it('is the version the OpenAPI document and the MCP server serve', async () => {
    const text = await readFile(readme, 'utf8');
    const said = /The interface is OpenAPI 3\.1, version (\d+\.\d+\.\d+)/.exec(text)?.[1];
    expect(said, 'README: "The interface is OpenAPI 3.1, version X.Y.Z"').toBeDefined();
    const doc = (await server.get('/v1/openapi.json')).body;
    expect(said).toBe(doc.info.version);
    const client = await server.mcp();
    expect(said).toBe(client.getServerVersion()?.version);
  });
});
