// Journeys an assistant makes, scripted over MCP. The assistant (./assistant.ts) knows the
// service only from tools/list and the answers: every argument it sends is checked against the
// tool's inputSchema first, and every id it uses comes from an earlier answer. What a person does
// outside the assistant is done here as they would do it: saving their home address on /account
// (before the journey), widening the assistant's permission, paying on the sandbox's TEST pay page,
// and the operator approving an application or reading leads. At the end of each journey: every
// refusal the assistant met said what to do next (read from the answers), and no money moved
// after a call that had neither `confirm: true` nor a `payUrl` in its answer (the test reads the
// database for that check only; the assistant never does).
import { CLI_REVIEWER, type McpSurface } from '@nogpets/operations';
import { approveApplication, createApiKey, leadsToFollowUp } from '@nogpets/operations/testing';
import { fixedClock } from '@nogpets/test-utils';
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Assistant, missingNextStep, unaskedMoneyMoves } from './assistant.js';
import { startTestServer, type TestServer } from './harness.js';
import { payOrderLink } from './shop-fixture.js';

type Json = any;

// jsqr is CommonJS typed as an ES module: its function is the module itself and its `default`.
const jsQR = ((jsQRModule as unknown as { default?: typeof jsQRModule }).default ??
  jsQRModule) as unknown as typeof import('jsqr')['default'];

const HOUR = 3_600_000;
const clock = fixedClock('2026-11-23T04:00:00Z'); // Monday 06:00 in Johannesburg
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;

