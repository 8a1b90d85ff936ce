// The package's public surface: operations (public and internal) and their types, the door that
// runs them, what a process needs to wire them, and words and checks that read no state. A plain
// function that reads or writes through `deps` is not in it: apps run operations through
// runOperation, and tests reach the functions under them through `@nogpets/operations/testing`.
import { describe, expect, it } from 'vitest';
import * as surface from './index.js';
import * as testing from './testing.js';

/** Run, define and check operations, and tell a credential's or an input's problems. */
const DOOR = [
  'accountPageContext',
  'actorName',
  'authenticate',
  'defineInternalOperation',
  'defineOperation',
  'fieldProblems',
  'insufficientScope',
  'isInternal',
  'parseInput',
  'runOperation',
  'scopesOn',
  'statedClientName',
  'toServiceError',
  'unstorableTextError',
];
/** What a process builds once and puts in `deps`: gateways, the offer cache, towns. */
const WIRING = [
  'createOfferCache',
  'createPayFastGateway',
  'createSandboxGateway',
  'loadGeoData',
  'payfastSettingProblems',
];
/** Pure words and checks the pages share with operations: no `deps`, no state. */
const WORDS = [
  'confirmSummary',
  'consoleReviewer',
  'cutText',
  'dayText',
  'envelopeOf',
  'findUnstorableText',
  'isEmailAddress',
  'isScope',
  'momentText',
  'noticeAmount',
  'parseSaidPrice',
  'passwordProblem',
  'paymentWords',
  'statusWords',
  'stillNeeded',
  'summaryOf',
  'timezoneChoices',
  'toStorableText',
  'unstorableReason',
  'weekWords',
];

const isOperation = (v: unknown) =>
  typeof v === 'object' && v !== null && 'operationId' in v && 'handler' in v;
const isClass = (v: unknown) =>
  typeof v === 'function' && /^class\b/.test(Function.prototype.toString.call(v));

describe('the public surface of @nogpets/operations', () => {
  it('exports no plain function but the door, the wiring and pure words', () => {
    const functions = Object.entries(surface)
      .filter(([, v]) => typeof v === 'function' && !isClass(v))
      .map(([name]) => name)
      .sort();
    expect(functions).toEqual([...DOOR, ...WIRING, ...WORDS].sort());
  });

  it('exports every operation the doors serve, and every internal one, by its definition', () => {
    const exported = new Set<unknown>(Object.values(surface).filter(isOperation));
    for (const op of surface.operations) expect(exported.has(op), op.operationId).toBe(true);
    expect(surface.internalOperations.length).toBeGreaterThan(60);
  });

  it("keeps the tests' entry apart: nothing in it is also on the public surface", () => {
    const both = Object.keys(testing).filter((name) => name in surface);
    expect(both).toEqual([]);
    expect(Object.keys(testing).length).toBeGreaterThan(0);
  });
});
