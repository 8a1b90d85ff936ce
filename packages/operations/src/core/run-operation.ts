import { createHash, randomUUID } from 'node:crypto';
import {
  askedOnPage,
  eventTypesOfCall,
  findIdempotentAnswer,
  findOpenConfirmation,
  lockIdempotencyKey,
  type Sql,
  saveIdempotentAnswer,
  transaction,
  useConfirmation,
} from '@nogpets/store';
import stringify from 'safe-stable-stringify';
import type { z } from 'zod';
import type { AgreementCall } from './agreement.js';
import { withinCall } from './call-scope.js';
import { insufficientScope } from './auth.js';
import { askOnPage } from './confirm.js';
import { actorName, type OperationContext } from './context.js';
import { type AnyOperation, isInternal, type Operation } from './define.js';
import { type ErrorCode, ServiceError } from './errors.js';
import { offersThrough } from './ports.js';
import { IDEMPOTENCY_KEY } from './schemas.js';
import { findUnstorableText, type TextProblem } from './text.js';

export interface FieldProblem {
  field: string;
  message: string;
}

type Issue = z.core.$ZodIssue;

/**
 * An input that matches no branch of a union (a pet given by value or by `petId`) is reported as
 * the branch it came closest to: the one with the fewest problems, so `weightKg: "12"` says
 * "pets.0.weightKg: expected number", not "pets.0: Invalid input".
 */
function closestIssues(issue: Issue, base: PropertyKey[] = []): { path: PropertyKey[]; issue: Issue }[] {
  const path = [...base, ...issue.path];
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    const closest = issue.errors.reduce((best, branch) => (branch.length < best.length ? branch : best));
    if (closest.length > 0) return closest.flatMap((inner) => closestIssues(inner, path));
  }
  return [{ path, issue }];
}

/** Turns zod's issues into the `details.fields` of a 400, one line per offending field. */
export function fieldProblems(error: z.ZodError): FieldProblem[] {
  return error.issues
    .flatMap((issue) => closestIssues(issue))
    .map(({ path, issue }) => {
      const field = path.length
        ? path.map(String).join('.')
        : issue.code === 'unrecognized_keys'
          ? issue.keys.join(', ')
          : '(input)';
      return { field, message: issue.message };
    });
}

/** The 400 for text that cannot be stored (NUL, a lone surrogate), naming where it is. */
export function unstorableTextError(problem: TextProblem): ServiceError {
  return new ServiceError('BAD_REQUEST', `The request is not valid. ${problem.field}: ${problem.message}`, {
    fields: [problem],
  });
}

/** Validates raw input against the operation's schema: a 400 BAD_REQUEST naming each bad field. */
export function parseInput<I extends z.ZodObject>(
  op: Pick<AnyOperation<I>, 'input'>,
  raw: unknown,
): z.output<I> {
  // Before the schema: text that cannot be stored is refused wherever it is, even in a field the
  // schema would drop or a key it would refuse, so no refusal echoes it and nothing stores it.
  const unstorable = findUnstorableText(raw);
  if (unstorable) throw unstorableTextError(unstorable);
  const result = op.input.safeParse(raw ?? {});
  if (result.success) return result.data;
  const fields = fieldProblems(result.error);
  const summary = fields.map((f) => `${f.field}: ${f.message}`).join('; ');
  throw new ServiceError('BAD_REQUEST', `The request is not valid. ${summary}`, { fields });
}

