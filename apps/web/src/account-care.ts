// The pet owner's part of the account page: bookings (pay, cancel, until when movable), shop
// orders, pets and addresses. Every read and change runs through runOperation as the person themselves:
// the operation an assistant would call, or the page's own internal one (pageOperations).
import {
  type AccountBooking,
  addAddress,
  addPet,
  cancelBooking,
  dayText,
  listAddresses,
  listOrders,
  listPets,
  momentText,
  type OperationContext,
  type Order,
  pageOperations,
  paymentWords,
  payBooking,
  payOrder,
  runOperation,
  ServiceError,
  statusWords,
  UPCOMING_SHOWN,
} from '@nogpets/operations';
import type { Runtime } from '@nogpets/runtime';
import type { AddressRow as Address, PetRow as Pet, UserRow } from '@nogpets/operations';
import type { Request, Response, Router } from 'express';
import html from 'html-template-tag';
import { personCall } from './calls.js';
import { page } from './layout.js';

/** What the person just did, said at the top of the section it was done in. */
export interface Notice {
  section: 'bookings' | 'orders' | 'pets' | 'addresses';
  text: string;
  error?: boolean;
}

type Session = { user: UserRow; csrf: string };
/** What a form's change comes to: words for the person, a refusal with its status, or null once answered. */
type Outcome = string | { text: string; status: number } | null;

/** Shop orders listed on the account page, newest first (an assistant's list_orders pages through all). */
const ORDERS_SHOWN = 20;

/** Everything the pet owner's sections show, read through the operations. */
export async function loadCare(ctx: OperationContext) {
  const [bookings, { orders }, { pets }, { addresses }, timeZone] = await Promise.all([
    runOperation(pageOperations.accountBookings, ctx, {}),
    runOperation(listOrders, ctx, { limit: ORDERS_SHOWN }),
    runOperation(listPets, ctx, {}),
    runOperation(listAddresses, ctx, {}),
    runOperation(pageOperations.pagesTimeZone, ctx, {}),
  ]);
  return {
    bookings,
    orders: orders as Order[],
    pets: pets as Pet[],
    addresses: addresses as Address[],
    timeZone,
  };
}

const noticeHtml = (notice: Notice | undefined, section: Notice['section']) =>
  notice?.section === section
    ? html`<p class="${notice.error ? 'error' : 'notice'}" role="status">${notice.text}</p>`
    : '';

const hidden = (csrf: string) => html`<input type="hidden" name="csrf" value="${csrf}">`;

function bookingActions(b: AccountBooking, csrf: string): string {
  const pay = b.canPay
    ? html`<form method="post" action="/account/bookings/${b.id}/pay">$${hidden(csrf)}<button type="submit">Pay ${b.total}</button></form>`
    : '';
  const cancel = (series: boolean, label: string) =>
    html`<form method="post" action="/account/bookings/${b.id}/cancel">$${hidden(csrf)}<input type="hidden" name="series" value="${series ? 'yes' : 'no'}"><button class="secondary" type="submit">${label}</button></form>`;
  const cancels = !b.cancellable
    ? ''
    : b.seriesId
      ? cancel(false, 'Cancel this week') + cancel(true, 'Cancel this and later weeks')
      : cancel(false, 'Cancel');
  return pay + cancels;
}

/** The latest thing the business told the person about the booking (it accepted, declined, moved or cancelled it). */
function fromBusiness(b: AccountBooking): string {
  const latest = b.fromBusiness?.[0];
  return latest ? html`<p class="from-business">${latest.text}</p>` : '';
}

function bookingRows(bookings: AccountBooking[], csrf: string, upcoming: boolean): string {
  return bookings
    .map(
      (b) => html`<tr id="booking-${b.id}">
        <td><strong>${b.what}</strong><br>${b.when}<br><span class="muted">${b.where}</span>$${fromBusiness(b)}</td>
        <td data-label="Status">${statusWords(b)}</td>
        <td data-label="Payment">${paymentWords(b)}</td>
        <td data-label="Total">${b.total}$${b.cardFeeCents && b.paymentStatus !== 'VOID' ? html`<br><span class="muted">with the card fee</span>` : ''}</td>
        $${upcoming ? html`<td data-label="Can be moved">${b.movable ?? ''}</td><td>$${bookingActions(b, csrf)}</td>` : ''}
      </tr>`,
    )
    .join('');
}

