import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixedClock } from '@nogpets/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, newPetOwner, startTestServer, type TestServer } from './harness.js';
import {
  checked,
  checkoutForm,
  MERCHANT_ID,
  MERCHANT_KEY,
  notifyAndCheck,
  type StandIn,
  startPayFastStandIn,
} from './payfast-stand-in.js';

/**
 * PayFast as most accounts run it: no passphrase, PayFast's published source ranges (the default),
 * behind one proxy (`TRUST_PROXY=true`). And the settings the service refuses to start with.
 */
describe('PayFast without a passphrase, with the default sources, behind one proxy', () => {
  let payfast: StandIn;
  let server: TestServer;
  let key: string;
  let petId: string;
  let addressId: string;
  const clock = fixedClock('2026-11-23T04:00:00Z');
  const as = () => ({ authorization: `Bearer ${key}` });

  beforeAll(async () => {
    payfast = await startPayFastStandIn(null);
    server = await startTestServer({
      clock,
      database: { demoDataAt: clock.now() },
      env: {
        PAYMENT_GATEWAY: 'payfast',
        PAYFAST_MERCHANT_ID: MERCHANT_ID,
        PAYFAST_MERCHANT_KEY: MERCHANT_KEY,
        PAYFAST_URL: payfast.url,
        TRUST_PROXY: 'true',
      },
    });
    ({ key, petId, addressId } = await newPetOwner(server, {
      email: 'sipho@example.com',
      pet: { name: 'Bella', weightKg: 8 },
      line1: '3 Ryneveld Street',
    }));
  });
  afterAll(async () => {
    await server?.stop();
    await payfast?.close();
  });

  it("signs the checkout without a passphrase; takes ITNs from PayFast's ranges only, from the address the proxy saw", async () => {
    const body = { category: 'grooming', addressId, pets: [{ petId, serviceIds: ['groom-dog-bath'] }] };
    const found = await server.post(
      '/v1/availability',
      { ...body, from: '2026-12-01', to: '2026-12-01' },
      as(),
    );
    const slot = found.body.days[0].slots[0];
    const booked = (
      await server.post(
        '/v1/bookings',
        { ...body, start: slot.start, resourceId: slot.resourceId, paymentMethod: 'CARD' },
        as(),
      )
    ).body;
    const checkout = await checkoutForm(booked.payUrl);
    const state = async () => (await server.get(`/v1/bookings/${booked.bookingId}`, as())).body;

    // PayFast takes the form (its signature, without a passphrase, matches) and posts the ITN
    // from loopback, straight, not through the proxy: not one of PayFast's published ranges.
    const res = await fetch(`${payfast.url}/eng/process`, {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams(checkout),
    });
    expect(res.status).toBe(302);
    const [direct] = await server.db.sql<
      { id: string }[]
    >`select id from payment_notices where body like ${`m_payment_id=${checkout.m_payment_id}&%`}`;
    expect(await checked(server, direct!.id)).toMatchObject({
      state: 'PROBLEM',
      outcome: 'REJECTED: not from PayFast (127.0.0.1)',
    });
    expect(await state()).toMatchObject({ paymentStatus: 'PENDING' });

    // A client writes the left-most X-Forwarded-For; one trusted hop reads the address our proxy saw.
    const real = payfast.itn(checkout);
    payfast.sent.add(real.params);
    expect(
      await notifyAndCheck(server, real.body, '127.0.0.1', { 'x-forwarded-for': '197.97.145.145, 10.1.1.1' }),
    ).toMatchObject({
      state: 'PROBLEM',
      outcome: 'REJECTED: not from PayFast (10.1.1.1)',
    });
    expect(await state()).toMatchObject({ paymentStatus: 'PENDING' });
    expect(
      await notifyAndCheck(server, real.body, '127.0.0.1', { 'x-forwarded-for': '197.97.145.145' }),
    ).toMatchObject({ state: 'DONE', outcome: 'APPLIED' });
    expect(await state()).toMatchObject({ status: 'ACCEPTED', paymentStatus: 'PAID' });

    const problems = await cli(server.db.url, ['payments', 'problems']);
    expect(problems.status, problems.stderr).toBe(0);
    expect(problems.stdout).toMatch(
      new RegExp(
        `^${direct!.id}\\t\\S+\\t127\\.0\\.0\\.1\\t${checkout.m_payment_id}\\tpayfast \\d+\\tR\\d+\\tREJECTED: not from PayFast \\(127\\.0\\.0\\.1\\)$`,
        'm',
      ),
    );
    expect(problems.stdout).toContain('REJECTED: not from PayFast (10.1.1.1)');
  });
});

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Starts the server as `pnpm start` does, with `env` over a clean PayFast setting; its exit code and stderr. */
function startServer(env: Record<string, string>): Promise<{ status: number | null; stderr: string }> {
  const e: NodeJS.ProcessEnv = { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...env };
  for (const name of ['PUBLIC_URL', 'PAYFAST_PASSPHRASE', 'PAYFAST_SOURCES', 'npm_lifecycle_event'])
    if (!(name in env)) delete e[name];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: serverDir, env: e });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    // A start that got past the configuration would keep running: stop it and say so.
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stderr });
    });
  });
}

describe('PayFast settings the service refuses to start with', () => {
  it('exits 78 (EX_CONFIG) naming the reason: the sandbox merchant live without a public https address; plain http to PayFast', async () => {
    const live = await startServer({
      PAYMENT_GATEWAY: 'payfast',
      PAYFAST_MERCHANT_ID: MERCHANT_ID,
      PAYFAST_MERCHANT_KEY: MERCHANT_KEY,
      PAYFAST_URL: 'https://www.payfast.co.za',
    });
    expect(live.status).toBe(78);
    expect(live.stderr).toMatch(
      /- PAYFAST_MERCHANT_ID: PayFast's sandbox merchant cannot take live payments/,
    );
    expect(live.stderr).toMatch(
      /- PUBLIC_URL: live PayFast payments need the service's public https address/,
    );
    const plain = await startServer({
      PAYMENT_GATEWAY: 'payfast',
      PAYFAST_MERCHANT_ID: MERCHANT_ID,
      PAYFAST_MERCHANT_KEY: MERCHANT_KEY,
      PAYFAST_URL: 'http://sandbox.payfast.co.za',
    });
    expect(plain.status).toBe(78);
    expect(plain.stderr).toMatch(/- PAYFAST_URL: must be https/);
  });
});
