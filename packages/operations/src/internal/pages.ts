/**
 * What our own pages read and change that no public operation does, as internal operations: the
 * signed-in person's own things (`person`: their browser session, never an API key or an
 * assistant's token), what anyone holding a link may open (`visitor`: a pay link, a sign-up draft),
 * and a payment gateway's notification (`gateway`). Each wraps the function of the module that
 * owns the rule; the pages call them through runOperation, as an assistant's calls go.
 */
import { findPaymentNotice } from '@nogpets/store';
import { z } from 'zod';
import { defineInternalOperation, type OperationContext, ServiceError } from '../core/index.js';
import {
  accountBookings as bookingsOfAccount,
  changeSavedNotes as changeNotes,
  personTimeZone,
  removeSaved as removeOwnSaved,
} from '../account/index.js';
import { checkNotification, receiveNotification } from '../money/index.js';
import { findPayLink as payLinkOf } from '../money/index.js';
import { draftForPage as draftOf, keepDraft as keep } from '../onboarding/index.js';
import { isOperator as isOperatorAccount } from '../onboarding/index.js';
import {
  personNoticeChoices,
  setPersonNoticeChoices,
  unsubscribeByLink,
  unsubscribeLinkOf,
} from '../notices/index.js';
import { invitationForPerson as invitationOf, managedBusinessesOf } from '../staff/index.js';
import {
  answerConfirmationOfPerson,
  confirmationForPerson,
  NO_INPUT,
  personOf,
  typed,
} from '../core/index.js';
import {
  calendarFeedText,
  ownCalendarFeeds as feedsOfPerson,
  rotateOwnCalendarFeed as rotateOwnFeed,
} from '../feeds/index.js';

const PERSON = { principal: ['person'] } as const;
/** An id as a page's URL carries it: the function answers an unknown one (404); this only bounds it. */
const ID = z.string().min(1).max(100);
const SAVED_KIND = z.enum(['pet', 'address']);

type Result<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;

/** The gateway a `gateway` call speaks for: only the one this NogPets is set up with. */
function gatewayOf(ctx: OperationContext): string {
  const p = ctx.principal;
  if (p?.kind !== 'gateway' || p.gateway !== ctx.deps.payments.gateway.name)
    throw new ServiceError('FORBIDDEN', 'This is for the payment gateway in use.', {});
  return p.gateway;
}

// ---------------------------------------------------------------------------------------------
// The account page (the pet owner's own things)

export const accountBookings = defineInternalOperation({
  operationId: 'accountBookings',
  title: "The person's bookings, for their account page",
  description:
    'Upcoming bookings as list_bookings answers them, and the latest that are over; each with until when it may be moved and whether it can be cancelled.',
  auth: PERSON,
  input: NO_INPUT,
  output: typed<Result<typeof bookingsOfAccount>>(),
  async handler(ctx) {
    personOf(ctx);
    return bookingsOfAccount(ctx);
  },
});

export const pagesTimeZone = defineInternalOperation({
  operationId: 'pagesTimeZone',
  title: 'The time zone of our own pages',
  description:
    "The zone a person's pages (and the operator's console) show times in: NogPets' own business's.",
  auth: { principal: ['person', 'operator'] },
  input: NO_INPUT,
  output: typed<string>(),
  async handler(ctx) {
    return personTimeZone(ctx.deps);
  },
});

export const changeSavedNotes = defineInternalOperation({
  operationId: 'changeSavedNotes',
  title: 'Change the notes of a saved pet or address',
  description: "The person's own pet's or address's notes (empty clears them); audited.",
  auth: PERSON,
  // The notes' own limit (500 for a pet, 300 for an address) is the function's, said in its words.
  input: z.object({ kind: SAVED_KIND, id: ID, notes: z.string().max(5000) }).strict(),
  output: typed<{ saved: boolean }>(),
  events: [],
  async handler(ctx, input) {
    personOf(ctx);
    await changeNotes(ctx, input.kind, input.id, input.notes);
    return { saved: true };
  },
});

export const removeSaved = defineInternalOperation({
  operationId: 'removeSaved',
  title: 'Remove a saved pet or address',
  description:
    "The person's own pet or address, unless a booking still to come or a weekly repeat names it; audited.",
  auth: PERSON,
  input: z.object({ kind: SAVED_KIND, id: ID }).strict(),
  output: typed<Result<typeof removeOwnSaved>>(),
  events: [],
  async handler(ctx, input) {
    personOf(ctx);
    return removeOwnSaved(ctx, input.kind, input.id);
  },
});

// ---------------------------------------------------------------------------------------------
// An invitation to a business's staff, as its page shows it

export const invitationForPerson = defineInternalOperation({
  operationId: 'invitationForPerson',
  title: 'An invitation, for the person it was mailed to',
  description:
    'Who invites the signed-in person, as what, until when, and whether it still waits; refusals as accept_invitation.',
  auth: PERSON,
  input: z.object({ invitationId: ID }).strict(),
  output: typed<Result<typeof invitationOf>>(),
  async handler(ctx, input) {
    personOf(ctx);
    return invitationOf(ctx, input.invitationId);
  },
});

