import { describe, expect, it } from 'vitest';
import { ServiceError } from './errors.js';
import { keysetCursor } from './cursor.js';

const bookings = keysetCursor('k', { start: 'instant', id: 'id' });
const clients = keysetCursor('c', { name: 'text', id: 'id' });
const unpaid = keysetCursor('u', { due: 'date', id: 'id' });
const forged = (list: string, values: unknown) =>
  Buffer.from(`${list}:${JSON.stringify(values)}`).toString('base64url');

function refused(run: () => unknown) {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(ServiceError);
    expect((err as ServiceError).code).toBe('BAD_REQUEST');
    return;
  }
  throw new Error('expected the cursor to be refused');
}

describe('keysetCursor', () => {
  it('gives back the key it was made from, parts in their kinds', () => {
    const start = new Date('2026-03-11T08:30:00.000Z');
    expect(bookings.after(bookings.of({ start, id: 'bkg_1' }))).toEqual({ start, id: 'bkg_1' });
    expect(clients.after(clients.of({ name: 'anele "ace" dlamini', id: 'cli_2' }))).toEqual({
      name: 'anele "ace" dlamini',
      id: 'cli_2',
    });
    expect(unpaid.after(unpaid.of({ due: '2026-03-01', id: 'cli_3' }))).toEqual({
      due: '2026-03-01',
      id: 'cli_3',
    });
    expect(bookings.after(undefined)).toBeUndefined();
  });

  it("refuses another list's cursor, a changed one, and parts that are not of their kind", () => {
    const ofClients = clients.of({ name: 'a', id: 'cli_1' });
    refused(() => bookings.after(ofClients));
    refused(() => bookings.after('not a cursor'));
    refused(() => bookings.after(''));
    refused(() => bookings.after(forged('k', ['2026-02-30T08:00:00Z', 'bkg_1'])));
    refused(() => bookings.after(forged('k', ['yesterday', 'bkg_1'])));
    refused(() => bookings.after(forged('k', ['2026-03-11T08:00:00Z', "bkg'; drop"])));
    refused(() => bookings.after(forged('k', ['2026-03-11T08:00:00Z'])));
    refused(() => bookings.after(forged('k', { start: '2026-03-11T08:00:00Z', id: 'x' })));
    refused(() => unpaid.after(forged('u', ['2026-3-1', 'cli_1'])));
    refused(() => unpaid.after(forged('u', ['2026-02-30', 'cli_1'])));
    refused(() => clients.after(forged('c', ['\u0000', 'cli_1'])));
    refused(() => clients.after(forged('c', ['\ud800', 'cli_1'])));
    refused(() => clients.after(forged('c', ['x'.repeat(401), 'cli_1'])));
    refused(() => clients.after(forged('c', [1, 'cli_1'])));
  });
});
