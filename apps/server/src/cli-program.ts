import { randomUUID } from 'node:crypto';
import path from 'node:path';
import {
  type ApplicationForReview,
  type Booking,
  type ClaimForReview,
  type Deps,
  type InternalOperation,
  MAX_REVIEW_NOTE,
  noticeAmount,
  type Order,
  operatorOperations as op,
  type Payout,
  runOperation,
  SCOPE_NAMES,
  ServiceError,
} from '@nogpets/operations';
import { formatMoney } from '@nogpets/pricing-tiers';
import { ConfigError, findRepoRoot, loadConfig, openOperatorDeps } from '@nogpets/runtime';
import { Command, CommanderError } from 'commander';

/** Where one run of the CLI reads its settings and writes its answers: the process, or a test. */
export interface CliIo {
  env: Record<string, string | undefined>;
  out: (text: string) => void;
  err: (text: string) => void;
}

/** The CLI is NogPets' operator without an account of its own. */
const CLI_OPERATOR = { kind: 'operator', userId: null, name: 'operator (CLI)' } as const;

const quiet = { info() {}, warn() {}, error() {} };

/**
 * Runs one internal operation as the CLI's operator against the configured database: DATABASE_URL,
 * or the embedded cluster under .data/ (the running one of `pnpm start` if it is up, else started
 * for the command).
 */
async function asOperator<Op extends InternalOperation>(
  env: CliIo['env'],
  operation: Op,
  input: Parameters<Op['handler']>[1],
): Promise<Awaited<ReturnType<Op['handler']>>> {
  const config = loadConfig(env);
  const opened = await openOperatorDeps(config, {
    dataDir: config.DATA_DIR ?? path.join(findRepoRoot(), '.data'),
    applicationName: 'nogpets-cli',
  });
  try {
    return (await runOperation(operation, operatorCall(opened.deps), input)) as Awaited<
      ReturnType<Op['handler']>
    >;
  } finally {
    await opened.close();
  }
}

function operatorCall(deps: Deps) {
  return {
    deps,
    requestId: randomUUID(),
    clientName: null,
    auth: null,
    log: quiet,
    principal: CLI_OPERATOR,
  };
}

/** Verdicts as the CLI prints them. */
const CLAIM_VERDICTS: Record<ClaimForReview['evidence']['verdict'], string> = {
  MATCH: 'MATCH',
  MISMATCH: 'MISMATCH',
  NOTHING_TO_COMPARE: 'NOTHING TO COMPARE',
};

/** An application's claim of a directory listing, in indented lines under the application's. */
function claimLines(c: ClaimForReview): string {
  const contacts = (x: { phone: string | null; email: string | null; website: string | null }) =>
    `phone ${x.phone ?? '-'} · email ${x.email ?? '-'} · website ${x.website ?? '-'}`;
  const decision =
    c.granted === null
      ? c.available
        ? 'approve with --claim-checked to grant it, without to publish a new listing'
        : 'taken by another business or gone: approval publishes a new listing'
      : c.granted
        ? 'granted'
        : 'not granted: the business has a new listing';
  return [
    `  claim\t${c.listingId} (${c.listingName ?? 'gone'})\t${CLAIM_VERDICTS[c.evidence.verdict]}\t${decision}`,
    `    listing\t${contacts(c.listing)}`,
    `    applicant\t${contacts(c.applicant)} · account ${c.applicant.accountEmail}`,
    `    ${c.evidence.summary}`,
  ].join('\n');
}

