// The pure rules of webhooks: which addresses may receive them, the retry schedule (about three
// days), which endpoints want which events, and the signature a receiver checks.
import type { DomainEventRow, WebhookEndpointRow } from '@nogpets/store';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import {
  addressProblem,
  afterFailure,
  endpointWants,
  MAX_WEBHOOK_ATTEMPTS,
  newWebhookSecret,
  RETRY_DELAYS_MS,
  signedHeaders,
  webhookPayload,
} from './index.js';

const HOUR = 3_600_000;

const event = (over: Partial<DomainEventRow> = {}): DomainEventRow => ({
  seq: 1,
  id: 'evt_1',
  type: 'booking.created',
  version: 1,
  occurredAt: new Date('2026-11-23T04:00:00Z'),
  businessId: 'biz_a',
  personId: 'usr_p',
  subjectKind: 'booking',
  subjectId: 'bkg_1',
  actor: { kind: 'person', userId: 'usr_p', clientName: null },
  data: { booking: { bookingId: 'bkg_1' } },
  operation: 'book',
  requestId: null,
  callId: null,
  ...over,
});

const endpoint = (over: Partial<WebhookEndpointRow>): WebhookEndpointRow => ({
  id: 'whe_1',
  businessId: null,
  personId: null,
  url: 'https://hooks.example.com/',
  description: null,
  eventTypes: ['*'],
  status: 'ENABLED',
  disabledAt: null,
  disabledReason: null,
  lastSuccessAt: null,
  createdBy: null,
  createdAt: new Date(),
  ...over,
});

describe('webhook addresses', () => {
  it.each([
    ['93.184.216.34', false, null],
    ['2606:2800:220:1:248:1893:25c8:1946', false, null],
    ['127.0.0.1', false, 'loopback'],
    ['127.0.0.1', true, null],
    ['::1', true, null],
    ['10.0.0.1', true, 'private'],
    ['172.16.5.4', false, 'private'],
    ['192.168.1.1', false, 'private'],
    ['169.254.169.254', true, 'linkLocal'],
    ['100.64.0.1', false, 'carrierGradeNat'],
    ['fd00::1', false, 'uniqueLocal'],
    ['fe80::1', false, 'linkLocal'],
    ['::ffff:10.0.0.1', false, 'private'],
    ['::ffff:127.0.0.1', false, 'loopback'],
    ['0.0.0.0', true, 'unspecified'],
    ['224.0.0.1', false, 'multicast'],
    ['not-an-ip', false, 'not an address'],
  ])('%s (loopback allowed: %s): %s', (address, allowLoopback, problem) => {
    const found = addressProblem(address, allowLoopback);
    if (problem === null) expect(found).toBeNull();
    else expect(found).toContain(problem);
  });
});

describe('the retry schedule', () => {
  it('tries 13 times over about three days, waits growing from 5 s to 10 h, then gives up', () => {
    expect(MAX_WEBHOOK_ATTEMPTS).toBe(13);
    const total = RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(72 * HOUR);
    expect(total).toBeLessThan(84 * HOUR);
    const now = new Date('2026-11-23T04:00:00Z');
    expect(afterFailure(1, now)).toEqual({
      status: 'PENDING',
      nextAttemptAt: new Date(now.getTime() + 5000),
    });
    expect(afterFailure(12, now).status).toBe('PENDING');
    expect(afterFailure(13, now)).toEqual({ status: 'FAILED', nextAttemptAt: null });
  });
});

describe('which endpoints want an event', () => {
  it("a business's endpoints: its own events of the chosen types", () => {
    const mine = endpoint({ businessId: 'biz_a', eventTypes: ['booking.created'] });
    expect(endpointWants(mine, event())).toBe(true);
    expect(endpointWants(mine, event({ type: 'booking.cancelled' }))).toBe(false);
    expect(endpointWants(mine, event({ businessId: 'biz_b' }))).toBe(false);
    expect(endpointWants(endpoint({ businessId: 'biz_a' }), event({ type: 'payout.paid' }))).toBe(true);
  });

  it("a person's endpoints: only their own bookings' and orders' events", () => {
    const theirs = endpoint({ personId: 'usr_p' });
    expect(endpointWants(theirs, event())).toBe(true);
    expect(endpointWants(theirs, event({ type: 'order.shipped' }))).toBe(true);
    expect(endpointWants(theirs, event({ personId: 'usr_q' }))).toBe(false);
    expect(endpointWants(theirs, event({ type: 'application.approved' }))).toBe(false);
  });
});

describe('the signature', () => {
  it('verifies with standardwebhooks under the endpoint secret, and not under another', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const body = webhookPayload(event());
    const headers = signedHeaders(secret, 'evt_1', body, new Date());
    expect(headers['webhook-id']).toBe('evt_1');
    expect(new Webhook(secret).verify(body, headers)).toMatchObject({
      type: 'booking.created',
      timestamp: '2026-11-23T04:00:00.000Z',
      data: { id: 'evt_1', subject: { kind: 'booking', id: 'bkg_1' } },
    });
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow();
  });
});
