/**
 * The call an internal operation is running, for code below it that is handed only `deps` (the
 * functions the worker's jobs and the operator's commands wrap): the events they write carry the
 * call's id, so the events check under CHECK_OUTPUTS holds them to the operation's list as well.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const current = new AsyncLocalStorage<{ callId: string }>();

export function withinCall<T>(callId: string, fn: () => T): T {
  return current.run({ callId }, fn);
}

/** The id of the internal operation's call this code runs in, if any. */
export function currentCallId(): string | null {
  return current.getStore()?.callId ?? null;
}
