import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './env.js';

describe('loadConfig', () => {
  it('works untouched: every setting has a default that runs the embedded setup', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 3000, LOG_LEVEL: 'info', RUN_WORKER: true, TRUST_PROXY: false });
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('reads numbers and switches from text', () => {
    const config = loadConfig({ PORT: '8080', RUN_WORKER: 'false', TRUST_PROXY: '1', RATE_LIMIT_POINTS: '5' });
    expect(config).toMatchObject({ PORT: 8080, RUN_WORKER: false, TRUST_PROXY: true, RATE_LIMIT_POINTS: 5 });
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
    ['METRICS_TOKEN', 'too-short'],
    ['METRICS_TOKEN', 'has a space in it somewhere'],
  ])('refuses %s=%s, naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    try {
      loadConfig({ [name]: value });
    } catch (err) {
      expect((err as ConfigError).message).toContain(`- ${name}: `);
    }
  });
});