/** The operator CLI's commands, writing to `io`. Made afresh per run: commander keeps parse state. */
function buildProgram(io: CliIo): Command {
  const program = new Command()
    .name('pnpm cli')
    .description('NogPets operator tasks. Works on the same database as `pnpm start`, running or not.')
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err });

  const key = program.command('key').description('Personal API keys');
  key
    .command('create')
    .description('Create an API key for a person (created if absent). Prints the key alone on the last line.')
    .requiredOption('--email <email>', "the person's email")
    .requiredOption('--scopes <scopes>', `comma-separated: ${SCOPE_NAMES.join(', ')}`)
    .option('--name <name>', 'a name to recognise the key by', 'API key')
    .action(async (opts: { email: string; scopes: string; name: string }) => {
      const created = await asOperator(io.env, op.createApiKey, {
        email: opts.email,
        scopes: opts.scopes
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
        name: opts.name,
      });
      io.err(
        `Created ${created.id} for ${opts.email} with scopes ${created.scopes.join(', ')}. It is shown once:\n`,
      );
      io.out(`${created.key}\n`);
    });

  const line = (b: Booking) => `${b.id}\t${b.status}\t${b.paymentStatus}\t${b.total}\t${b.when}\t${b.what}`;

  const booking = program.command('booking').description('Bookings');
  booking
    .command('accept')
    .description(
      'Accept a PENDING booking for the business (a new one, or one the person moved to a new time).',
    )
    .argument('<bookingId>')
    .action(async (id: string) => {
      const done = await asOperator(io.env, op.acceptPendingBooking, { bookingId: id });
      io.out(`${line(done)}\n`);
    });

  const refund = program.command('refund').description('Refunds of paid bookings that were cancelled');
  refund
    .command('list')
    .description(
      'Refunds still owed, oldest first: cancelled paid bookings (REFUND_REQUESTED: id, status, payment, total, when, what), ' +
        'then payments made twice for the same bookings (REFUND_DUE: payment id, status, amount, gateway reference, bookings), ' +
        'then money the gateway confirmed that no booking takes (REFUND_DUE: notification id, status, amount, gateway reference, why: ' +
        'charged again on a paid link, an unknown payment, another amount).',
    )
    .action(async () => {
      const { bookings, payments, charges } = await asOperator(io.env, op.listRefundsOwed, {});
      const lines = [
        ...bookings.map(line),
        ...payments.map(
          (p) =>
            `${p.id}\t${p.status}\t${formatMoney(p.amountCents, p.currency)}\t${p.gateway} ${p.gatewayRef ?? ''}\tpaid twice: ${p.bookingIds.join(', ')}`,
        ),
        ...charges.map(
          (n) =>
            `${n.id}\t${n.state}\t${noticeAmount(n)}\t${n.gateway} ${n.gatewayRef ?? ''}\t${n.outcome ?? ''}`,
        ),
      ];
      io.out(lines.length ? `${lines.join('\n')}\n` : 'No refunds are owed.\n');
    });
  refund
    .command('done')
    .description(
      'Mark a refund as made at the gateway: a booking REFUND_REQUESTED, a payment (pay_…) or a notification (ntc_…) REFUND_DUE, becomes REFUNDED.',
    )
    .argument('<id>', 'a booking id from `refund list`, a payment id or a notification id')
    .option('--note <note>', "the gateway's refund reference or a note")
    .action(async (id: string, opts: { note?: string }) => {
      const done = await asOperator(io.env, op.markRefundDone, { id, note: opts.note });
      io.out(`${done.booking ? line(done.booking) : `${done.id}\t${done.status}\t${done.amount}`}\n`);
    });

  const payments = program
    .command('payments')
    .description("Gateway notifications that need the operator's eye");
  payments
    .command('problems')
    .description(
      'Notifications claiming a payment that could not be confirmed, oldest first (id, received, source address, payment, gateway ' +
        'reference, amount, why): refused before the gateway confirmed them (source address, merchant, the confirmation call), ' +
        'or kept but never checked (the check failed or the service stopped). Look each up at the gateway by its reference; ' +
        'refund it there if money arrived, then `payments resolve`.',
    )
    .action(async () => {
      const rows = await asOperator(io.env, op.listPaymentProblems, {});
      const why = (n: (typeof rows)[number]) =>
        n.state === 'RECEIVED' ? `not checked${n.error ? `: ${n.error}` : ''}` : (n.outcome ?? '');
      const lines = rows.map(
        (n) =>
          `${n.id}\t${n.receivedAt.toISOString()}\t${n.sourceIp}\t${n.paymentId ?? '-'}\t${n.gateway} ${n.gatewayRef ?? '-'}\t${noticeAmount(n)}\t${why(n)}`,
      );
      io.out(lines.length ? `${lines.join('\n')}\n` : 'No payment problems.\n');
    });
  payments
    .command('resolve')
    .description(
      'Mark a problem notification dealt with (looked up at the gateway; refunded there or nothing to do): RESOLVED.',
    )
    .argument('<id>', 'a notification id (ntc_…) from `payments problems`')
    .option('--note <note>', 'what was found or done')
    .action(async (id: string, opts: { note?: string }) => {
      const n = await asOperator(io.env, op.resolvePaymentNotice, { id, note: opts.note });
      io.out(`${n.id}\t${n.state}\n`);
    });

  const lead = program
    .command('lead')
    .description('Leads: places and times people asked for that we could not serve, to follow up');
  lead
    .command('list')
    .description(
      'Open leads, newest first: id, reason, asks (how often that caller asked that day), first and last asked (UTC), ' +
        'operation, what was asked, where we understood it to be, and who asked.',
    )
    .option('--limit <n>', 'at most this many (1 to 1000)', '100')
    .action(async (opts: { limit: string }) => {
      const limit = Number(opts.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
        throw new ServiceError('BAD_REQUEST', '--limit: a whole number from 1 to 1000.', {});
      const leads = await asOperator(io.env, op.listLeads, { limit });
      const where = (p: Record<string, unknown> | null) =>
        p ? [p.suburb, p.town, p.postalCode, p.country].filter(Boolean).join(', ') : '';
      const stamp = (d: Date) => d.toISOString().slice(0, 16).replace('T', ' ');
      io.out(
        leads.length
          ? `${leads
              .map(
                (l) =>
                  `${l.id}\t${l.reason}\t${l.asks}\t${stamp(l.createdAt)}\t${stamp(l.lastAskedAt)}\t${l.operation}\t${JSON.stringify(l.query)}\t${where(l.place as Record<string, unknown> | null)}\t${l.clientName ?? ''}`,
              )
              .join('\n')}\n`
          : 'No open leads.\n',
      );
    });
  lead
    .command('done')
    .description('Close a lead once followed up, with a note of what was done.')
    .argument('<id>', 'a lead id from `lead list`')
    .option('--note <note>', 'what was done (called them back, opened the area, ...)')
    .action(async (id: string, opts: { note?: string }) => {
      const closed = await asOperator(io.env, op.closeLead, { leadId: id, note: opts.note });
      io.out(`${closed.id}\t${closed.status}\t${closed.note ?? ''}\n`);
    });

  const operator = program
    .command('operator')
    .description('Operator accounts: who may use the operator console (/operator)');
  operator
    .command('add')
    .description('Grant the operator console to the account with this email (created if absent).')
    .requiredOption('--email <email>', "the person's email")
    .action(async (opts: { email: string }) => {
      const done = await asOperator(io.env, op.grantOperatorAccess, { email: opts.email });
      io.out(
        `${done.email} ${done.granted ? 'may now use' : 'could already use'} the operator console (/operator).\n`,
      );
    });
  operator
    .command('remove')
    .description('Take the operator console away from the account with this email.')
    .requiredOption('--email <email>', "the person's email")
    .action(async (opts: { email: string }) => {
      const done = await asOperator(io.env, op.revokeOperatorAccess, { email: opts.email });
      io.out(
        `${done.email} ${done.revoked ? 'may no longer use' : 'was not an operator of'} the operator console.\n`,
      );
    });

  const application = program
    .command('application')
    .description('Business applications: review, approve (which makes the business) or reject');
  application
    .command('list')
    .description(
      'Applications, SUBMITTED first (longest waiting first), then the others, newest first: id, status, name, country, ' +
        'town, ready to submit (yes/no), the checklist in short, applicant email, and the business id once approved; ' +
        "under an application that claims a directory listing, the claim: the listing's own phone, email and website " +
        "beside the applicant's, MATCH / MISMATCH / NOTHING TO COMPARE, and the decision once approved.",
    )
    .option('--status <statuses>', 'only these, comma-separated: DRAFT, SUBMITTED, APPROVED, REJECTED')
    .option('--limit <n>', 'at most this many (1 to 1000)', '200')
    .option('--json', 'one JSON array, with each checklist item and area')
    .action(async (opts: { status?: string; limit: string; json?: boolean }) => {
      const limit = Number(opts.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
        throw new ServiceError('BAD_REQUEST', '--limit: a whole number from 1 to 1000.', {});
      const statuses = opts.status
        ?.split(',')
        .map((s) => s.trim().toUpperCase())
        .filter(Boolean);
      const known = ['DRAFT', 'SUBMITTED', 'APPROVED', 'REJECTED'];
      if (statuses?.some((s) => !known.includes(s)))
        throw new ServiceError('BAD_REQUEST', `--status: any of ${known.join(', ')}.`, {});
      const rows = await asOperator(io.env, op.listApplications, {
        limit,
        ...(statuses ? { statuses: statuses as ApplicationForReview['status'][] } : {}),
      });
      if (opts.json) {
        io.out(`${JSON.stringify(rows, null, 2)}\n`);
        return;
      }
      io.out(
        rows.length
          ? `${rows
              .map(
                (a) =>
                  `${a.applicationId}\t${a.status}\t${a.name}\t${a.country ?? '-'}\t${a.town ?? '-'}\t` +
                  `ready ${a.readyToSubmit ? 'yes' : 'no'}\t${a.summary}\t${a.email}\t${a.businessId ?? ''}` +
                  (a.claim ? `\n${claimLines(a.claim)}` : ''),
              )
              .join('\n')}\n`
          : 'No applications.\n',
      );
    });
  application
    .command('approve')
    .description(
      'Approve a SUBMITTED application: the business is made (lines, services, resources, areas as they stand, the owner and ' +
        'staff, its directory listing). Anything else is refused and nothing changes.',
    )
    .argument('<applicationId>')
    .option(
      '--claim-checked',
      'you checked that the applicant is the business of the directory listing it claims (see application list): ' +
        'only then does that listing become theirs; without it a new listing is published and the claimed one stays as it was',
    )
    .action(async (id: string, opts: { claimChecked?: boolean }) => {
      const a = await asOperator(io.env, op.approveApplication, {
        applicationId: id,
        claimChecked: opts.claimChecked === true,
      });
      const pending = a.areas.filter((x) => x.status === 'PENDING');
      io.out(
        `${a.applicationId}\tAPPROVED\tbusiness ${a.businessId}\tlisting ${a.listingId}${a.claimed ? ' (claimed)' : ' (new)'}\n` +
          (a.claimTaken
            ? `the claimed listing ${a.claimTaken} belongs to another business (or is gone): a new one is published\n`
            : a.claim && !a.claim.granted
              ? `the claim of listing ${a.claim.listingId} is not granted (not checked: --claim-checked): a new one is published, the claimed one stays as it was\n`
              : '') +
          `lines ${a.lines.join(', ')}; ${a.services} services; ${a.resources} resources; ${a.areas.length} areas` +
          `${pending.length ? ` (${pending.length} pending: pnpm cli area approve ${pending[0]!.id})` : ''}; ` +
          `${a.members.length} members; ${a.invitations} people invited (each joins only by accepting)\n`,
      );
    });
  application
    .command('reject')
    .description(
      'Reject a SUBMITTED application with a note saying why; the applicant sees it as reviewNote.',
    )
    .argument('<applicationId>')
    .requiredOption('--note <text>', `why, for the applicant (1 to ${MAX_REVIEW_NOTE} characters)`)
    .action(async (id: string, opts: { note: string }) => {
      const a = await asOperator(io.env, op.rejectApplication, { applicationId: id, note: opts.note });
      io.out(`${a.applicationId}\t${a.status}\t${a.reviewNote ?? ''}\n`);
    });

  const area = program
    .command('area')
    .description('Proposed service areas of business applications and of running businesses');
  area
    .command('list')
    .description(
      'PENDING areas waiting for a decision: area id, name, postal code, application (or -), business.',
    )
    .action(async () => {
      const rows = await asOperator(io.env, op.listProposedAreas, {});
      io.out(
        rows.length
          ? `${rows
              .map(
                (a) =>
                  `${a.areaId}\tPENDING\t${a.name}\t${a.postalCode ?? '-'}\t${a.applicationId ?? '-'}\t` +
                  `${a.applicationName}\t${a.businessId ?? '-'}`,
              )
              .join('\n')}\n`
          : 'No proposed area is waiting.\n',
      );
    });
  for (const [verb, decision] of [
    ['approve', 'APPROVED'],
    ['reject', 'REJECTED'],
  ] as const) {
    area
      .command(verb)
      .description(
        `${verb === 'approve' ? 'Approve' : 'Reject'} a PENDING area (area_…, from \`area list\`) of a submitted or approved ` +
          'application (once the business exists, its service area changes too) or of a running business.',
      )
      .argument('<areaId>')
      .action(async (id: string) => {
        const a = await asOperator(io.env, op.decideArea, { areaId: id, decision });
        io.out(`${a.areaId}\t${a.status}\t${a.name}\t${a.applicationId ?? '-'}\t${a.businessId ?? ''}\n`);
      });
  }

  const payoutLine = (p: Payout) =>
    `${p.payoutId}\t${p.status}\t${p.businessId}\tthrough ${p.throughDate}\t${p.amount}\t` +
    `card ${formatMoney(p.cardCents, p.currency)} less fees ${formatMoney(p.feesCents, p.currency)} and refunds ` +
    `${formatMoney(p.refundsCents, p.currency)}\t${p.payments} payments, ${p.refunds} refunds${p.note ? `\t${p.note}` : ''}`;

  const payout = program
    .command('payout')
    .description("Payouts to a business of the card money the operator's gateway collected for it");
  payout
    .command('create')
    .description(
      'Make a payout of everything settled for the business up to the end of DATE (its local date, today or earlier) ' +
        'that is in no payout yet: card payments (not cash: the business has it) less card fees and refunds, in one ' +
        'transaction. Prints the payout (id, CREATED, business, through, amount, its parts); refused when nothing is to pay.',
    )
    .argument('<businessId>')
    .requiredOption('--to <date>', 'the last local date, YYYY-MM-DD')
    .action(async (businessId: string, opts: { to: string }) => {
      const p = await asOperator(io.env, op.createPayout, { businessId, through: opts.to });
      io.out(`${payoutLine(p)}\n`);
    });
  payout
    .command('paid')
    .description("Mark a CREATED payout as transferred (PAID), with the transfer's reference.")
    .argument('<payoutId>')
    .requiredOption('--note <ref>', 'the bank reference of the transfer (1 to 200 characters)')
    .action(async (id: string, opts: { note: string }) => {
      const p = await asOperator(io.env, op.markPayoutPaid, { payoutId: id, note: opts.note });
      io.out(`${payoutLine(p)}\n`);
    });

  const stampUtc = (d: Date | string) => `${new Date(d).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const linesWords = (o: Order) => o.lines.map((l) => `${l.qty} × ${l.name} (${l.variant})`).join(', ');
  const orderLine = (o: Order) =>
    `${o.orderId}\t${o.status}\t${o.paymentStatus}\t${o.total}\t${o.shippingMethod}${o.tracking ? `\ttracking ${o.tracking}` : ''}`;

  const shop = program.command('shop').description("The operator's shop: open or closed for buying");
  for (const [verb, open] of [
    ['open', true],
    ['close', false],
  ] as const) {
    shop
      .command(verb)
      .description(
        open
          ? 'Open the shop: browse_shop, quote_order and buy answer again.'
          : 'Close the shop: browse_shop, quote_order and buy answer 409 SHOP_OFF; orders already made go on.',
      )
      .action(async () => {
        const done = await asOperator(io.env, op.setShopOpen, { open });
        const state = done.open ? 'open' : 'closed';
        io.out(done.changed ? `The shop is now ${state}.\n` : `The shop was already ${state}.\n`);
      });
  }
  shop
    .command('status')
    .description('Whether the shop is open, and when that last changed (UTC).')
    .action(async () => {
      const s = await asOperator(io.env, op.shopStatus, {});
      io.out(
        s.exists
          ? `The shop is ${s.open ? 'open' : 'closed'}${s.changedAt ? ` (since ${stampUtc(s.changedAt)})` : ''}.\n`
          : 'There is no shop: the demo data (or the operator) has not set one up.\n',
      );
    });

  const order = program
    .command('order')
    .description('Shop orders: pack, ship and deliver them; cancel or refund');
  order
    .command('list')
    .description(
      'Orders to pack and ship (paid, or cash add-ons accepted; CONFIRMED or PACKED), oldest first: id, created (UTC), ' +
        'total, delivery method, status, payment status, lines, and where it goes.',
    )
    .action(async () => {
      const rows = await asOperator(io.env, op.listOrdersToPack, {});
      io.out(
        rows.length
          ? `${rows
              .map(
                (o) =>
                  `${o.orderId}\t${stampUtc(o.createdAt)}\t${o.total}\t${o.shippingMethod}\t${o.status}\t${o.paymentStatus}\t${linesWords(o)}\t${o.delivery}`,
              )
              .join('\n')}\n`
          : 'No orders to pack.\n',
      );
    });
  order
    .command('pack')
    .description('Mark a CONFIRMED order packed (PACKED).')
    .argument('<orderId>')
    .action(async (id: string) => {
      const o = await asOperator(io.env, op.moveOrder, { orderId: id, move: 'PACK' });
      io.out(`${orderLine(o)}\n`);
    });
  order
    .command('ship')
    .description(
      'Mark a CONFIRMED or PACKED order handed over (SHIPPED): to the courier or driver, or to the crew for a visit.',
    )
    .argument('<orderId>')
    .option('--tracking <ref>', "the courier's tracking reference (the person sees it)")
    .action(async (id: string, opts: { tracking?: string }) => {
      const o = await asOperator(io.env, op.moveOrder, {
        orderId: id,
        move: 'SHIP',
        tracking: opts.tracking,
      });
      io.out(`${orderLine(o)}\n`);
    });
  order
    .command('deliver')
    .description('Mark a SHIPPED order delivered (DELIVERED).')
    .argument('<orderId>')
    .action(async (id: string) => {
      const o = await asOperator(io.env, op.moveOrder, { orderId: id, move: 'DELIVER' });
      io.out(`${orderLine(o)}\n`);
    });
  order
    .command('cancel')
    .description(
      'Cancel a CONFIRMED or PACKED order (CANCELLED): its stock and discount use return; paid money becomes REFUND_REQUESTED.',
    )
    .argument('<orderId>')
    .option('--note <text>', 'why (kept in the audit log)')
    .action(async (id: string, opts: { note?: string }) => {
      const o = await asOperator(io.env, op.moveOrder, { orderId: id, move: 'CANCEL', note: opts.note });
      io.out(`${orderLine(o)}\n`);
    });
  order
    .command('refunded')
    .description("Mark a cancelled order's refund made at the gateway (REFUND_REQUESTED becomes REFUNDED).")
    .argument('<orderId>')
    .option('--note <text>', "the gateway's refund reference or a note")
    .action(async (id: string, opts: { note?: string }) => {
      const o = await asOperator(io.env, op.moveOrder, { orderId: id, move: 'REFUNDED', note: opts.note });
      io.out(`${orderLine(o)}\n`);
    });

  const mail = program
    .command('mail')
    .description('Mail the service sends (sign-in links, and mail to people made from the events)');
  mail
    .command('list')
    .description(
      'The newest mails first, with their text while it is kept. Without SMTP_URL this is the outbox: nothing is sent, and this is ' +
        'where a sign-in link is found. Mail delivered over SMTP is listed without its text (its link is a secret).',
    )
    .option('--to <email>', 'only mail to this address')
    .option('--limit <n>', 'how many (1 to 100)', '10')
    .action(async (opts: { to?: string; limit: string }) => {
      const limit = Math.min(100, Math.max(1, Number.parseInt(opts.limit, 10) || 10));
      const rows = await asOperator(io.env, op.listMail, { limit, to: opts.to });
      if (!rows.length) {
        io.out('No mail.\n');
        return;
      }
      const blocks = rows.map((m) => {
        const state = m.sentAt
          ? `sent ${m.sentAt.toISOString()}`
          : m.lastError
            ? `not sent (${m.attempts} tries: ${m.lastError})`
            : 'in the outbox';
        return `${m.id}  ${m.createdAt.toISOString()}  ${state}\nTo: ${m.to}\nSubject: ${m.subject}\n\n${m.body ?? '(text not kept after delivery)'}`;
      });
      io.out(`${blocks.join(`\n${'-'.repeat(72)}\n`)}\n`);
    });
  mail
    .command('failed')
    .description(
      'Mail that could not be delivered: each mail to people is retried with backoff (1, 5, 30 minutes, 2, 6, 12 hours) ' +
        'and listed here after its last attempt failed, newest first, with the last error.',
    )
    .option('--limit <n>', 'how many (1 to 100)', '20')
    .action(async (opts: { limit: string }) => {
      const limit = Math.min(100, Math.max(1, Number.parseInt(opts.limit, 10) || 20));
      const rows = await asOperator(io.env, op.listFailedMail, { limit });
      if (!rows.length) {
        io.out('No failed mail.\n');
        return;
      }
      for (const m of rows)
        io.out(
          `${m.id}\t${m.failedAt?.toISOString() ?? ''}\t${m.kind}\t${m.to}\t${m.attempts} tries\t${m.subject}\n    last error: ${m.lastError ?? '-'}\n`,
        );
    });

  return program;
}

/**
 * Runs one CLI command (`args` as typed after `pnpm cli`) and answers its exit status: 0 done,
 * 1 refused or failed (the reason on `err`), 78 a bad setting, or commander's own for usage.
 */
export async function runCli(args: string[], io: CliIo): Promise<number> {
  try {
    await buildProgram(io).parseAsync(args, { from: 'user' });
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode;
    const message =
      err instanceof ServiceError || err instanceof ConfigError
        ? err.message
        : `Failed: ${(err as Error).message}`;
    io.err(`${message}\n`);
    return err instanceof ConfigError ? 78 : 1;
  }
}