function bookingsSection(care: Awaited<ReturnType<typeof loadCare>>, csrf: string, notice?: Notice) {
  const { upcoming, earlier } = care.bookings;
  return html`<h2 id="bookings">Bookings</h2>
    $${noticeHtml(notice, 'bookings')}
    <h3>Upcoming</h3>
    $${
      upcoming.length
        ? html`<table id="upcoming"><tr><th>What, when and where</th><th>Status</th><th>Payment</th><th>Total</th><th>Can be moved</th><th></th></tr>$${bookingRows(upcoming, csrf, true)}</table>
          $${upcoming.length >= UPCOMING_SHOWN ? html`<p class="muted">These are the next ${String(UPCOMING_SHOWN)}; later ones follow once these are over.</p>` : ''}
          <p class="muted">To move a booking, ask your assistant for other times (find_reschedule_times, then reschedule_booking).</p>`
        : html`<p>No upcoming bookings. Ask your assistant to book grooming, a walk or pet sitting.</p>`
    }
    $${
      earlier.length
        ? html`<h3>Earlier and cancelled</h3><table id="earlier"><tr><th>What, when and where</th><th>Status</th><th>Payment</th><th>Total</th></tr>$${bookingRows(earlier, csrf, false)}</table>`
        : ''
    }`;
}

/** An unpaid card order's Pay button: pay_order's fresh link, the browser sent on to it. */
function orderActions(o: Order, csrf: string): string {
  return o.canPay
    ? html`<form method="post" action="/account/orders/${o.orderId}/pay">$${hidden(csrf)}<button type="submit">Pay ${o.total}</button></form>`
    : '';
}

function ordersSection(orders: Order[], timeZone: string, csrf: string, notice?: Notice): string {
  return html`<h2 id="orders">Shop orders</h2>
    $${noticeHtml(notice, 'orders')}
    $${
      orders.length
        ? html`<table id="order-list"><tr><th>What</th><th>Delivery</th><th>Status</th><th>Total</th><th></th></tr>$${orders
            .map(
              (o) => html`<tr id="order-${o.orderId}">
                <td><strong>${o.lines.map((l) => `${l.qty} × ${l.name} (${l.variant})`).join(', ')}</strong><br><span class="muted">${dayText(new Date(o.createdAt), timeZone)} · ${o.orderId}</span></td>
                <td data-label="Delivery">${o.delivery}</td>
                <td data-label="Status">${o.statusText}$${o.tracking ? html`<br>Tracking: ${o.tracking}` : ''}$${o.canPay && o.expiresAt ? html`<br><span class="muted">Pay by ${momentText(new Date(o.expiresAt), timeZone)}; unpaid, the order closes then.</span>` : ''}</td>
                <td data-label="Total">${o.total}$${o.discountCents > 0 ? html`<br><span class="muted">after ${o.discount} off (${o.discountCode ?? ''})</span>` : ''}</td>
                <td>$${orderActions(o, csrf)}</td>
              </tr>`,
            )
            .join('')}</table>
          $${orders.length >= ORDERS_SHOWN ? html`<p class="muted">These are your latest ${String(ORDERS_SHOWN)} orders; ask your assistant for older ones (list_orders).</p>` : ''}`
        : html`<p>No shop orders yet.</p>`
    }`;
}

const petFacts = (p: Pet) =>
  [
    p.type === 'DOG' ? 'Dog' : 'Cat',
    p.breed,
    `${p.weightKg} kg`,
    `${p.coat.toLowerCase()} coat`,
    p.birthYear ? `born ${p.birthYear}` : null,
  ]
    .filter(Boolean)
    .join(', ');

function notesForm(
  kind: 'pets' | 'addresses',
  saved: { id: string; notes: string | null; name: string },
  csrf: string,
  max: number,
) {
  const { id, notes, name } = saved;
  return html`<form method="post" action="/account/${kind}/${id}/notes">$${hidden(csrf)}
    <label class="sr-only" for="notes-${id}">Notes for ${name}</label><textarea id="notes-${id}" name="notes" maxlength="${String(max)}" rows="2">${notes ?? ''}</textarea>
    <button type="submit">Save notes</button></form>
    <form method="post" action="/account/${kind}/${id}/remove">$${hidden(csrf)}<button class="secondary" type="submit">Remove ${name}</button></form>`;
}

