// The `next`/`cursor` of the Run lists: the key of a page's last row, opaque to the caller, checked
// part by part when it comes back, so a cursor this list did not give is a 400, never a failed query.
import { ServiceError } from './errors.js';
import { unstorableReason } from './text.js';

/** One part of a list's key: an instant, a local date (YYYY-MM-DD), a text (a name), or an id. */
export type KeyPart = 'instant' | 'date' | 'text' | 'id';

type KeyOf<S extends Record<string, KeyPart>> = { [K in keyof S]: S[K] extends 'instant' ? Date : string };

const ID = /^[A-Za-z0-9_-]{1,128}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;
const MAX_TEXT = 400;

/** Reads one part as it was written, or null when it is not one. */
function partOf(kind: KeyPart, value: unknown): Date | string | null {
  if (typeof value !== 'string') return null;
  switch (kind) {
    case 'instant': {
      // Date rolls 30 February over to March: a real instant reads back as written.
      const at = INSTANT.test(value) ? new Date(value) : null;
      return at && !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 19) === value.slice(0, 19)
        ? at
        : null;
    }
    case 'date':
      return DATE.test(value) && partOf('instant', `${value}T00:00:00Z`) !== null ? value : null;
    case 'id':
      return ID.test(value) ? value : null;
    case 'text':
      return value.length <= MAX_TEXT && unstorableReason(value) === null ? value : null;
  }
}

export interface KeysetCursor<S extends Record<string, KeyPart>> {
  /** The cursor of a page whose last row has this key. */
  of(key: KeyOf<S>): string;
  /** The key a cursor holds; undefined without a cursor; 400 for one this list did not give. */
  after(cursor: string | undefined): KeyOf<S> | undefined;
}

/**
 * The cursor of one list (`list` tells lists apart: one list's cursor is refused by another) over a
 * key of the named parts, in their order.
 */
export function keysetCursor<S extends Record<string, KeyPart>>(list: string, shape: S): KeysetCursor<S> {
  const names = Object.keys(shape) as (keyof S & string)[];
  const refused = () =>
    new ServiceError('BAD_REQUEST', 'cursor: send back the `next` of an earlier answer unchanged.', {
      fields: [{ field: 'cursor', message: 'not a cursor this list gave' }],
    });
  return {
    of(key) {
      const values = names.map((n) => {
        const v = key[n] as Date | string;
        return v instanceof Date ? v.toISOString() : v;
      });
      return Buffer.from(`${list}:${JSON.stringify(values)}`).toString('base64url');
    },
    after(cursor) {
      if (cursor === undefined) return undefined;
      const text = Buffer.from(cursor, 'base64url').toString('utf8');
      if (!text.startsWith(`${list}:`)) throw refused();
      let values: unknown;
      try {
        values = JSON.parse(text.slice(list.length + 1));
      } catch {
        throw refused();
      }
      if (!Array.isArray(values) || values.length !== names.length) throw refused();
      const key: Record<string, Date | string> = {};
      for (const [i, n] of names.entries()) {
        const part = partOf(shape[n]!, values[i]);
        if (part === null) throw refused();
        key[n] = part;
      }
      return key as KeyOf<S>;
    },
  };
}