/** The single path every call takes, whatever door it came through. */
export async function runOperation<I extends z.ZodObject, O extends z.ZodType>(
  op: AnyOperation<I, O>,
  ctx: OperationContext,
  raw: unknown,
): Promise<z.input<O>> {
  if (isInternal(op)) {
    checkPrincipal(op.operationId, op.auth.principal, ctx);
  } else if (op.auth !== 'public') {
    const scope = op.auth.scope;
    if (!ctx.auth) {
      throw new ServiceError(
        'UNAUTHORIZED',
        `This needs the person's permission: a Bearer credential with scope ${scope}.`,
        // RFC 6750 §3.1: a request that sent no credential gets no error code, only what is wanted.
        { scope },
      );
    }
    if (!ctx.auth.scopes.includes(scope)) {
      throw insufficientScope(ctx.auth, [scope]);
    }
  }
  const input = parseInput(op, raw);
  const call: OperationContext = { ...ctx, operationId: op.operationId, callId: randomUUID() };
  const handle = (): Promise<z.input<O>> =>
    isInternal(op)
      ? Promise.resolve(withinCall(call.callId!, () => op.handler(call, input)))
      : publicCall(op, call, input);
  if (!ctx.deps.checkOutputs) return handle();
  let answer: z.input<O>;
  try {
    answer = await handle();
  } catch (err) {
    await checkEvents(op, call, err);
    throw err;
  }
  checkOutput(op, answer);
  await checkEvents(op, call, null);
  return answer;
}

/** A call of a public operation: kept for its Idempotency-Key, agreed on our page in page mode. */
function publicCall<I extends z.ZodObject, O extends z.ZodType>(
  op: Operation<I, O>,
  call: OperationContext,
  input: z.output<I>,
): Promise<z.input<O>> {
  const run = (c: OperationContext): Promise<z.input<O>> =>
    c.idempotencyKey !== undefined && op.method !== 'GET' && c.auth
      ? idempotent(op, c, input)
      : Promise.resolve(op.handler(c, input));
  // A change asked by a client that can show our page is agreed there (issue 31, part 3).
  if (op.method === 'GET' || !call.auth) return run(call);
  if (call.agreement?.mode === 'page') return agreedOnPage(op, call, input, run);
  // `confirm: true` from any other door does not overrule the page: a call the person was asked
  // about there is agreed there only (else an assistant refused on the page could drop its
  // session and agree by itself).
  if ((input as { confirm?: unknown }).confirm !== true) return run(call);
  return askedOnPage(call.deps.sql, {
    userId: call.auth.userId,
    operation: op.operationId,
    argsHash: agreedArgumentsHash(input as Record<string, unknown>),
  }).then((asked) => (asked ? agreedOnPage(op, call, input, run) : run(call)));
}

/**
 * Whether a refusal keeps what its call wrote (and its Idempotency-Key's answer): an answer the
 * same request would get again, not a failure, a rate limit, a closed shop or a question to the person.
 */
function keepsWrites(err: unknown): err is ServiceError {
  return (
    err instanceof ServiceError &&
    err.status < 500 &&
    err.status !== 429 &&
    err.code !== 'SHOP_OFF' &&
    err.code !== 'CONFIRM_REQUIRED' &&
    err.code !== 'CONFIRM_REFUSED'
  );
}

/** The call's arguments as the person agrees to them: the validated input without `confirm`. */
export function agreedArgumentsHash(input: Record<string, unknown>): string {
  return createHash('sha256')
    .update(stringify({ ...input, confirm: undefined }) ?? '')
    .digest('hex');
}

/**
 * A change whose client can show our page (`agreement.mode` page): the person's confirmation of
 * this very call (person, operation, arguments without `confirm`) is looked up once; when one was
 * answered, the call runs in one transaction that holds it locked and marks it used with the
 * change, so a failed change does not use it up and two retries at once use it once. When the
 * confirm step asks (no confirmation yet), the question is recorded after the call's writes rolled
 * back, and the 409 names the page.
 */
