import { describe, expect, it } from 'vitest';
import { loggableUrl } from './http.js';

describe('loggableUrl', () => {
  it.each([
    ['/signin/email?token=secret123', '/signin/email?[query]'],
    ['/signin/oidc/callback?code=abc&state=def', '/signin/oidc/callback?[query]'],
    ['/pay/npl_secret', '/pay/[token]'],
    ['/pay/npl_secret/done', '/pay/[token]/done'],
    ['/v1/bookings/bkg_1', '/v1/bookings/bkg_1'],
  ])('logs %s as %s: no link token, code or pay secret', (url, logged) => {
    expect(loggableUrl(url)).toBe(logged);
  });
});
