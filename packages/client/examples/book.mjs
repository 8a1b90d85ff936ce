// Quote, find a time and book grooming by card with @nogpets/client, then print the pay link.
//   NOGPETS_URL=http://localhost:3000 NOGPETS_KEY=npk_... node examples/book.mjs
// The key needs the scopes pets, addresses and bookings:write (pnpm cli key create, see the README).
import { createNogPetsClient } from '@nogpets/client';

const api = createNogPetsClient({
  baseUrl: process.env.NOGPETS_URL ?? 'http://localhost:3000',
  token: process.env.NOGPETS_KEY,
});

/** The body of a success, or the error's code and message on stderr and exit code 1. */
function ok({ data, error, response }) {
  if (error) {
    console.error(`${response.status} ${error.error.code}: ${error.error.message}`);
    process.exit(1);
  }
  return data;
}

// Booking takes a saved pet and address: Rex and Home, reused when they are there.
const { pets } = ok(await api.GET('/v1/pets'));
const pet =
  pets.find((p) => p.name === 'Rex') ??
  ok(await api.POST('/v1/pets', { body: { name: 'Rex', type: 'DOG', weightKg: 12, coat: 'SHORT' } }));
const { addresses } = ok(await api.GET('/v1/addresses'));
const home =
  addresses.find((a) => a.label === 'Home') ??
  ok(
    await api.POST('/v1/addresses', {
      body: { label: 'Home', line1: '12 Dorp Street', suburb: 'Die Boord' },
    }),
  );

const request = {
  category: 'grooming',
  addressId: home.id,
  pets: [{ petId: pet.id, serviceIds: ['groom-dog-bath'] }],
};

// 1. Quote: what it costs, by card and in cash.
const quote = ok(await api.POST('/v1/quote', { body: request }));
console.log(`Quote: ${quote.summary}`);

// 2. Find times: open slots over the next 7 days; take the first.
const { days } = ok(await api.POST('/v1/availability', { body: request }));
const day = days.find((d) => d.slots.length > 0);
if (!day) {
  console.error('No open time in the next 7 days.');
  process.exit(1);
}
const slot = day.slots[0];
console.log(`First open time: ${day.label} ${slot.time}`);

// 3. Book it by card, passing the slot's start and resourceId unchanged. The client gives this
// change a fresh Idempotency-Key; pass your own in params.header to retry it safely.
const booking = ok(
  await api.POST('/v1/bookings', {
    body: { ...request, start: slot.start, resourceId: slot.resourceId, paymentMethod: 'CARD' },
  }),
);
console.log(`Booked ${booking.bookingId}: ${booking.status}, ${booking.total} by card, ${booking.when}`);
console.log(`Pay here: ${booking.payUrl}`);
