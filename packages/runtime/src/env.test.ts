import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './env.js';
import { databaseUrlFor, poolDatabaseUrl, preparesStatements } from './runtime.js';

describe('loadConfig', () => {
  it('works untouched: every setting has a default that runs the embedded setup', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 3000, LOG_LEVEL: 'info', RUN_WORKER: true, TRUST_PROXY: 0 });
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('reads numbers and switches from text', () => {
    const config = loadConfig({
      PORT: '8080',
      RUN_WORKER: 'false',
      TRUST_PROXY: '1',
      RATE_LIMIT_POINTS: '5',
    });
    expect(config).toMatchObject({ PORT: 8080, RUN_WORKER: false, TRUST_PROXY: 1, RATE_LIMIT_POINTS: 5 });
  });

  it.each([
    ['true', 1],
    ['false', 0],
    ['0', 0],
    ['2', 2],
    ['10.0.0.0/8, 192.168.1.7', ['10.0.0.0/8', '192.168.1.7']],
    ['loopback,fd00::/8', ['loopback', 'fd00::/8']],
  ])(
    'trusts TRUST_PROXY=%s as Express "trust proxy" %o (never every proxy: the left-most X-Forwarded-For is the client\'s)',
    (value, expected) => {
      expect(loadConfig({ TRUST_PROXY: value }).TRUST_PROXY).toEqual(expected);
    },
  );

  it.each(['0.0.0.0/0', '::/0', '10.0.0.1,0.0.0.0/0', '21', 'all', '10.0.0.0/33'])(
    'refuses TRUST_PROXY=%s (every proxy, or not a proxy list)',
    (value) => {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY/);
    },
  );

  it('refuses PayFast settings that would lose money: plain http, the sandbox merchant live, live without a public https address', () => {
    const payfast = {
      PAYMENT_GATEWAY: 'payfast',
      PAYFAST_MERCHANT_ID: '10000100',
      PAYFAST_MERCHANT_KEY: '46f0cd694581a',
    };
    expect(loadConfig(payfast).PAYFAST_URL).toBe('https://sandbox.payfast.co.za');
    expect(loadConfig({ ...payfast, PAYFAST_URL: 'http://127.0.0.1:4567' }).PAYFAST_URL).toBe(
      'http://127.0.0.1:4567',
    );
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(env);
        return '';
      } catch (err) {
        return (err as ConfigError).message;
      }
    };
    expect(problems({ ...payfast, PAYFAST_URL: 'http://sandbox.payfast.co.za' })).toMatch(
      /- PAYFAST_URL: must be https/,
    );
    expect(
      problems({ ...payfast, PAYFAST_URL: 'https://www.payfast.co.za', PUBLIC_URL: 'https://pets.example' }),
    ).toMatch(/- PAYFAST_MERCHANT_ID: PayFast's sandbox merchant/);
    const live = {
      PAYMENT_GATEWAY: 'payfast',
      PAYFAST_MERCHANT_ID: '1234567',
      PAYFAST_MERCHANT_KEY: 'abcdef',
      PAYFAST_URL: 'https://www.payfast.co.za',
    };
    expect(problems(live)).toMatch(/- PUBLIC_URL: live PayFast payments need/);
    expect(problems({ ...live, PUBLIC_URL: 'http://pets.example' })).toMatch(
      /- PUBLIC_URL: live PayFast payments need/,
    );
    expect(problems({ ...live, PUBLIC_URL: 'https://pets.example' })).toBe('');
    // The sandbox gateway ignores PayFast's settings.
    expect(problems({ PAYFAST_URL: 'http://sandbox.payfast.co.za' })).toBe('');
  });

  it('reads DB_PREPARE and MIGRATE, for a pooler in transaction mode and a release step', () => {
    expect(loadConfig({})).toMatchObject({ DB_PREPARE: true, MIGRATE: true });
    expect(loadConfig({ DB_PREPARE: 'false', MIGRATE: 'false' })).toMatchObject({
      DB_PREPARE: false,
      MIGRATE: false,
    });
    expect(loadConfig({ MIGRATE: 'only' }).MIGRATE).toBe('only');
    expect(loadConfig({ MIGRATE: 'yes' }).MIGRATE).toBe(true);
  });

  it('turns prepared statements off through the URL postgres.js reads, keeping the rest of it', () => {
    const url = 'postgres://app:s%40cret@db.internal:6432/nogpets?sslmode=require';
    expect(databaseUrlFor(url, true)).toBe(url);
    const off = new URL(databaseUrlFor(url, false));
    expect(off.searchParams.get('prepare')).toBe('false');
    expect(off.searchParams.get('sslmode')).toBe('require');
    expect([off.username, decodeURIComponent(off.password), off.host, off.pathname]).toEqual([
      'app',
      's@cret',
      'db.internal:6432',
      '/nogpets',
    ]);
  });

  it('takes prepare=false (or disable) in DATABASE_URL, as postgres.js does, for every pool', () => {
    const at = (url?: string, setting?: string) =>
      loadConfig({ ...(url ? { DATABASE_URL: url } : {}), ...(setting ? { DB_PREPARE: setting } : {}) });
    expect(preparesStatements(at())).toBe(true);
    expect(preparesStatements(at('postgres://db/nogpets?sslmode=require'))).toBe(true);
    expect(preparesStatements(at('postgres://db/nogpets?prepare=false'))).toBe(false);
    expect(preparesStatements(at('postgres://db/nogpets?prepare=disable'))).toBe(false);
    expect(preparesStatements(at('postgres://db/nogpets?prepare=true', 'false'))).toBe(false);
    // DB_PREPARE=false wins over a prepare=true already in the URL.
    expect(new URL(poolDatabaseUrl(at('postgres://db/nogpets?prepare=true', 'false'))!).search).toBe(
      '?prepare=false',
    );
    expect(poolDatabaseUrl(at(undefined, 'false'))).toBeUndefined();
  });

  it('reads ALLOWED_HOSTS and ALLOWED_ORIGINS as comma lists, normalised as requests are compared', () => {
    expect(loadConfig({}).ALLOWED_HOSTS).toEqual([]);
    expect(loadConfig({}).ALLOWED_ORIGINS).toEqual([]);
    expect(
      loadConfig({ ALLOWED_HOSTS: ' Pets.Example , 10.0.0.5,::1,[::2], internal.' }).ALLOWED_HOSTS,
    ).toEqual(['pets.example', '10.0.0.5', '[::1]', '[::2]', 'internal']);
    expect(
      loadConfig({ ALLOWED_ORIGINS: 'https://App.Example/, http://localhost:6274, https://x.example:443' })
        .ALLOWED_ORIGINS,
    ).toEqual(['https://app.example', 'http://localhost:6274', 'https://x.example']);
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ DATABASE_URL: '' }).DATABASE_URL).toBeUndefined();
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://localhost/db'],
    ['PUBLIC_URL', 'not a url'],
    ['LOG_LEVEL', 'loud'],
    ['RUN_WORKER', 'maybe'],
    ['DB_PREPARE', 'off'],
    ['MIGRATE', 'later'],
    ['METRICS_TOKEN', 'too-short'],
    ['METRICS_TOKEN', 'has a space in it somewhere'],
    ['TRUST_PROXY', 'maybe'],
    ['TRUST_PROXY', '10.0.0.0/40'],
    ['TRUST_PROXY', '500'],
    ['PAYFAST_SOURCES', '197.97.145.144/28, payfast.co.za'],
    ['ALLOWED_HOSTS', 'https://pets.example'],
    ['ALLOWED_HOSTS', 'pets.example:443'],
    ['ALLOWED_HOSTS', 'pets.example/mcp'],
    ['ALLOWED_HOSTS', 'evil@pets.example'],
    ['ALLOWED_HOSTS', '*.pets.example'],
    ['ALLOWED_ORIGINS', 'pets.example'],
    ['ALLOWED_ORIGINS', 'https://app.example/mcp'],
    ['ALLOWED_ORIGINS', 'ftp://app.example'],
  ])('refuses %s=%s, naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    try {
      loadConfig({ [name]: value });
    } catch (err) {
      expect((err as ConfigError).message).toContain(`- ${name}: `);
    }
  });
});