async function agreedOnPage<I extends z.ZodObject, O extends z.ZodType>(
  op: Operation<I, O>,
  ctx: OperationContext,
  input: z.output<I>,
  run: (c: OperationContext) => Promise<z.input<O>>,
): Promise<z.input<O>> {
  const agreement: AgreementCall = {
    userId: ctx.auth!.userId,
    operation: op.operationId,
    argsHash: agreedArgumentsHash(input as Record<string, unknown>),
    clientName: actorName(ctx),
    found: null,
  };
  const sql = ctx.deps.sql;
  try {
    agreement.found = await findOpenConfirmation(sql, agreement);
    if (!agreement.found || agreement.found.status === 'pending')
      return await run({ ...ctx, agreementCall: agreement });
    const outcome = await transaction(sql, async (tx) => {
      agreement.found = await findOpenConfirmation(tx, agreement, { forUpdate: true });
      const inTx = transactionAsPool(tx);
      try {
        const answer = await run({
          ...ctx,
          deps: { ...ctx.deps, sql: inTx, offers: offersThrough(ctx.deps.offers, inTx) },
          agreementCall: agreement,
        });
        // Locked since it was read: nobody else can have used it meanwhile.
        if (agreement.used) await useConfirmation(tx, agreement.used, ctx.deps.clock.now());
        return { answer };
      } catch (err) {
        // A refusal past the confirm step (the slot taken meanwhile) commits what it keeps, as it
        // does outside page mode: an Idempotency-Key's first answer, a lead. The confirmation is
        // not used by it. A failure, a rate limit or a question rolls everything back.
        if (keepsWrites(err)) return { refusal: err };
        throw err;
      }
    });
    if ('refusal' in outcome) throw outcome.refusal;
    return outcome.answer;
  } catch (err) {
    if (agreement.refused) await useConfirmation(sql, agreement.refused, ctx.deps.clock.now());
    if (agreement.ask && err instanceof ServiceError && err.code === 'CONFIRM_REQUIRED')
      throw await askOnPage(ctx, agreement, err);
    throw err;
  }
}

/**
 * An internal operation runs only for the principal kinds it names: `person` is a person signed in
 * on our pages (a WEB_SESSION credential and no principal beside it); every other kind is a
 * principal with no credential at all. Never an API key or an assistant's token, never no one.
 */
function checkPrincipal(operationId: string, kinds: readonly string[], ctx: OperationContext): void {
  if (ctx.auth?.kind === 'WEB_SESSION' && !ctx.principal && kinds.includes('person')) return;
  const kind = ctx.principal?.kind;
  if (ctx.auth || !kind || !kinds.includes(kind)) {
    throw new ServiceError(
      'FORBIDDEN',
      `${operationId} is run by NogPets itself (${kinds.join(' or ')}), not by ${ctx.auth ? 'a person' : (kind ?? 'an unnamed caller')}.`,
      { principal: [...kinds] },
    );
  }
}

/**
 * Under CHECK_OUTPUTS (tests): the events the call wrote are the operation's own (`events`), and a
 * refused or failed call wrote none.
 */
async function checkEvents(
  op: Pick<AnyOperation, 'operationId' | 'events'>,
  ctx: OperationContext,
  failure: unknown,
): Promise<void> {
  let written: string[];
  try {
    written = await eventTypesOfCall(ctx.deps.sql, ctx.callId!);
  } catch {
    return; // the database is gone: the call's own error says so
  }
  if (failure !== null && written.length) {
    throw new Error(`${op.operationId} was refused or failed but wrote events: ${written.join(', ')}`);
  }
  const allowed = new Set<string>(op.events ?? []);
  const stray = written.filter((t) => !allowed.has(t));
  if (stray.length)
    throw new Error(`${op.operationId} wrote events it does not declare: ${stray.join(', ')}`);
}

/** An answer that does not match what the operation declares (and the OpenAPI document shows) is a bug. */
export function checkOutput<O extends z.ZodType>(
  op: Pick<AnyOperation<z.ZodObject, O>, 'operationId' | 'output'>,
  answer: unknown,
): void {
  const result = op.output.safeParse(answer);
  if (result.success) return;
  const where = result.error.issues.map((i) => `${i.path.join('.') || '(answer)'}: ${i.message}`).join('; ');
  throw new Error(`${op.operationId} answered outside its output schema: ${where}`);
}

/**
 * A change sent with an `Idempotency-Key`: the first answer (success or refusal) is kept for the
 * person and key, and a retry with the same body gets it again without doing anything twice. The
 * same key with another body, or while the first is still running, is refused.
 *
 * The change and its answer commit in one transaction, so a key has both or neither: the handler
 * runs inside it (its own transactions become savepoints). While it runs, the key is held by a
 * transaction-scoped advisory lock, so a retry meanwhile is REQUEST_IN_PROGRESS, and a request
 * whose process died frees its key at once (PostgreSQL ends the transaction with the connection).
 */
