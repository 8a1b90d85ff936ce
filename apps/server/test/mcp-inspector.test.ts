import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createApiKey } from '@nogpets/operations/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';

/**
 * The MCP Inspector's CLI (a client nobody here wrote) lists and calls tools on our MCP endpoints,
 * anonymous and with a credential, and reads what we answer. It is the Inspector's own CLI package
 * (@modelcontextprotocol/inspector-cli 0.22.0, what `npx @modelcontextprotocol/inspector --cli`
 * runs): the 0.15.0 Inspector, the last whose package runs on Node 20, can neither send a header
 * nor reach a path other than /mcp (docs/decisions.md, "MCP conformance suite and the Inspector CLI").
 */

const require = createRequire(import.meta.url);
const CLI_DIR = path.join(
  path.dirname(require.resolve('@modelcontextprotocol/inspector-cli/package.json')),
  'build',
);

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout as JSON, when it is. */
  // biome-ignore lint/suspicious/noExplicitAny: what the CLI printed, read as a person reads it
  json: any;
}

/**
 * `mcp-inspector --cli URL --transport http ...`. Run from its build folder: the CLI looks for its
 * own package.json by a path relative to the working directory.
 */
function inspector(url: string, args: string[], token?: string): Promise<Run> {
  const auth = token ? ['--header', `Authorization: Bearer ${token}`] : [];
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(CLI_DIR, 'index.js'), url, '--transport', 'http', ...auth, ...args],
      { cwd: CLI_DIR, timeout: 30_000, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        let json: unknown;
        try {
          json = JSON.parse(stdout);
        } catch {}
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr, json });
      },
    );
  });
}

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server?.stop();
});

describe('the MCP Inspector CLI on /mcp', () => {
  const url = () => `${server.url}/mcp`;

  it('lists the public tools with their descriptions and input schemas', async () => {
    const run = await inspector(url(), ['--method', 'tools/list']);
    expect(run.code, run.stderr).toBe(0);
    const tools = run.json.tools as { name: string; description: string; inputSchema: { type: string } }[];
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['list_services', 'check_coverage', 'get_quote', 'book']));
    // The business side lives at /mcp/business; the way into it stays here.
    expect(names).toContain('prepare_business_signup');
    expect(names).not.toContain('get_signup_status');
    expect(names).not.toContain('get_day_plan');
    for (const tool of tools) {
      expect(tool.description.length, tool.name).toBeGreaterThan(20);
      expect(tool.inputSchema.type, tool.name).toBe('object');
    }
  });

  it('calls list_services and check_coverage without a credential', async () => {
    const services = await inspector(url(), ['--method', 'tools/call', '--tool-name', 'list_services']);
    expect(services.code, services.stderr).toBe(0);
    expect(services.json.isError).toBeFalsy();
    expect(services.json.structuredContent).toMatchObject({ businessId: 'nogpets', currency: 'ZAR' });
    expect(services.json.structuredContent.lines.map((l: { label: string }) => l.label)).toEqual(
      expect.arrayContaining(['Mobile grooming']),
    );
    // The text content says the same for clients that read only text.
    expect(JSON.parse(services.json.content[0].text)).toEqual(services.json.structuredContent);

    const coverage = await inspector(url(), [
      '--method',
      'tools/call',
      '--tool-name',
      'check_coverage',
      '--tool-arg',
      'address=Dorp Street 1, Stellenbosch',
    ]);
    expect(coverage.code, coverage.stderr).toBe(0);
    expect(coverage.json.structuredContent).toMatchObject({
      covered: true,
      place: { town: 'Stellenbosch', country: 'ZA' },
    });
  });

  it('shows a refused call as the tool error with its code', async () => {
    // An address past the spec's bound: refused with the spec's error shape, as a tool error.
    const long = await inspector(url(), [
      '--method',
      'tools/call',
      '--tool-name',
      'check_coverage',
      '--tool-arg',
      `address=${'x'.repeat(1000)}`,
    ]);
    expect(long.code, long.stderr).toBe(0);
    expect(long.json.isError).toBe(true);
    expect(JSON.parse(long.json.content[0].text).error.code).toBe('BAD_REQUEST');
  });

  it('is refused a scoped tool without a credential or with too narrow a one, and served with the right one', async () => {
    const anonymous = await inspector(url(), ['--method', 'tools/call', '--tool-name', 'my_profile']);
    expect(anonymous.code).not.toBe(0);
    expect(anonymous.stderr).toContain('UNAUTHORIZED');
    expect(anonymous.stderr).toContain('scope profile');

    const narrow = await createApiKey(server.db.sql, {
      email: 'inspector@example.com',
      scopes: ['bookings:read'],
    });
    const refused = await inspector(
      url(),
      ['--method', 'tools/call', '--tool-name', 'my_profile'],
      narrow.key,
    );
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('FORBIDDEN');
    expect(refused.stderr).toContain('insufficient_scope');

    const key = await createApiKey(server.db.sql, { email: 'inspector@example.com', scopes: ['profile'] });
    const served = await inspector(url(), ['--method', 'tools/call', '--tool-name', 'my_profile'], key.key);
    expect(served.code, served.stderr).toBe(0);
    expect(served.json.structuredContent).toMatchObject({
      email: 'inspector@example.com',
      scopes: ['profile'],
    });
  });

  it("lists the journeys' prompts and gets one with its arguments", async () => {
    const listed = await inspector(url(), ['--method', 'prompts/list']);
    expect(listed.code, listed.stderr).toBe(0);
    const names = (listed.json.prompts as { name: string }[]).map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(['book_pet_care', 'move_or_cancel_booking']));
    expect(names).not.toContain('sign_up_my_business');

    const got = await inspector(url(), [
      '--method',
      'prompts/get',
      '--prompt-name',
      'book_pet_care',
      '--prompt-args',
      'kind=walking',
      'address=Dorp Street 1',
    ]);
    expect(got.code, got.stderr).toBe(0);
    const text = got.json.messages[0].content.text as string;
    expect(text).toContain('dog walk');
    expect(text).toContain('Dorp Street 1');
    expect(text).toContain('check_coverage');
  });
});