function petsSection(pets: Pet[], csrf: string, notice?: Notice) {
  return html`<h2 id="pets">Pets</h2>
    $${noticeHtml(notice, 'pets')}
    $${
      pets.length
        ? html`<table id="pet-list"><tr><th>Pet</th><th>Notes</th></tr>$${pets
            .map(
              (p) =>
                html`<tr id="pet-${p.id}"><td><strong>${p.name}</strong><br>${petFacts(p)}</td><td>$${notesForm('pets', { ...p }, csrf, 500)}</td></tr>`,
            )
            .join('')}</table>`
        : html`<p>No pets saved yet.</p>`
    }
    <details><summary>Add a pet</summary>
    <form method="post" action="/account/pets">$${hidden(csrf)}
      <label for="pet-name">Name</label><input id="pet-name" type="text" name="name" maxlength="60" required>
      <label for="pet-type">Dog or cat</label><select id="pet-type" name="type"><option value="DOG">Dog</option><option value="CAT">Cat</option></select>
      <label for="pet-weight">Weight in kg (an estimate is fine)</label><input id="pet-weight" type="number" name="weightKg" min="0.1" max="120" step="0.1" required>
      <label for="pet-coat">Coat</label><select id="pet-coat" name="coat"><option value="SHORT">Short</option><option value="MEDIUM">Medium (curly clip coats such as poodles)</option><option value="LONG">Long</option></select>
      <label for="pet-breed">Breed (optional)</label><input id="pet-breed" type="text" name="breed" maxlength="80">
      <label for="pet-born">Year born (optional)</label><input id="pet-born" type="number" name="birthYear" min="1980" max="2100">
      <label for="pet-notes">Notes: temperament, health (optional)</label><textarea id="pet-notes" name="notes" maxlength="500" rows="2"></textarea>
      <button type="submit">Save pet</button>
    </form></details>`;
}

const addressText = (a: Address) =>
  [a.line1, a.suburb, a.postalCode, a.city !== a.suburb ? a.city : null].filter(Boolean).join(', ');

function addressesSection(addresses: Address[], csrf: string, notice?: Notice) {
  return html`<h2 id="addresses">Addresses</h2>
    $${noticeHtml(notice, 'addresses')}
    $${
      addresses.length
        ? html`<table id="address-list"><tr><th>Address</th><th>Notes</th></tr>$${addresses
            .map(
              (a) =>
                html`<tr id="address-${a.id}"><td><strong>${a.label}</strong><br>${addressText(a)}</td><td>$${notesForm('addresses', { id: a.id, notes: a.notes, name: a.label }, csrf, 300)}</td></tr>`,
            )
            .join('')}</table>`
        : html`<p>No addresses saved yet.</p>`
    }
    <details><summary>Add an address</summary>
    <form method="post" action="/account/addresses">$${hidden(csrf)}
      <label for="address-label">Label (Home, Work)</label><input id="address-label" type="text" name="label" maxlength="40" required>
      <label for="address-line1">Street and number</label><input id="address-line1" type="text" name="line1" maxlength="200" required autocomplete="address-line1">
      <label for="address-suburb">Suburb</label><input id="address-suburb" type="text" name="suburb" maxlength="80" autocomplete="address-level3">
      <label for="address-postal">Postal code</label><input id="address-postal" type="text" name="postalCode" maxlength="10" autocomplete="postal-code">
      <label for="address-notes">Notes: gate code, parking (optional)</label><textarea id="address-notes" name="notes" maxlength="300" rows="2"></textarea>
      <button type="submit">Save address</button>
    </form></details>`;
}

/** The pet owner's sections of the account page. */
export function careSections(
  care: Awaited<ReturnType<typeof loadCare>>,
  csrf: string,
  notice?: Notice,
): string {
  return (
    bookingsSection(care, csrf, notice) +
    ordersSection(care.orders, care.timeZone, csrf, notice) +
    petsSection(care.pets, csrf, notice) +
    addressesSection(care.addresses, csrf, notice)
  );
}

/**
 * A form's text field as an operation reads it: trimmed, line breaks as one character (browsers send
 * CRLF, which maxlength counted as one), left out when empty; a field sent twice stays a list, which
 * the operation refuses by name.
 */
function field(body: Record<string, unknown> | undefined, name: string): unknown {
  const v = body?.[name];
  if (Array.isArray(v)) return v;
  const text = typeof v === 'string' ? v.replace(/\r\n?/g, '\n').trim() : '';
  return text === '' ? undefined : text;
}

/** A number field: decimal digits only (no 0x10 or 1e3); anything else goes on as text, refused by name. */
function numberField(body: Record<string, unknown> | undefined, name: string): unknown {
  const v = field(body, name);
  return typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v;
}

export interface CareDeps {
  runtime: Runtime;
  /** The signed-in person (and a matching form token on a POST), or null once answered. */
  requireSession(req: Request, res: Response): Promise<Session | null>;
  /** The account page with a notice, at the given status. */
  showAccount(res: Response, s: Session, notice: Notice, status?: number): Promise<void>;
}