describe('journeys an assistant makes over MCP, from tools/list alone', () => {
  let server: TestServer;
  const assistants: Assistant[] = [];

  /**
   * What money the database holds, as a fingerprint: every payment row (pay links, invoice and
   * order payments) with its status and amount, every booking's and order's payment status and
   * total, every invoice and every payout with status and amount. An empty table reads `-`, so no
   * part can stand in for another. Read by the test, never by the assistant.
   */
  const money = async (): Promise<string> => {
    const [row] = await server.db.sql<{ f: string }[]>`
      select concat_ws('|',
        coalesce((select string_agg(id || ':' || status || ':' || amount_cents, ',' order by id) from payments), '-'),
        coalesce((select string_agg(id || ':' || payment_status || ':' || total_cents, ',' order by id) from bookings), '-'),
        coalesce((select string_agg(id || ':' || payment_status || ':' || total_cents, ',' order by id) from orders), '-'),
        coalesce((select string_agg(id || ':' || status || ':' || amount_cents, ',' order by id) from invoices), '-'),
        coalesce((select string_agg(id || ':' || status || ':' || amount_cents, ',' order by id) from payouts), '-')) as f`;
    return row!.f;
  };
  /** A pet owner's assistant on /mcp, or (surface 'business') a business's on /mcp/business. */
  const connect = async (token?: string, surface: McpSurface = 'person') => {
    const a = await Assistant.connect(server, { token, money, surface });
    assistants.push(a);
    return a;
  };
  /** A person's key for the assistant, with the scopes they allowed. */
  const keyFor = async (email: string, scopes: string[]) =>
    (await createApiKey(server.db.sql, { email, scopes: scopes as never })).key;

  /** The end of every journey: each refusal said what to do next; money moved only with a say-so. */
  function checkJourney(a: Assistant) {
    const toolNames = a.tools.map((t) => t.name);
    expect(a.refusals.flatMap((r) => missingNextStep(r, toolNames))).toEqual([]);
    expect(unaskedMoneyMoves(a.moneyMoves)).toEqual([]);
  }

  /** The person on the sandbox's TEST pay page: opens the link, then presses pay. */
  async function payOnTestPage(payUrl: string) {
    const page = await fetch(payUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/TEST/);
    expect(await payOrderLink(server, payUrl)).toBe(303);
  }

  /** The local weekday (mon..sun) of a YYYY-MM-DD date. */
  const weekdayOf = (date: string) => WEEKDAYS[new Date(`${date}T12:00:00Z`).getUTCDay()]!;

  beforeAll(async () => {
    server = await startTestServer({ clock, database: { demoDataAt: clock.now() } });
  });
  afterAll(() => server?.stop());

  // The pet owner of journeys 1 to 3, and what the assistant learnt from the answers.
  let ownerKey: string;
  const owner = { petId: '', addressId: '', walkId: '', paidId: '' };

  it('1. books a groom for a new pet at a saved address and pays by card through the sandbox', async () => {
    ownerKey = await keyFor('naledi@example.com', [
      'profile',
      'pets',
      'addresses',
      'bookings:read',
      'bookings:write',
    ]);
    // The person saved their home address on /account before asking the assistant.
    const saved = await server.post(
      '/v1/addresses',
      { label: 'Home', line1: '12 Dorp Street', suburb: 'Die Boord', notes: 'Gate code 4321' },
      { authorization: `Bearer ${ownerKey}` },
    );
    expect(saved.status).toBe(201);

    const a = await connect(ownerKey);
    // What the assistant reads in tools/list before it starts.
    expect(a.tool('book').description).toMatch(/payUrl/);
    expect(a.tool('book').description).toMatch(/confirm: true/);

    const me = await a.ask('my_profile');
    expect(me.scopes).toContain('bookings:write');
    const { addresses } = await a.ask('list_addresses');
    const home = addresses.find((x: Json) => x.label === 'Home');
    expect(home).toMatchObject({ line1: '12 Dorp Street', suburb: 'Die Boord' });
    owner.addressId = home.id;

    const pet = await a.ask('add_pet', {
      name: 'Milo',
      type: 'DOG',
      weightKg: 11.5,
      coat: 'MEDIUM',
      breed: 'Spaniel',
    });
    expect(pet).toMatchObject({ name: 'Milo', type: 'DOG' });
    owner.petId = pet.id;
    expect((await a.ask('list_pets')).pets.map((p: Json) => p.id)).toEqual([pet.id]);

    const catalogue = await a.ask('list_services');
    const grooming = catalogue.lines.find((l: Json) => l.id === 'grooming');
    const groom = grooming.services.find((s: Json) => s.kind === 'PRIMARY' && s.petTypes.includes('DOG'));
    expect(groom).toBeTruthy();
    const request = {
      category: 'grooming',
      addressId: owner.addressId,
      pets: [{ petId: owner.petId, serviceIds: [groom.id] }],
    };
    const quote = await a.ask('get_quote', request);
    expect(quote.summary.length).toBeGreaterThan(10);
    expect(quote.cardTotalCents).toBe(quote.subtotalCents + quote.cardFeeCents);

    const times = await a.ask('find_times', request);
    const day = times.days.find((d: Json) => d.slots.length > 0);
    expect(day, JSON.stringify(times)).toBeTruthy();
    const slot = day.slots[0];

    const booked = await a.ask('book', {
      ...request,
      start: slot.start,
      resourceId: slot.resourceId,
      paymentMethod: 'CARD',
    });
    // Nothing is paid yet: the person gets a link to pay at the gateway.
    expect(booked).toMatchObject({
      status: 'PENDING',
      paymentStatus: 'PENDING',
      paymentMethod: 'CARD',
      start: slot.start,
      totalCents: quote.cardTotalCents,
    });
    expect(booked.payUrl).toMatch(/^http:\/\/.+\/pay\/[A-Za-z0-9_-]+$/);
    const before = await a.ask('get_booking', { bookingId: booked.bookingId });
    expect(before).toMatchObject({ status: 'PENDING', paymentStatus: 'PENDING', canPay: true });
    expect(a.moneyMoves.map((m) => [m.tool, m.payUrl])).toEqual([['book', booked.payUrl]]);
    const paid = await server.db.sql`
      select id from payments where ${booked.bookingId} = any(booking_ids) and status = 'PAID'`;
    expect(paid).toHaveLength(0);

    // The person opens the link and pays on the sandbox's TEST page (outside the assistant).
    await payOnTestPage(booked.payUrl);

    const after = await a.ask('get_booking', { bookingId: booked.bookingId });
    // Spec: a card booking is confirmed once paid.
    expect(after).toMatchObject({ status: 'ACCEPTED', paymentStatus: 'PAID', canPay: false });
    owner.paidId = booked.bookingId;
    checkJourney(a);
  });

  // Found by these journeys: NOTHING_TO_PAY on a paid booking once said only "already paid".
  it('1b. a pay link asked for the paid booking is refused with what to do next', async () => {
    const a = await connect(ownerKey);
    const nothing = await a.refused('pay_booking', { bookingId: owner.paidId });
    expect(nothing.code).toBe('NOTHING_TO_PAY');
    expect(a.moneyMoves).toEqual([]);
    checkJourney(a);
  });

  it('2. moves a walk 13 hours before it (allowed), then 11 hours before (TOO_LATE: phone the operator)', async () => {
    const a = await connect(ownerKey);
    // The rule as tools/list gives it (spec: until 12 hours before the start; later TOO_LATE).
    for (const name of ['reschedule_booking', 'find_reschedule_times']) {
      expect(a.tool(name).description).toMatch(/12 hours/);
      expect(a.tool(name).description).toMatch(/TOO_LATE/);
      expect(a.tool(name).description).toMatch(/phone the operator/);
    }
    expect(a.tool('reschedule_booking').annotations).toMatchObject({ destructiveHint: true });

    const walking = (await a.ask('list_services')).lines.find((l: Json) => l.id === 'walking');
    const walk = walking.services.find((s: Json) => s.kind === 'PRIMARY' && s.groupSize === 1);
    const request = {
      category: 'walking',
      addressId: owner.addressId,
      pets: [{ petId: owner.petId, serviceIds: [walk.id] }],
    };
    const tomorrow = '2026-11-24';
    const times = await a.ask('find_times', { ...request, from: tomorrow, to: tomorrow });
    const slot = times.days[0].slots[0];
    expect(slot, JSON.stringify(times)).toBeTruthy();

    // Cash: the assistant shows the summary first; the person agrees; then confirm: true.
    const cash = { ...request, start: slot.start, resourceId: slot.resourceId, paymentMethod: 'CASH' };
    const asked = await a.refused('book', cash);
    expect(asked.code).toBe('CONFIRM_REQUIRED');
    expect(asked.details.summary).toMatch(/R\d/);
    const booked = await a.ask('book', { ...cash, confirm: true });
    expect(booked).toMatchObject({ status: 'PENDING', paymentStatus: 'CASH_DUE', start: slot.start });
    expect(booked.payUrl).toBeUndefined();
    owner.walkId = booked.bookingId;

    // 13 hours before the walk the person asks to move it to another day.
    clock.set(new Date(Date.parse(slot.start) - 13 * HOUR));
    const options = await a.ask('find_reschedule_times', { bookingId: booked.bookingId });
    const later = options.days.filter((d: Json) => d.date > tomorrow && d.slots.length > 0);
    expect(later.length, JSON.stringify(options)).toBeGreaterThan(1);
    const target = later[0].slots[0];
    const remembered = later[1].slots[0];
    const moved = await a.ask('reschedule_booking', {
      bookingId: booked.bookingId,
      start: target.start,
      resourceId: target.resourceId,
    });
    // Spec: PENDING until the business accepts the new time; price and payment unchanged.
    expect(moved).toMatchObject({ start: target.start, status: 'PENDING', paymentStatus: 'CASH_DUE' });
    const atNewTime = await a.ask('get_booking', { bookingId: booked.bookingId });
    expect(atNewTime.totalCents).toBe(booked.totalCents);

    // 11 hours before the new time the person asks to move it again: too late to do it here.
    clock.set(new Date(Date.parse(target.start) - 11 * HOUR));
    const noTimes = await a.refused('find_reschedule_times', { bookingId: booked.bookingId });
    expect(noTimes.code).toBe('TOO_LATE');
    const tooLate = await a.refused('reschedule_booking', {
      bookingId: booked.bookingId,
      start: remembered.start,
      resourceId: remembered.resourceId,
    });
    expect(tooLate.code).toBe('TOO_LATE');
    // What the person is told: they must phone the operator (spec, Errors: TOO_LATE).
    expect(tooLate.message).toMatch(/phone the operator/);
    expect(tooLate.details).toMatchObject({ bookingId: booked.bookingId });
    // Nothing changed.
    const unchanged = await a.ask('get_booking', { bookingId: booked.bookingId });
    expect(unchanged).toEqual(atNewTime);
    // Moving never touched money; booking cash did, after confirm: true.
    expect(a.moneyMoves.map((m) => [m.tool, m.confirmed])).toEqual([['book', true]]);
    checkJourney(a);
  });

  it('3. books a weekly walk series and cancels the whole series after the person agrees', async () => {
    const a = await connect(ownerKey);
    expect(a.tool('cancel_booking').description).toMatch(/series: true/);
    expect(a.tool('cancel_booking').annotations).toMatchObject({ destructiveHint: true });
    expect(a.tool('book').inputSchema.properties?.repeat).toBeTruthy();

    const walking = (await a.ask('list_services')).lines.find((l: Json) => l.id === 'walking');
    expect(walking.repeats).toBe(true);
    const walk = walking.services.find((s: Json) => s.kind === 'PRIMARY' && s.groupSize === 1);
    const request = {
      category: 'walking',
      addressId: owner.addressId,
      pets: [{ petId: owner.petId, serviceIds: [walk.id] }],
    };
    const times = await a.ask('find_times', { ...request, from: '2026-11-27', to: '2026-11-28' });
    const day = times.days.find((d: Json) => d.slots.length > 0);
    const slot = day.slots[0];
    const booked = await a.ask('book', {
      ...request,
      start: slot.start,
      resourceId: slot.resourceId,
      paymentMethod: 'CARD',
      repeat: { freq: 'WEEKLY', days: [weekdayOf(day.date)] },
    });
    expect(booked.bookingIds.length, JSON.stringify(booked)).toBeGreaterThanOrEqual(3);
    expect(booked.bookingIds[0]).toBe(booked.bookingId);
    expect(booked.payUrl).toBeTruthy();
    const listed = (await a.ask('list_bookings', { limit: 50 })).bookings.map((b: Json) => b.id);
    expect(listed).toEqual(expect.arrayContaining(booked.bookingIds));

    // The person wants the whole series gone: the assistant says what will be cancelled first.
    const asked = await a.refused('cancel_booking', { bookingId: booked.bookingId, series: true });
    expect(asked.code).toBe('CONFIRM_REQUIRED');
    expect(asked.details.summary.length).toBeGreaterThan(10);
    for (const id of booked.bookingIds)
      expect((await a.ask('get_booking', { bookingId: id })).status).toBe('PENDING');

    const cancelled = await a.ask('cancel_booking', {
      bookingId: booked.bookingId,
      series: true,
      confirm: true,
    });
    expect([...cancelled.cancelled].sort()).toEqual([...booked.bookingIds].sort());
    for (const id of booked.bookingIds)
      expect(await a.ask('get_booking', { bookingId: id })).toMatchObject({
        status: 'CANCELLED',
        canPay: false,
      });
    const left = (await a.ask('list_bookings', { limit: 50 })).bookings.map((b: Json) => b.id);
    for (const id of booked.bookingIds) expect(left).not.toContain(id);
    // The earlier walk of journey 2 is not part of the series and stays.
    expect(left).toContain(owner.walkId);
    checkJourney(a);
  });

  it('4. asks for a place abroad: the lead is recorded and its message is passed on word for word', async () => {
    const a = await connect(); // public tools: no sign-in
    expect(a.tool('check_coverage').description).toMatch(/word for word/);
    const place = 'Rua Augusta 100, Lisbon, Portugal';
    const coverage = await a.ask('check_coverage', { address: place });
    expect(coverage).toMatchObject({ covered: false, error: 'NO_COVERAGE' });
    expect(coverage.place).toMatchObject({ country: 'PT' });
    expect(typeof coverage.leadId).toBe('string');
    // Words for the person: where we do not come, where we do, and that the request was noted.
    expect(coverage.message).toMatch(/Lisbo/);
    expect(coverage.message).toMatch(/noted your request/);
    expect(coverage.next).toMatch(/word for word/);

    // Asking for times there: the same lead, and the same words to pass on.
    const groom = (await a.ask('list_services')).lines
      .find((l: Json) => l.id === 'grooming')
      .services.find((s: Json) => s.kind === 'PRIMARY' && s.petTypes.includes('DOG'));
    const refused = await a.refused('find_times', {
      category: 'grooming',
      address: place,
      pets: [{ name: 'Bolt', type: 'DOG', weightKg: 20, coat: 'SHORT', serviceIds: [groom.id] }],
    });
    expect(refused.code).toBe('NO_COVERAGE');
    expect(refused.details.leadId).toBe(coverage.leadId);
    expect(refused.details.message).toBe(coverage.message);

    // The operator sees the lead to follow up (the CLI's `lead list`).
    const leads = await leadsToFollowUp({ sql: server.db.sql, clock });
    const lead = leads.find((l) => l.id === coverage.leadId);
    expect(lead).toMatchObject({ reason: 'NO_COVERAGE', asks: 2 });
    expect(lead!.place).toMatchObject({ country: 'PT' });
    // Nothing about money: no call moved any.
    expect(a.moneyMoves).toEqual([]);
    checkJourney(a);
  });

  it('5. signs up a groomer in Lisbon and sends it for review after the person agrees', async () => {
    const a = await connect(await keyFor('ines@banho-lisboa.example', ['business:write']), 'business');
    expect(a.tool('connect_gateway').description).toMatch(/South Africa only/);
    for (const name of ['add_business_services', 'set_service_area', 'add_resources', 'set_operating_hours'])
      expect(a.tool(name).annotations, name).toMatchObject({ destructiveHint: true });

    const empty = await a.ask('get_signup_status');
    expect(empty.application).toBeNull();
    const started = await a.ask('start_business_signup', {
      businessName: 'Banho & Tosquia da Baixa',
      contactName: 'Inês Costa',
      town: 'Lisbon',
      country: 'PT',
      phone: '+351 912 345 678',
      categories: ['grooming'],
      mode: 'SALON',
    });
    // The currency follows from the country; Portugal keeps three time zones, so `next` says to ask
    // the person which one, and the checklist asks for a way of being paid, never a gateway (South
    // Africa only).
    expect(started).toMatchObject({ status: 'DRAFT', country: 'PT', currency: 'EUR', readyToSubmit: false });
    expect(started.statusUrl).toMatch(/^http.*\/business\/applications\//);
    const applicationId = started.applicationId;
    const item = (app: Json, id: string) => app.checklist.find((i: Json) => i.id === id);
    expect(started.timezone).toBeNull();
    expect(item(started, 'details')).toMatchObject({ status: 'MISSING', fixWith: 'start_business_signup' });
    expect(started.next).toMatch(/time zone.*Europe\/Lisbon.*start_business_signup/);
    expect(item(started, 'gateway')).toBeUndefined();
    expect(item(started, 'payout')).toMatchObject({ required: false, fixWith: 'start_business_signup' });
    let app = await a.ask('start_business_signup', {
      applicationId,
      timezone: 'Europe/Lisbon',
      payoutPreference: { method: 'Wise' },
    });
    expect(app).toMatchObject({ timezone: 'Europe/Lisbon', currency: 'EUR' });
    expect(item(app, 'details').status).toBe('DONE');
    expect(item(app, 'payout').status).toBe('DONE');
    // Each step's `next` names the tool for what is still missing.
    expect(app.next).toMatch(/add_business_services/);

    app = await a.ask('add_business_services', {
      applicationId,
      services: [
        {
          category: 'grooming',
          kind: 'PRIMARY',
          name: 'Banho completo',
          petTypes: ['DOG'],
          priceCents: 3500,
          durationMin: 60,
        },
      ],
    });
    expect(app.services[0]).toMatchObject({ name: 'Banho completo', priceCents: 3500 });
    app = await a.ask('set_service_area', { applicationId, postalCodes: ['1100-001'] });
    expect(app.areas[0]).toMatchObject({ status: 'PENDING' });
    app = await a.ask('set_operating_hours', {
      applicationId,
      week: {
        tue: [
          { start: '09:00', end: '13:00' },
          { start: '14:00', end: '19:00' },
        ],
        wed: [{ start: '09:00', end: '19:00' }],
        sat: [{ start: '09:00', end: '13:00' }],
      },
    });
    app = await a.ask('add_resources', { applicationId, resources: [{ kind: 'VAN', name: 'Mesa 1' }] });

    const status = await a.ask('get_signup_status', { applicationId });
    expect(status.application).toMatchObject({ applicationId, status: 'DRAFT', readyToSubmit: true });

    // Submitting: first the summary the person must see, then confirm: true once they agree.
    expect(a.tool('submit_business_for_review').description).toMatch(/confirm: true/);
    const asked = await a.refused('submit_business_for_review', { applicationId });
    expect(asked.code).toBe('CONFIRM_REQUIRED');
    expect(asked.details.summary).toMatch(/Banho completo/);
    expect(asked.details.summary).toMatch(/€35/);
    expect(asked.details.summary).toMatch(/Europe\/Lisbon|Lisbon/);
    expect((await a.ask('get_signup_status', { applicationId })).application.status).toBe('DRAFT');
    const sent = await a.ask('submit_business_for_review', { applicationId, confirm: true });
    expect(sent).toMatchObject({ applicationId, status: 'SUBMITTED' });
    expect(sent.next.length).toBeGreaterThan(10);

    // The operator approves it (outside the assistant: the CLI's `application approve`).
    await approveApplication(
      { sql: server.db.sql, clock, payments: { publicUrl: () => server.url } },
      applicationId,
      CLI_REVIEWER,
    );
    const approved = await a.ask('get_signup_status', { applicationId });
    expect(approved.application.status).toBe('APPROVED');
    expect(a.moneyMoves).toEqual([]);
    checkJourney(a);
  });

  it('6. buys from the shop with a discount code, the bad code refused with what to do, nothing paid before the person pays', async () => {
    // At first the person let the assistant only see their bookings.
    const email = 'sipho@example.com';
    let a = await connect(await keyFor(email, ['bookings:read']));
    const shop = await a.ask('browse_shop', { petType: 'DOG', q: 'chew rope' });
    // The best match first; the person picks it.
    const rope = shop.products[0];
    expect(rope.name).toMatch(/rope/i);
    const variant = rope.variants.find((v: Json) => v.inStock);
    const order = {
      items: [{ productId: rope.id, variantId: variant.id, qty: 2 }],
      shippingMethod: 'courier',
      postalCode: '7600',
    };
    // A code that does not exist: the quote reports it (it never refuses for a code) with what to do.
    const badQuote = await a.ask('quote_order', { ...order, discountCode: 'NOPE2026' });
    expect(badQuote.discountError.message.length).toBeGreaterThan(10);
    expect(badQuote.discountCents).toBe(0);
    const quote = await a.ask('quote_order', { ...order, discountCode: 'welcome10' });
    expect(quote.discountError).toBeNull();
    expect(quote.discountCents).toBe(Math.round(quote.subtotalCents / 10));
    expect(quote.totalCents).toBe(quote.subtotalCents - quote.discountCents + quote.deliveryFeeCents);
    expect(quote.canBuy).toBe(true);

    const shipTo = { line1: '12 Dorp Street', city: 'Stellenbosch', postalCode: '7600' };
    // Buying needs a permission the assistant was not given: refused at the door with the scope to ask for.
    const narrow = await a.refused('buy', { ...order, shipTo, discountCode: 'WELCOME10' });
    expect(narrow.code).toBe('FORBIDDEN');
    expect(narrow.details.scope).toMatch(/orders:write/);
    checkJourney(a);

    // The person widens the permission (on /account, outside the assistant).
    a = await connect(await keyFor(email, ['bookings:read', 'orders:write']));
    const bad = await a.refused('buy', { ...order, shipTo, discountCode: 'NOPE2026' });
    expect(bad.code).toBe('DISCOUNT_NOT_VALID');
    expect(bad.details.discountError.message).toBe(badQuote.discountError.message);
    expect((await a.ask('list_orders')).orders).toEqual([]);

    const bought = await a.ask('buy', { ...order, shipTo, discountCode: 'WELCOME10' });
    expect(bought).toMatchObject({ status: 'PENDING_PAYMENT', totalCents: quote.totalCents });
    expect(bought.payUrl).toMatch(/\/pay\//);
    expect(a.moneyMoves.map((m) => [m.tool, m.payUrl])).toEqual([['buy', bought.payUrl]]);
    const unpaid = await a.ask('get_order', { orderId: bought.orderId });
    expect(unpaid).toMatchObject({ status: 'PENDING_PAYMENT', paymentStatus: 'PENDING' });

    await payOnTestPage(bought.payUrl);
    const paid = await a.ask('get_order', { orderId: bought.orderId });
    expect(paid).toMatchObject({ status: 'CONFIRMED', paymentStatus: 'PAID', discountCode: 'WELCOME10' });
    checkJourney(a);
  });

  it("7. runs an approved business's day: day plan, a phone booking after the confirm step, an invoice link with its QR code", async () => {
    const a = await connect(await keyFor('owner@partner.example', ['business:manage']), 'business');
    const today = await a.ask('get_day_plan');
    expect(today).toMatchObject({
      businessName: 'Boland Paws',
      role: 'owner',
      timezone: 'Africa/Johannesburg',
    });
    expect(today.resources.length).toBeGreaterThan(0);

    const prices = await a.ask('list_prices');
    const bath = prices.lines
      .find((l: Json) => l.id === 'grooming')
      .services.find((s: Json) => s.kind === 'PRIMARY' && s.petTypes.includes('DOG'));
    // A client phones: a new client with a described dog, tomorrow.
    const tomorrow = new Date(Date.parse(`${today.date}T12:00:00Z`) + 24 * HOUR).toISOString().slice(0, 10);
    const pets = [
      {
        name: 'Rocky',
        type: 'DOG',
        weightKg: 18,
        coat: 'SHORT',
        notes: 'Nervous of dryers',
        serviceIds: [bath.serviceId],
      },
    ];
    const times = await a.ask('find_business_times', { pets, from: tomorrow, to: tomorrow });
    const slot = times.days[0]?.slots[0];
    expect(slot, JSON.stringify(times)).toBeTruthy();
    const booking = {
      client: { name: 'Johan Botha', phone: '082 555 0177' },
      pets,
      start: slot.start,
      resourceId: slot.resourceId,
      address: { line1: '8 Van Riebeeck Street', suburb: 'Die Boord', accessNotes: 'Blue gate' },
      paymentMethod: 'CASH',
    };
    expect(a.invalid('book_for_client', booking)).toBeNull();
    const asked = await a.refused('book_for_client', booking);
    expect(asked.code).toBe('CONFIRM_REQUIRED');
    expect(asked.details.summary).toMatch(/Johan Botha/);
    const made = await a.ask('book_for_client', { ...booking, confirm: true });
    expect(made.newClient).toBe(true);
    expect(made.booking).toMatchObject({
      start: slot.start,
      paymentMethod: 'CASH',
      paymentStatus: 'CASH_DUE',
    });
    const plan = await a.ask('get_day_plan', { date: tomorrow });
    const jobs = plan.resources.flatMap((r: Json) => r.jobs);
    expect(jobs.find((j: Json) => j.bookingId === made.booking.bookingId)).toMatchObject({
      client: { name: 'Johan Botha' },
    });

    // An invoice for a bag of food sold at the door: the summary first, then the link and its QR code.
    const invoice = { amountCents: 28900, description: 'Dry dog food 2 kg', clientId: made.clientId };
    const first = await a.refused('create_invoice_link', invoice);
    expect(first.code).toBe('CONFIRM_REQUIRED');
    expect(first.details.summary).toMatch(/R289/);
    const link = await a.ask('create_invoice_link', { ...invoice, confirm: true });
    expect(link).toMatchObject({ status: 'OPEN', amountCents: 28900, currency: 'ZAR' });
    expect(link.message).toContain(link.payUrl);
    const png = PNG.sync.read(Buffer.from(link.qr.png.replace(/^data:image\/png;base64,/, ''), 'base64'));
    expect(jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data).toBe(link.payUrl);
    expect(link.qr.svg).toMatch(/^<\?xml|^<svg/);
    // Money moved only on the confirmed calls.
    expect(a.moneyMoves.map((m) => [m.tool, m.confirmed])).toEqual([
      ['book_for_client', true],
      ['create_invoice_link', true],
    ]);
    checkJourney(a);
  });

  it('every tool the journeys used is listed with a description, and read-only ones are marked so', () => {
    const used = new Set(assistants.flatMap((a) => [...a.used]));
    expect(used.size).toBeGreaterThan(25);
    // Each journey ran on its audience's endpoint: the business ones saw none of a pet owner's tools.
    const business = assistants.filter((a) => a.tools.some((t) => t.name === 'get_day_plan'));
    expect(business.length).toBe(2);
    for (const a of business) expect(a.tools.map((t) => t.name)).not.toContain('book');
    const tools = [...assistants[0]!.tools, ...business[0]!.tools];
    for (const name of used) {
      const tool = tools.find((t) => t.name === name)!;
      expect(tool.description?.trim().length, name).toBeGreaterThan(40);
      // Spec rule 9: read-only tools are marked read-only and idempotent.
      if (tool.annotations?.readOnlyHint) expect(tool.annotations.idempotentHint, name).toBe(true);
    }
    for (const name of [
      'list_services',
      'check_coverage',
      'get_quote',
      'find_times',
      'get_booking',
      'list_bookings',
    ])
      expect(tools.find((t) => t.name === name)!.annotations, name).toMatchObject({
        readOnlyHint: true,
        idempotentHint: true,
      });
  });
});