describe('the MCP Inspector CLI on /mcp/business', () => {
  const url = () => `${server.url}/mcp/business`;

  it("lists the sign-up and Run tools, and none of the pet owners'", async () => {
    const run = await inspector(url(), ['--method', 'tools/list']);
    expect(run.code, run.stderr).toBe(0);
    const names = (run.json.tools as { name: string }[]).map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'get_signup_status',
        'start_business_signup',
        'get_day_plan',
        'list_business_bookings',
      ]),
    );
    expect(names).not.toContain('list_services');
    expect(names).not.toContain('book');
  });

  it('calls get_signup_status with a business:write key, and is refused it without one', async () => {
    const anonymous = await inspector(url(), ['--method', 'tools/call', '--tool-name', 'get_signup_status']);
    expect(anonymous.code).not.toBe(0);
    expect(anonymous.stderr).toContain('UNAUTHORIZED');
    expect(anonymous.stderr).toContain('scope business:write');

    const narrow = await createApiKey(server.db.sql, {
      email: 'owner@inspector.example',
      scopes: ['profile'],
    });
    const refused = await inspector(
      url(),
      ['--method', 'tools/call', '--tool-name', 'get_signup_status'],
      narrow.key,
    );
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('insufficient_scope');

    const key = await createApiKey(server.db.sql, {
      email: 'owner@inspector.example',
      scopes: ['business:write'],
    });
    const served = await inspector(
      url(),
      ['--method', 'tools/call', '--tool-name', 'get_signup_status'],
      key.key,
    );
    expect(served.code, served.stderr).toBe(0);
    expect(served.json.isError).toBeFalsy();
    expect(served.json.structuredContent).toMatchObject({ application: null, applications: [] });
    expect(served.json.structuredContent.next).toContain('start_business_signup');
  });

  it("lists the business journeys' prompts", async () => {
    const listed = await inspector(url(), ['--method', 'prompts/list']);
    expect(listed.code, listed.stderr).toBe(0);
    const names = (listed.json.prompts as { name: string }[]).map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(['sign_up_my_business', 'run_my_day']));
    expect(names).not.toContain('book_pet_care');
  });

  it('names the other endpoint when asked for a tool it does not list', async () => {
    const run = await inspector(url(), ['--method', 'tools/call', '--tool-name', 'list_services']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.json.isError).toBe(true);
    const body = JSON.parse(run.json.content[0].text);
    expect(body.error.code).toBe('NOT_FOUND');
    expect(body.error.details.endpoint).toBe(`${server.url}/mcp`);
  });
});
