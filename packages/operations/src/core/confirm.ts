/**
 * The confirm step of every operation that asks for `confirm: true`: one function writes the
 * summary the person agrees to, from the same parts each time (what, the local day and time, the
 * place, the pets, the amount and what happens to the money), and the 409 CONFIRM_REQUIRED carries
 * those parts in `details.parts` beside the sentence. Each step declares its kind; the kind says
 * which parts it must carry and which do not apply (those are `null`, on purpose), so a summary
 * cannot leave out the time of a booking or the amount of an invoice.
 */
import { formatMoney } from '@nogpets/pricing-tiers';
import { insertConfirmation, purgeExpiredConfirmations } from '@nogpets/store';
import { type AgreementCall, agreementOfCall, CONFIRMATION_TTL_MS } from './agreement.js';
import { CONFIRM_CODE } from './confirm-code.js';
import type { OperationContext } from './context.js';
import { localDate, localTime, whenText } from './local-time.js';
import { ServiceError } from './errors.js';

/** A span of time, told in the local day and time of `timeZone`. */
export interface ConfirmWhen {
  start: Date;
  end: Date;
  timeZone: string;
  /** Said after the span, e.g. "and 3 more weeks". */
  more?: string;
}

export interface ConfirmAmount {
  cents: number;
  currency: string;
}

interface PartTypes {
  when: ConfirmWhen;
  place: string;
  pets: string[];
  amount: ConfirmAmount;
  /** What happens to the money, read after the amount: "in cash to the crew on the day". */
  money: string;
}
type PartName = keyof PartTypes;

/** Which parts each kind of confirm step carries; every other part does not apply to it. */
export const CONFIRM_KINDS = {
  /** A booking made, moved, accepted, declined, cancelled or asked to be paid. */
  booking: ['when', 'place', 'pets', 'amount', 'money'],
  /** A shop order paid in cash at a booking's visit. */
  visitOrder: ['when', 'place', 'amount', 'money'],
  /** A pay link for an amount the business asks of a client. */
  invoice: ['amount', 'money'],
  /**
   * New prices: each service's old → new amount is in `what` (several prices, each with its tiers,
   * are no one amount), and `money` says what they mean for bookings made and to come.
   */
  prices: ['money'],
  /** Working hours: a week, not a day; the bookings it strands are listed with their times. */
  hours: [],
  /** Time off, added or removed: its local days and times. */
  timeOff: ['when'],
  /** Where a business works or is. */
  area: ['place'],
  /** The application as a whole: where the business is and how it is paid. */
  application: ['place', 'money'],
  /** Who works for the business: no day, place, pets or money. */
  staff: [],
} as const satisfies Record<string, readonly PartName[]>;
export type ConfirmKind = keyof typeof CONFIRM_KINDS;

/** The parts of a step of kind `K`: those it carries, and `null` for those that do not apply. */
export type ConfirmParts<K extends ConfirmKind> = {
  kind: K;
  /** The change, as a sentence's start: "Book dog walking", "Cancel the booking". */
  what: string;
  /** Said after the parts: lists, consequences. */
  after?: string;
} & {
  [P in PartName]: P extends (typeof CONFIRM_KINDS)[K][number] ? PartTypes[P] : null;
};

type AnyParts = { [K in ConfirmKind]: ConfirmParts<K> }[ConfirmKind];

/** The parts as `details.parts` carries them: days and times in words, the amount formatted. */
export interface ConfirmPartsOut {
  kind: ConfirmKind;
  what: string;
  when: {
    date: string;
    time: string;
    endDate: string;
    endTime: string;
    timeZone: string;
    text: string;
  } | null;
  place: string | null;
  pets: string[] | null;
  amount: { cents: number; currency: string; text: string } | null;
  money: string | null;
}

