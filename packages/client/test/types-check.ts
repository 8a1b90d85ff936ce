// Typechecked by `pnpm typecheck` (tsconfig includes test/) and by test/types.test.ts, which also
// checks that each `@ts-expect-error` below is an error once the directive is gone: the types are
// the API's own, not `any`.
import { createNogPetsClient, type ErrorBody, type ErrorCode } from '../src/index.js';

const api = createNogPetsClient({ baseUrl: 'http://localhost:3000', token: 'npk_test' });

const pets = [
  { name: 'Rex', type: 'DOG' as const, weightKg: 12, coat: 'SHORT' as const, serviceIds: ['groom-dog-bath'] },
];

export async function quoteAndBook(): Promise<string | undefined> {
  const quote = await api.POST('/v1/quote', {
    body: { category: 'grooming', address: 'Die Boord', pets },
  });
  if (quote.data) {
    const cents: number = quote.data.cardTotalCents;
    // @ts-expect-error the quote has cardTotalCents, not cardTotal
    quote.data.cardTotal;
    void cents;
  }
  if (quote.error) {
    const code: ErrorCode = quote.error.error.code;
    const body: ErrorBody = quote.error;
    // @ts-expect-error an error's code is one of the API's codes
    const notACode: ErrorCode = 'NOT_A_CODE';
    void code;
    void body;
    void notACode;
  }

  // @ts-expect-error the category is grooming, walking or sitting
  await api.POST('/v1/quote', { body: { category: 'bathing', address: 'Die Boord', pets } });

  await api.POST('/v1/availability', {
    // @ts-expect-error a wrong field name: petz is no field of the request (and pets is missing)
    body: { category: 'grooming', address: 'Die Boord', petz: pets },
  });

  // @ts-expect-error no such path
  await api.POST('/v1/bookingz', { body: {} });

  const booked = await api.POST('/v1/bookings', {
    body: {
      category: 'grooming',
      addressId: 'adr_1',
      pets: [{ petId: 'pet_1', serviceIds: ['groom-dog-bath'] }],
      start: '2026-11-25T07:00:00.000Z',
      resourceId: 'van-1',
      // @ts-expect-error paymentMethod is CARD or CASH
      paymentMethod: 'CHEQUE',
    },
  });
  // @ts-expect-error a booking's id is bookingId on the book result
  booked.data?.id;

  // @ts-expect-error the path parameter is required
  await api.GET('/v1/bookings/{bookingId}', {});
  return booked.data?.payUrl;
}

/** The README's error example, as written there. */
export async function readmeErrors(): Promise<void> {
  const api = createNogPetsClient({ baseUrl: 'http://localhost:3000' });
  const { data, error, response } = await api.POST('/v1/availability', {
    body: {
      category: 'grooming',
      address: 'Paarl',
      pets: [{ name: 'Rex', type: 'DOG', weightKg: 12, coat: 'SHORT', serviceIds: ['groom-dog-bath'] }],
    },
  });
  if (error) {
    if (error.error.code === 'NO_COVERAGE') console.log(error.error.details.message);
    else if (error.error.code === 'BAD_REQUEST') console.log(error.error.details.fields);
    else console.log(response.status, error.error.code, error.error.message);
  } else {
    console.log(data.days);
  }
}