async function idempotent<I extends z.ZodObject, O extends z.ZodType>(
  op: Operation<I, O>,
  ctx: OperationContext,
  input: z.output<I>,
): Promise<z.input<O>> {
  const key = ctx.idempotencyKey!;
  if (!IDEMPOTENCY_KEY.test(key)) {
    throw new ServiceError('BAD_REQUEST', 'Idempotency-Key must be 1 to 255 visible ASCII characters.', {
      fields: [{ field: 'Idempotency-Key', message: 'Invalid.' }],
    });
  }
  const userId = ctx.auth!.userId;
  const requestHash = createHash('sha256')
    .update(stringify(input) ?? '')
    .digest('hex');
  const outcome = await ctx.deps.sql.begin(async (tx) => {
    if (!(await lockIdempotencyKey(tx, userId, key))) {
      throw new ServiceError(
        'REQUEST_IN_PROGRESS',
        'The first request with this Idempotency-Key is still being handled. Retry in a moment.',
      );
    }
    const prior = await findIdempotentAnswer(tx, userId, key);
    if (prior) {
      if (prior.operation !== op.operationId || prior.requestHash !== requestHash) {
        throw new ServiceError(
          'IDEMPOTENCY_KEY_REUSED',
          'This Idempotency-Key was used for another request. Use a new key for a new request.',
          { operation: prior.operation },
        );
      }
      return { status: prior.status, body: prior.response };
    }
    const record = (status: number, body: unknown) =>
      saveIdempotentAnswer(tx, {
        userId,
        key,
        operation: op.operationId,
        requestHash,
        status,
        response: body,
        at: ctx.deps.clock.now(),
      });
    try {
      // Everything the handler reads or writes goes through this transaction: a request holding
      // one pooled connection must never wait for a second (enough of them at once would wedge).
      const inTx = transactionAsPool(tx);
      const result = await op.handler(
        { ...ctx, deps: { ...ctx.deps, sql: inTx, offers: offersThrough(ctx.deps.offers, inTx) } },
        input,
      );
      await record(op.successStatus, result);
      return { status: op.successStatus, body: result as unknown };
    } catch (err) {
      // A refusal is an answer too (and keeps what it wrote, such as a lead); a failure or a rate
      // limit is not: the transaction rolls back and a retry runs afresh.
      // SHOP_OFF passes too: the same request may succeed once the shop opens again.
      // A page-mode call's question or refusal is not the key's answer: the same call, retried once
      // the person confirmed on the page, must run.
      if (
        !(err instanceof ServiceError) ||
        err.status >= 500 ||
        err.status === 429 ||
        err.code === 'SHOP_OFF' ||
        (ctx.agreementCall && (err.code === 'CONFIRM_REQUIRED' || err.code === 'CONFIRM_REFUSED'))
      )
        throw err;
      await record(err.status, err.toBody());
      return { status: err.status, body: err.toBody() as unknown };
    }
  });
  const stored = outcome.body as {
    error?: { code: ErrorCode; message: string; details: Record<string, unknown> };
  };
  if (outcome.status >= 400 && stored?.error)
    throw ServiceError.replay({ error: stored.error }, outcome.status);
  return outcome.body as z.input<O>;
}

/**
 * A transaction that handlers can use as they use the pool: its `begin` opens a savepoint, so
 * their transactions nest inside the one that also records the answer.
 */
export function transactionAsPool(tx: unknown): Sql {
  const t = tx as { savepoint(fn: (sql: unknown) => unknown): Promise<unknown> };
  return new Proxy(tx as object, {
    get(target, prop, receiver) {
      if (prop === 'begin') {
        return (first: unknown, second?: unknown) =>
          t.savepoint((typeof first === 'function' ? first : second) as (sql: unknown) => unknown);
      }
      return Reflect.get(target, prop, receiver);
    },
  }) as Sql;
}