// ---------------------------------------------------------------------------------------------
// A business's settings as pages show them (its notifications): which businesses the person runs

export const managedBusinesses = defineInternalOperation({
  operationId: 'managedBusinesses',
  title: 'The businesses the person runs, for their settings pages',
  description:
    'Each business the signed-in person is an owner or manager of (id, name, role); crew and strangers have none. The pages then read and change each one through the Run operations (get_notification_settings, update_notification_settings).',
  auth: PERSON,
  input: NO_INPUT,
  output: typed<Result<typeof managedBusinessesOf>>(),
  async handler(ctx) {
    personOf(ctx);
    return managedBusinessesOf(ctx);
  },
});

// ---------------------------------------------------------------------------------------------
// A sign-up draft's page (prepare_business_signup's continueUrl)

export const draftForPage = defineInternalOperation({
  operationId: 'draftForPage',
  title: 'A sign-up draft, for its page',
  description:
    'Whose the draft is and what it is called, for anyone holding its link (signed in or not); null once expired or unknown.',
  auth: { principal: ['visitor', 'person'] },
  input: z.object({ draftId: ID }).strict(),
  output: typed<Result<typeof draftOf>>(),
  async handler(ctx, input) {
    return draftOf(ctx.deps, input.draftId);
  },
});

export const keepDraft = defineInternalOperation({
  operationId: 'keepDraft',
  title: 'Keep a draft sent without an email',
  description:
    "The draft's application is made in the signed-in person's account; null when it is gone, kept by someone first, or has an email.",
  auth: PERSON,
  input: z.object({ draftId: ID }).strict(),
  output: typed<Result<typeof keep>>(),
  events: [],
  async handler(ctx, input) {
    return keep(ctx.deps, input.draftId, personOf(ctx));
  },
});

// ---------------------------------------------------------------------------------------------
// The pay pages and the gateway's notification

export const findPayLink = defineInternalOperation({
  operationId: 'findPayLink',
  title: 'A pay link, for its page',
  description:
    'What a pay link stands for (its payment, bookings, invoice or order) and whether it can be paid now; null for a link not known. Anyone holding the link may open it.',
  auth: { principal: ['visitor'] },
  input: z.object({ token: z.string().min(1).max(200) }).strict(),
  output: typed<Result<typeof payLinkOf>>(),
  async handler(ctx, input) {
    return payLinkOf(ctx.deps, input.token);
  },
});

export const keepPaymentNotice = defineInternalOperation({
  operationId: 'keepPaymentNotice',
  title: "Keep a gateway's notification",
  description:
    'The notification as it came, kept before it is answered, so the money it reports is on record whatever happens next.',
  auth: { principal: ['gateway'] },
  // The door takes at most 20 kB; the body is checked by the gateway (signature, source) later.
  input: z.object({ body: z.string().max(20_480), sourceIp: z.string().max(100) }).strict(),
  output: typed<Result<typeof receiveNotification>>(),
  events: [],
  async handler(ctx, input) {
    gatewayOf(ctx);
    return receiveNotification(ctx.deps, input.body, { ip: input.sourceIp });
  },
});

export const checkPaymentNotice = defineInternalOperation({
  operationId: 'checkPaymentNotice',
  title: "Check and apply a gateway's notification",
  description:
    'A kept notification, verified with the gateway and applied once: bookings or an order paid, an invoice paid, or the money owed back; the decision is written on it.',
  auth: { principal: ['gateway'] },
  input: z.object({ noticeId: ID }).strict(),
  output: typed<Result<typeof checkNotification>>(),
  events: ['booking.paid', 'booking.refund_due', 'order.paid', 'payment.refund_due'],
  async handler(ctx, input) {
    gatewayOf(ctx);
    const notice = await findPaymentNotice(ctx.deps.sql, input.noticeId);
    if (!notice) throw new ServiceError('NOT_FOUND', `No payment notification ${input.noticeId}.`, {});
    return checkNotification(ctx.deps, notice);
  },
});

// ---------------------------------------------------------------------------------------------
// The operator console's door

export const isOperator = defineInternalOperation({
  operationId: 'isOperator',
  title: 'Whether the person signed in is an operator',
  description: "Whether the signed-in person's account may use the operator console.",
  auth: PERSON,
  input: NO_INPUT,
  output: typed<boolean>(),
  async handler(ctx) {
    return isOperatorAccount(ctx.deps, personOf(ctx));
  },
});

// ---------------------------------------------------------------------------------------------
// Mail to people: a person's optional mails (the account page), and a mail's one-click unsubscribe link

const KIND = z.string().min(1).max(64);
const UNSUBSCRIBE_TOKEN = z.string().min(1).max(200);

export const noticeChoices = defineInternalOperation({
  operationId: 'noticeChoices',
  title: "The person's optional mails",
  description: 'Each kind of mail the signed-in person may turn off, on or off for their address.',
  auth: PERSON,
  input: NO_INPUT,
  output: typed<Result<typeof personNoticeChoices>>(),
  async handler(ctx) {
    return personNoticeChoices(ctx.deps, personOf(ctx));
  },
});

