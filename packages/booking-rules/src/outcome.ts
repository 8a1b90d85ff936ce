// Internal helpers for building outcomes. Not exported from the package.
import type { BookingState, Outcome, Refusal, RefusalCode } from './types.js';

/** A fresh copy, Dates included, so no caller ever shares (and mutates) our result or its input. */
export function copyState(state: BookingState): BookingState {
  return {
    status: state.status,
    paymentStatus: state.paymentStatus,
    paymentMethod: state.paymentMethod,
    start: new Date(state.start.getTime()),
    end: new Date(state.end.getTime()),
  };
}

export function accept(state: BookingState, changes: Partial<BookingState> = {}): Outcome {
  return { ok: true, state: copyState({ ...state, ...changes }) };
}

export function refuse(code: RefusalCode, message: string): Refusal {
  return { ok: false, code, message };
}

/** `end` after `start`, both real times; a caller's bug otherwise, so it throws rather than refuses. */
export function assertTimeRange(start: Date, end: Date, what: string): void {
  if (!(end.getTime() > start.getTime())) {
    throw new RangeError(`${what}: end must be after start (start ${String(start)}, end ${String(end)}).`);
  }
}