/** The routes behind the pet owner's forms; each runs one operation as the person. */
export function careRoutes(router: Router, { runtime, requireSession, showAccount }: CareDeps): void {
  const context = (req: Request, s: Session) => personCall(runtime, req, s.user.id);

  /** Runs a form's change; a refusal the person can act on is said on the account page. */
  const act =
    (
      section: Notice['section'],
      run: (req: Request, ctx: OperationContext, res: Response) => Promise<Outcome>,
    ) =>
    async (req: Request, res: Response, next: (err?: unknown) => void) => {
      try {
        const s = await requireSession(req, res);
        if (!s) return;
        let outcome: Outcome;
        try {
          outcome = await run(req, context(req, s), res);
        } catch (err) {
          if (!(err instanceof ServiceError) || err.status >= 500) throw err;
          outcome = { text: err.message, status: err.status };
        }
        if (typeof outcome === 'string') await showAccount(res, s, { section, text: outcome });
        else if (outcome)
          await showAccount(res, s, { section, text: outcome.text, error: true }, outcome.status);
      } catch (err) {
        next(err);
      }
    };

  router.post(
    '/account/bookings/:id/pay',
    act('bookings', async (req, ctx, res) => {
      const link = await runOperation(payBooking, ctx, { bookingId: String(req.params.id) });
      // The pay page is ours (/pay/{token}); the browser goes there at once.
      res.redirect(303, link.payUrl);
      return null;
    }),
  );

  router.post(
    '/account/orders/:id/pay',
    act('orders', async (req, ctx, res) => {
      const link = await runOperation(payOrder, ctx, { orderId: String(req.params.id) });
      // The pay page is ours (/pay/{token}); the browser goes there at once.
      res.redirect(303, link.payUrl);
      return null;
    }),
  );

  // Cancelling asks first, as the API does: without `confirm` the operation answers the summary.
  router.post('/account/bookings/:id/cancel', async (req, res, next) => {
    try {
      const s = await requireSession(req, res);
      if (!s) return;
      const ctx = context(req, s);
      const bookingId = String(req.params.id);
      const series = req.body?.series === 'yes';
      const confirm = req.body?.confirm === 'yes';
      try {
        const done = await runOperation(cancelBooking, ctx, { bookingId, series, confirm });
        await showAccount(res, s, { section: 'bookings', text: done.message });
      } catch (err) {
        if (!(err instanceof ServiceError) || err.status >= 500) throw err;
        if (err.code !== 'CONFIRM_REQUIRED') {
          await showAccount(res, s, { section: 'bookings', text: err.message, error: true }, err.status);
          return;
        }
        res.type('html').send(
          page(
            'Cancel this booking?',
            html`<p id="summary">${String(err.details.summary ?? err.message)}</p>
            <form method="post" action="/account/bookings/${bookingId}/cancel">$${hidden(s.csrf)}
              <input type="hidden" name="series" value="${series ? 'yes' : 'no'}">
              <button class="secondary" type="submit" name="confirm" value="yes">Yes, cancel it</button>
            </form>
            <p><a href="/account#bookings">No, keep it</a></p>`,
            s,
          ),
        );
      }
    } catch (err) {
      next(err);
    }
  });

  router.post(
    '/account/pets',
    act('pets', async (req, ctx) => {
      const body = req.body as Record<string, unknown> | undefined;
      const pet = await runOperation(addPet, ctx, {
        name: field(body, 'name') ?? '',
        type: field(body, 'type'),
        weightKg: numberField(body, 'weightKg'),
        coat: field(body, 'coat'),
        breed: field(body, 'breed'),
        birthYear: numberField(body, 'birthYear'),
        notes: field(body, 'notes'),
      });
      return `Saved ${pet.name}.`;
    }),
  );

  router.post(
    '/account/addresses',
    act('addresses', async (req, ctx) => {
      const body = req.body as Record<string, unknown> | undefined;
      const address = await runOperation(addAddress, ctx, {
        label: field(body, 'label') ?? '',
        line1: field(body, 'line1') ?? '',
        suburb: field(body, 'suburb'),
        postalCode: field(body, 'postalCode'),
        notes: field(body, 'notes'),
      });
      return `Saved ${address.label}.${address.covered ? '' : ' We do not come to this address yet.'}`;
    }),
  );

  for (const [kind, section] of [
    ['pet', 'pets'],
    ['address', 'addresses'],
  ] as const) {
    router.post(
      `/account/${section}/:id/notes`,
      act(section, async (req, ctx) => {
        const notes = field(req.body, 'notes') ?? '';
        // Missing or sent twice: not the page's form; nothing is cleared or joined.
        if (typeof notes !== 'string' || typeof req.body?.notes !== 'string')
          return { text: 'notes: send the notes once, as text.', status: 400 };
        await runOperation(pageOperations.changeSavedNotes, ctx, { kind, id: String(req.params.id), notes });
        return 'Saved the notes.';
      }),
    );
    router.post(
      `/account/${section}/:id/remove`,
      act(section, async (req, ctx) => {
        const outcome = await runOperation(pageOperations.removeSaved, ctx, {
          kind,
          id: String(req.params.id),
        });
        // Still in a live booking: nothing removed, and the page says why (a conflict, 409).
        return outcome.removed ? outcome.message : { text: outcome.message, status: 409 };
      }),
    );
  }
}