export const setNoticeChoices = defineInternalOperation({
  operationId: 'setNoticeChoices',
  title: "Turn the person's optional mails on or off",
  description:
    'Kind → on or off for the signed-in person’s address; a mail that must go has no switch (400).',
  auth: PERSON,
  input: z.object({ choices: z.record(KIND, z.boolean()) }).strict(),
  output: typed<Result<typeof setPersonNoticeChoices>>(),
  events: [],
  async handler(ctx, input) {
    return setPersonNoticeChoices(ctx.deps, personOf(ctx), input.choices);
  },
});

export const unsubscribeLink = defineInternalOperation({
  operationId: 'unsubscribeLink',
  title: 'An unsubscribe link, for its page',
  description:
    'Which kind of mail to which address a mailed unsubscribe link stops, without using it; null for none.',
  auth: { principal: ['visitor'] },
  input: z.object({ token: UNSUBSCRIBE_TOKEN }).strict(),
  output: typed<Result<typeof unsubscribeLinkOf>>(),
  async handler(ctx, input) {
    return unsubscribeLinkOf(ctx.deps, input.token);
  },
});

export const unsubscribe = defineInternalOperation({
  operationId: 'unsubscribe',
  title: 'Stop a kind of optional mail by its link',
  description:
    'One click (RFC 8058): the link’s kind of optional mail goes no more to its address; no sign-in, the link is the secret. Null for no such link.',
  auth: { principal: ['visitor'] },
  input: z.object({ token: UNSUBSCRIBE_TOKEN }).strict(),
  output: typed<Result<typeof unsubscribeByLink>>(),
  events: [],
  async handler(ctx, input) {
    return unsubscribeByLink(ctx.deps, input.token);
  },
});

// Calendar feeds: the feed itself for whoever holds its address, and the account page's section

export const calendarFeed = defineInternalOperation({
  operationId: 'calendarFeed',
  title: 'A calendar feed, for whoever holds its address',
  description:
    'The iCalendar text of the feed whose secret this is; null for a secret not known, replaced, or whose person may no longer read it (the door answers 404 alike).',
  auth: { principal: ['visitor'] },
  // A secret is 47 characters; the function refuses any other shape without a lookup.
  input: z.object({ token: z.string().max(200) }).strict(),
  output: typed<Result<typeof calendarFeedText>>(),
  async handler(ctx, input) {
    return calendarFeedText(ctx.deps, input.token);
  },
});

export const ownCalendarFeeds = defineInternalOperation({
  operationId: 'ownCalendarFeeds',
  title: "The person's calendar feeds, for their account page",
  description:
    'The feeds the signed-in person may have (their bookings; their jobs and, as owner or manager, all jobs of each business they are on the staff of), and when each was made, replaced and last read.',
  auth: PERSON,
  input: NO_INPUT,
  output: typed<Result<typeof feedsOfPerson>>(),
  async handler(ctx) {
    personOf(ctx);
    return feedsOfPerson(ctx);
  },
});

export const rotateOwnCalendarFeed = defineInternalOperation({
  operationId: 'rotateOwnCalendarFeed',
  title: "Give one of the person's calendar feeds a new address",
  description:
    'Makes the feed or replaces its address (the old one answers 404), and answers the new address once; the same checks as rotate_calendar_feed and rotate_business_calendar_feed; audited.',
  auth: PERSON,
  input: z.object({ scope: z.enum(['mine', 'my_jobs', 'business']), businessId: ID.nullable() }).strict(),
  output: typed<Result<typeof rotateOwnFeed>>(),
  events: [],
  async handler(ctx, input) {
    personOf(ctx);
    return rotateOwnFeed(ctx, input.scope, input.businessId);
  },
});

// ---------------------------------------------------------------------------------------------
// The confirmation page (issue 31, part 3): the person agrees to an assistant's change themselves

export const confirmationForPage = defineInternalOperation({
  operationId: 'confirmationForPage',
  title: 'A confirmation asked of the person',
  description:
    "The summary of a change an assistant asked for and whether it is open, answered, used or expired; someone else's is not found.",
  auth: PERSON,
  input: z.object({ confirmationId: ID }).strict(),
  output: typed<Result<typeof confirmationForPerson>>(),
  events: [],
  async handler(ctx, input) {
    return confirmationForPerson(ctx, input.confirmationId);
  },
});

export const answerConfirmation = defineInternalOperation({
  operationId: 'answerConfirmation',
  title: 'Confirm or refuse a change',
  description:
    "The person's answer to a confirmation an assistant asked for, once: the assistant's retried call then goes through, or answers CONFIRM_REFUSED.",
  auth: PERSON,
  input: z.object({ confirmationId: ID, answer: z.enum(['confirm', 'refuse']) }).strict(),
  output: typed<Result<typeof answerConfirmationOfPerson>>(),
  events: [],
  async handler(ctx, input) {
    return answerConfirmationOfPerson(ctx, input.confirmationId, input.answer);
  },
});
