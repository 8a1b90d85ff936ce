import { describe, expect, it } from 'vitest';
import { EVENT_CATALOG, EVENT_TYPES, type EventType } from './catalog.js';
import { operations } from '../registry.js';

/**
 * Types written outside operations, so that no operation's `events` need name them: by NogPets'
 * operator (console or CLI, `operatorSource`), by the worker's jobs (`systemSource`) or by the
 * payment gateway's notifications. A type listed here may be written by operations too. Every
 * type of the catalog is declared by an operation or listed here, so none is written by nobody.
 */
const WRITTEN_OUTSIDE_OPERATIONS: Partial<Record<EventType, string>> = {
  // The gateway's signed notification settles a card payment (payments/settle.ts).
  'booking.paid': "the payment gateway's notification of a card payment",
  'booking.expired': 'the worker, when an unpaid hold lapses',
  'booking.reminder_due': 'the worker, the evening before a confirmed booking',
  'booking.payment_due': "the worker, six hours before an unpaid card booking's hold ends",
  'order.payment_due': "the worker, six hours before an unpaid order's pay link lapses",
  // Confirmed money that no booking takes any more (the booking lapsed or was cancelled meanwhile).
  'booking.refund_due': "the payment gateway's notification of money no booking takes",
  'order.paid': "the payment gateway's notification of a card payment for an order",
  // A whole payment no booking or order takes (paid twice, the order closed meanwhile).
  'payment.refund_due': "the payment gateway's notification of money nothing takes",
  // The operator packs and ships the shop's orders (shop/operator.ts moveOrder: console and CLI).
  'order.shipped': 'the operator, marking an order shipped',
  'order.delivered': 'the operator, marking an order delivered',
  // The operator cancels an order (moveOrder); the worker cancels a `visit` order whose booking is
  // gone (releaseStrandedVisitOrders). No operation cancels an order.
  'order.cancelled': "the operator, or the worker when a visit order's booking is gone",
  // The operator's review of an application (console and CLI).
  'application.approved': "the operator's review",
  'application.rejected': "the operator's review",
  // The operator records what was paid to a business.
  'payout.paid': 'the operator, recording a payout',
};

describe('the events operations declare', () => {
  it('every change operation declares its events (an empty list when none)', () => {
    const missing = operations
      .filter((op) => op.annotations.readOnlyHint === false && !Array.isArray(op.events))
      .map((op) => op.operationId);
    expect(
      missing,
      `These change operations do not declare \`events\` (add \`events: [...]\`, or \`events: []\` when they write none): ${missing.join(', ')}`,
    ).toEqual([]);
  });

  it('a read-only operation writes no events', () => {
    const reading = operations
      .filter((op) => op.annotations.readOnlyHint && (op.events?.length ?? 0) > 0)
      .map((op) => `${op.operationId}: ${op.events!.join(', ')}`);
    expect(reading, `Read-only operations that declare events: ${reading.join('; ')}`).toEqual([]);
  });

  it('every declared type is in the catalog, once per operation', () => {
    const unknown = operations.flatMap((op) =>
      (op.events ?? []).filter((t) => !(t in EVENT_CATALOG)).map((t) => `${op.operationId}: ${t}`),
    );
    expect(unknown, `Declared event types not in the catalog: ${unknown.join('; ')}`).toEqual([]);
    const twice = operations
      .filter((op) => new Set(op.events ?? []).size !== (op.events ?? []).length)
      .map((op) => op.operationId);
    expect(twice, `Operations that declare a type twice: ${twice.join(', ')}`).toEqual([]);
  });

  it('every type of the catalog is declared by an operation or written outside operations', () => {
    const declared = new Set(operations.flatMap((op) => op.events ?? []));
    const outside = Object.keys(WRITTEN_OUTSIDE_OPERATIONS).filter((t) => !(t in EVENT_CATALOG));
    expect(
      outside,
      `Listed as written outside operations but not in the catalog: ${outside.join(', ')}`,
    ).toEqual([]);
    const nobody = EVENT_TYPES.filter((t) => !declared.has(t) && !(t in WRITTEN_OUTSIDE_OPERATIONS));
    expect(
      nobody,
      `Event types no operation declares and none is listed as written outside operations: ${nobody.join(', ')}`,
    ).toEqual([]);
  });
});