const joinAnd = (xs: string[]) =>
  xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`;
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The sentence to show the person, and the parts it was made of. */
export function confirmSummary(parts: AnyParts): { summary: string; parts: ConfirmPartsOut } {
  const when = parts.when
    ? `${whenText(parts.when.start, parts.when.end, parts.when.timeZone)}${parts.when.more ? ` ${parts.when.more}` : ''}`
    : '';
  const amount = parts.amount ? formatMoney(parts.amount.cents, parts.amount.currency) : '';
  let summary = parts.what;
  if (parts.pets?.length) summary += ` for ${joinAnd(parts.pets)}`;
  if (parts.place) summary += ` at ${parts.place}`;
  if (when) summary += `, ${when}`;
  summary += '.';
  if (amount) summary += ` ${amount}${parts.money ? ` ${parts.money}` : ''}.`;
  else if (parts.money) summary += ` ${capital(parts.money)}.`;
  // A list set out on lines of its own starts with a line break.
  if (parts.after) summary += parts.after.startsWith('\n') ? parts.after : ` ${parts.after}`;
  return {
    summary,
    parts: {
      kind: parts.kind,
      what: parts.what,
      when: parts.when
        ? {
            date: localDate(parts.when.start, parts.when.timeZone),
            time: localTime(parts.when.start, parts.when.timeZone),
            endDate: localDate(parts.when.end, parts.when.timeZone),
            endTime: localTime(parts.when.end, parts.when.timeZone),
            timeZone: parts.when.timeZone,
            text: when,
          }
        : null,
      place: parts.place,
      pets: parts.pets,
      amount: parts.amount ? { ...parts.amount, text: amount } : null,
      money: parts.money,
    },
  };
}

/** What the 409 says besides the summary: its message (the default asks for confirm: true) and the step's own details. */
export interface ConfirmOptions {
  message?: string;
  /** Beside `summary` and `parts`, e.g. `bookingId`. */
  details?: Record<string, unknown>;
}

/**
 * The confirm step, the one way an operation asks the person to agree: nothing when they agreed
 * (`confirm` true), else 409 CONFIRM_REQUIRED with `details.summary` (the sentence),
 * `details.parts` and the step's own `details`; call it before the first write (or inside the
 * call's transaction, which the throw rolls back). It is handed the call (`ctx`) so that other
 * ways of agreeing than `confirm: true` are decided here, for every step at once. A step that asks
 * only sometimes (cash, bookings in the way) calls it only then.
 */
export function confirmStep(
  ctx: OperationContext,
  confirm: boolean | undefined,
  parts: AnyParts,
  options: ConfirmOptions = {},
): void {
  if (ctx.agreementCall) {
    agreedOnPage(ctx, ctx.agreementCall, parts, options);
    return;
  }
  if (confirm === true) return;
  const { summary, parts: out } = confirmSummary(parts);
  const message =
    options.message ??
    'This needs the person to agree: show them the summary and, once they agree, send the same request with confirm: true.';
  // The only CONFIRM_REQUIRED there is: CONFIRM_CODE is imported by this file alone (dependency-cruiser).
  throw new ServiceError(CONFIRM_CODE, message, {
    ...options.details,
    summary,
    parts: out,
    message: 'Show the person this summary; send the same request with confirm: true once they agree.',
  });
}

/** The message of the 409 a page-mode call answers until the person confirmed on the page. */
const PAGE_MESSAGE =
  'The person confirms this themselves on a NogPets page: open the link for them, and once they have confirmed, send the same request again.';

/**
 * The confirm step of a call whose client can show our page: `confirm` is not looked at. The
 * person's confirmation of this very call (found by runOperation) is taken, and runOperation marks
 * it used in the call's transaction; their refusal is told once; otherwise the 409 asks again, and
 * runOperation records the question (`ask`) once the call's transaction has rolled back.
 */
function agreedOnPage(
  ctx: OperationContext,
  call: AgreementCall,
  parts: AnyParts,
  options: ConfirmOptions,
): void {
  const { summary, parts: out } = confirmSummary(parts);
  const decision = agreementOfCall(call.found, summary, ctx.deps.clock.now());
  if (decision === 'agreed') {
    call.used = call.found!.id;
    return;
  }
  if (decision === 'refused') {
    call.refused = call.found!.id;
    throw new ServiceError(
      'CONFIRM_REFUSED',
      'The person refused this change on the NogPets confirmation page, so nothing was changed. Ask them what they want instead.',
      { ...options.details, summary, confirmationId: call.found!.id },
    );
  }
  call.ask = { summary, parts: out, again: decision === 'waiting' ? call.found!.id : null };
  throw new ServiceError(CONFIRM_CODE, PAGE_MESSAGE, { ...options.details, summary, parts: out });
}

/**
 * The page-mode 409 as the door answers it: the confirmation asked (recorded now, in a statement
 * of its own, after the call's transaction rolled back), its id and the page's address in
 * `details.confirmation`. `err` is the 409 confirmStep threw for `call.ask`.
 */
export async function askOnPage(
  ctx: OperationContext,
  call: AgreementCall,
  err: ServiceError,
): Promise<ServiceError> {
  const ask = call.ask!;
  const now = ctx.deps.clock.now();
  let id = ask.again;
  let expiresAt = call.found?.expiresAt ?? now;
  if (!id) {
    await purgeExpiredConfirmations(ctx.deps.sql, now);
    const row = await insertConfirmation(ctx.deps.sql, {
      userId: call.userId,
      operation: call.operation,
      argsHash: call.argsHash,
      summary: ask.summary,
      parts: ask.parts,
      clientName: call.clientName,
      at: now,
      expiresAt: new Date(now.getTime() + CONFIRMATION_TTL_MS),
    });
    id = row.id;
    expiresAt = row.expiresAt;
  }
  const url = `${ctx.deps.payments.publicUrl()}/confirm/${id}`;
  return new ServiceError(CONFIRM_CODE, err.message, {
    ...err.details,
    message:
      'Give the person this link; they see the summary there and confirm or refuse. Then send the same request again.',
    confirmation: { id, url, expiresAt: expiresAt.toISOString() },
  });
}

/**
 * The parts of a change to who works for a business: none of the day, place, pets or money parts
 * apply, so the sentence is the change itself.
 */
export function staffParts(sentence: string): ConfirmParts<'staff'> {
  return {
    kind: 'staff',
    what: sentence.replace(/\.$/, ''),
    when: null,
    place: null,
    pets: null,
    amount: null,
    money: null,
  };
}
