// Fault 1b: the server killed with SIGKILL under mixed write load: bookings, shop orders (card,
// courier) and business sign-up steps (start an application, then its services step), each request
// with its own Idempotency-Key, retried with the same key until it gets a definite answer. After
// the restart on the same DATA_DIR: every acknowledged write exists once, none twice, none that
// nobody was told of, and stock plus the quantities ordered is the stock at the start.
// `pnpm faults crash-writes` runs it; FAULT_TRIALS and FAULT_CLIENTS (per kind of write) change its size.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { createApiKey } from '@nogpets/operations';
import { runningEmbedded } from '@nogpets/store';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type Answer,
  bookingBody,
  type Customer,
  makeCustomer,
  openSlots,
  request,
  type ServerProcess,
  type Slot,
  serviceDatabase,
  sleep,
  spawnServer,
  Tally,
  tempDir,
  FAULT_TRIALS,
  FAULT_CLIENTS,
  GIVE_UP_MS,
  freePort,
} from './support.js';

/** Variants the orders take from, with the stock each starts with (one small, to sell out under load). */
const STOCK: Record<string, { productId: string; stock: number }> = {
  leash: { productId: 'leash', stock: 400 },
  'dental-treats': { productId: 'dental-treats', stock: 400 },
  'lick-mat': { productId: 'lick-mat', stock: 400 },
  'cat-food-fish': { productId: 'cat-food', stock: 10 },
};
/** People made beforehand for sign-ups: one application each, so "none twice" is per person. */
const APPLICANTS = 600;
/** Buyers made beforehand per ordering client: each order is a new person's (two unpaid at most). */
const BUYERS_PER_CLIENT = 150;

type Kind = 'booking' | 'order' | 'start' | 'services';
interface Attempted {
  kind: Kind;
  key: string;
  answers: Answer[];
  /** The definite answer it ended with; undefined when it gave up. */
  final?: Answer;
  /** booking id, order id or application id the client was told of. */
  ackedId?: string;
  /** For sign-ups: the person; for orders: what was asked. */
  userId?: string;
  items?: { variantId: string; qty: number }[];
}

describe('server killed with SIGKILL under booking, order and sign-up load', () => {
  const report: unknown[] = [];
  afterAll(() => {
    console.log(
      JSON.stringify({ fault: 'crash-writes', clientsPerKind: FAULT_CLIENTS, trials: report }, null, 2),
    );
  });

  for (let trial = 1; trial <= FAULT_TRIALS; trial++) {
    it(`trial ${trial}: every acknowledged booking, order and sign-up step exists once; stock adds up`, async () => {
      const tmp = await tempDir('nogpets-fault-crash-writes-');
      const env = { DATA_DIR: tmp.dir, PORT: String(await freePort()) };
      let server: ServerProcess | undefined;
      try {
        server = await spawnServer(env);
        const first = server;
        const url = server.url;
        const pgBefore = await runningEmbedded(path.join(tmp.dir, 'pg'));
        let sql = await serviceDatabase(pgBefore!.url);
        const customer: Customer = await makeCustomer(sql, url);
        // A person may hold two unpaid orders at once (TOO_MANY_UNPAID_ORDERS): every order is
        // made by a buyer of its own, from a pool the orderers share.
        const buyers = await Promise.all(
          Array.from({ length: FAULT_CLIENTS * BUYERS_PER_CLIENT }, (_, i) =>
            createApiKey(sql, {
              email: `faults-buyer-${i}-${randomUUID().slice(0, 6)}@example.com`,
              scopes: ['orders:write'],
            }),
          ),
        );
        const applicants: { key: string; userId: string }[] = [];
        for (let i = 0; i < APPLICANTS; i++)
          applicants.push(
            await createApiKey(sql, {
              email: `faults-applicant-${i}-${randomUUID().slice(0, 6)}@example.com`,
              scopes: ['business:write'],
            }),
          );
        for (const [id, v] of Object.entries(STOCK))
          await sql`update product_variants set stock = ${v.stock} where id = ${id}`;
        await sql.end({ timeout: 5 });
        const slots = await openSlots(url, customer, 1000);
        expect(slots.length).toBeGreaterThan(100);

        let issuing = true;
        const all: Attempted[] = [];
        /** One write with its own key, retried with that key until a definite answer. */
        async function send(
          a: Attempted,
          pathname: string,
          body: unknown,
          as: string,
        ): Promise<Answer | undefined> {
          all.push(a);
          const started = performance.now();
          while (performance.now() - started < GIVE_UP_MS) {
            const answer = await request(
              url,
              'POST',
              pathname,
              body,
              { authorization: `Bearer ${as}`, 'idempotency-key': a.key },
              10_000,
            );
            a.answers.push(answer);
            const code = answer.body?.error?.code;
            // No answer (the server is dead), 503, or the first attempt still held: retry the same key.
            if (
              answer.status === 0 ||
              answer.status === 503 ||
              (answer.status === 409 && code === 'REQUEST_IN_PROGRESS')
            ) {
              await sleep(200);
              continue;
            }
            a.final = answer;
            return answer;
          }
          return undefined;
        }

        let nextSlot = 0;
        async function booker() {
          while (issuing) {
            const slot: Slot = slots[nextSlot++]!;
            const a: Attempted = { kind: 'booking', key: randomUUID(), answers: [] };
            const answer = await send(a, '/v1/bookings', bookingBody(customer, slot), customer.key);
            if (answer?.status === 201) a.ackedId = answer.body.bookingId;
          }
        }
        let nextBuyer = 0;
        async function orderer(n: number) {
          const ids = Object.keys(STOCK).filter((id) => id !== 'cat-food-fish');
          for (let i = 0; issuing && nextBuyer < buyers.length; i++) {
            const buyer = buyers[nextBuyer++]!;
            const items = [
              { variantId: ids[(n + i) % ids.length]!, qty: 1 + (i % 3) },
              ...(i % 4 === 0 ? [{ variantId: 'cat-food-fish', qty: 1 }] : []),
            ];
            const a: Attempted = {
              kind: 'order',
              key: randomUUID(),
              answers: [],
              userId: buyer.userId,
              items,
            };
            const answer = await send(
              a,
              '/v1/orders',
              {
                items: items.map((x) => ({ productId: STOCK[x.variantId]!.productId, ...x })),
                shippingMethod: 'courier',
                paymentMethod: 'CARD',
                shipTo: { line1: '12 Dorp Street', city: 'Stellenbosch', postalCode: '7600' },
              },
              buyer.key,
            );
            if (answer?.status === 201) a.ackedId = answer.body.orderId;
          }
        }
        let nextApplicant = 0;
        async function applicant(n: number) {
          while (issuing && nextApplicant < applicants.length) {
            const person = applicants[nextApplicant++]!;
            const start: Attempted = { kind: 'start', key: randomUUID(), answers: [], userId: person.userId };
            const started = await send(
              start,
              '/v1/business/applications',
              {
                businessName: `Fault Grooming ${n}-${nextApplicant}`,
                town: 'Stellenbosch',
                phone: '+27 82 555 0101',
                categories: ['grooming'],
                mode: 'MOBILE',
              },
              person.key,
            );
            if (started?.status !== 201) continue;
            start.ackedId = started.body.applicationId;
            const services: Attempted = {
              kind: 'services',
              key: randomUUID(),
              answers: [],
              userId: person.userId,
            };
            const done = await send(
              services,
              `/v1/business/applications/${start.ackedId}/services`,
              { useTemplate: true },
              person.key,
            );
            if (done?.status === 200) services.ackedId = start.ackedId;
          }
        }
        const load = [
          ...Array.from({ length: FAULT_CLIENTS }, () => booker()),
          ...Array.from({ length: FAULT_CLIENTS }, (_, n) => orderer(n)),
          ...Array.from({ length: FAULT_CLIENTS }, (_, n) => applicant(n)),
        ];
        await sleep(2500 + Math.random() * 2000);
        const killedAt = performance.now();
        first.child.kill('SIGKILL');
        await first.exited;
        const orphan = await runningEmbedded(path.join(tmp.dir, 'pg'));
        server = await spawnServer(env);
        const restartMs = performance.now() - killedAt;
        await sleep(4000);
        issuing = false;
        await Promise.all(load);

        const pgAfter = await runningEmbedded(path.join(tmp.dir, 'pg'));
        sql = await serviceDatabase(pgAfter!.url);
        const of = (kind: Kind) => all.filter((a) => a.kind === kind);
        const ackedIds = (kind: Kind) => new Set(of(kind).flatMap((a) => (a.ackedId ? [a.ackedId] : [])));

        // Bookings: one row per slot, each acknowledged.
        const bookingRows = await sql<{ id: string; resource_id: string; starts_at: Date }[]>`
          select id, resource_id, starts_at from bookings where user_id = ${customer.userId} and status in ('PENDING', 'ACCEPTED')`;
        const perSlot = new Map<string, number>();
        for (const r of bookingRows) {
          const k = `${r.resource_id}@${r.starts_at.toISOString()}`;
          perSlot.set(k, (perSlot.get(k) ?? 0) + 1);
        }
        const bookings = check(
          ackedIds('booking'),
          bookingRows.map((r) => r.id),
          [...perSlot.values()].filter((n) => n > 1).length,
        );

        // Orders: each acknowledged order once, with the lines asked for; none unacknowledged.
        const buyerIds = buyers.map((b) => b.userId);
        const orderRows = await sql<{ id: string; lines: { variantId: string; qty: number }[] }[]>`
          select o.id, coalesce(json_agg(json_build_object('variantId', l.variant_id, 'qty', l.qty) order by l.variant_id)
                   filter (where l.variant_id is not null), '[]') as lines
          from orders o left join order_lines l on l.order_id = o.id
          where o.user_id = any(${buyerIds}) group by o.id`;
        const orders = check(
          ackedIds('order'),
          orderRows.map((r) => r.id),
          0,
        );
        const wrongLines = of('order')
          .filter((a) => a.ackedId)
          .filter((a) => {
            const row = orderRows.find((r) => r.id === a.ackedId);
            const asked = [...a.items!].sort((x, y) => x.variantId.localeCompare(y.variantId));
            return row && JSON.stringify(row.lines) !== JSON.stringify(asked);
          })
          .map((a) => a.ackedId);
        const stockRows = await sql<{ id: string; stock: number; ordered: number }[]>`
          select v.id, v.stock, coalesce((select sum(l.qty) from order_lines l where l.variant_id = v.id), 0)::int as ordered
          from product_variants v where v.id = any(${Object.keys(STOCK)}) order by v.id`;
        const stockOff = stockRows
          .filter((r) => r.stock + r.ordered !== STOCK[r.id]!.stock || r.stock < 0)
          .map((r) => `${r.id}: ${r.stock} + ${r.ordered} ordered, started ${STOCK[r.id]!.stock}`);

        // Sign-ups: one application per person who was told of one; its services step audited once when acknowledged.
        const applicantIds = applicants.map((p) => p.userId);
        const appRows = await sql<{ id: string; user_id: string; services: unknown[] | null }[]>`
          select id, user_id, services from business_applications where user_id = any(${applicantIds})`;
        const perPerson = new Map<string, number>();
        for (const r of appRows) perPerson.set(r.user_id, (perPerson.get(r.user_id) ?? 0) + 1);
        const starts = check(
          ackedIds('start'),
          appRows.map((r) => r.id),
          [...perPerson.values()].filter((n) => n > 1).length,
        );
        const stepAudits = await sql<{ target: string; n: number }[]>`
          select target, count(*)::int as n from audit_log
          where action = 'application.services' and target = any(${appRows.map((r) => r.id)}) group by target`;
        const auditedSteps = new Map(stepAudits.map((r) => [r.target, r.n]));
        const ackedSteps = ackedIds('services');
        const steps = {
          acknowledged: ackedSteps.size,
          acknowledgedFound: [...ackedSteps].filter((id) => auditedSteps.get(id) === 1).length,
          missing: [...ackedSteps].filter((id) => !auditedSteps.has(id)),
          twice: [...auditedSteps].filter(([, n]) => n > 1).map(([id]) => id),
          notAcknowledged: [...auditedSteps.keys()].filter((id) => !ackedSteps.has(id)),
          stepAppliedWithoutServices: appRows
            .filter((r) => auditedSteps.has(r.id) && !(r.services as unknown[] | null)?.length)
            .map((r) => r.id),
        };
        await sql.end({ timeout: 5 });

        const stuck = all.filter((a) => !a.final);
        const tally = (kind: Kind) => {
          const t = new Tally();
          for (const a of of(kind)) for (const x of a.answers) t.add(x);
          return t.toJSON();
        };
        const summary = (kind: Kind, c: ReturnType<typeof check>) => ({
          keys: of(kind).length,
          answers: tally(kind),
          acknowledged: c.acknowledged,
          acknowledgedFound: c.acknowledgedFound,
          inDatabase: c.inDatabase,
          twice: c.twice,
          notAcknowledged: c.notAcknowledged.length,
        });
        const figures = {
          trial,
          bookings: summary('booking', bookings),
          orders: {
            ...summary('order', orders),
            linesNotAsAsked: wrongLines.length,
            stock: Object.fromEntries(stockRows.map((r) => [r.id, { left: r.stock, ordered: r.ordered }])),
          },
          applications: summary('start', starts),
          servicesSteps: {
            keys: of('services').length,
            answers: tally('services'),
            acknowledged: steps.acknowledged,
            acknowledgedFound: steps.acknowledgedFound,
            twice: steps.twice.length,
            notAcknowledged: steps.notAcknowledged.length,
          },
          keysStillInProgress: stuck.length,
          restartMs: Math.round(restartMs),
          leftRunningPostgres: orphan ? { port: orphan.port } : null,
        };
        report.push(figures);

        expect(server.alive()).toBe(true);
        expect(stuck.map((a) => `${a.kind} ${a.key}: ${a.answers.map((x) => x.status).join(',')}`)).toEqual(
          [],
        );
        for (const [what, c] of [
          ['bookings', bookings],
          ['orders', orders],
          ['applications', starts],
        ] as const) {
          expect(c.missing, `${what} acknowledged, not found`).toEqual([]);
          expect(c.twice, `${what} twice`).toBe(0);
          expect(c.notAcknowledged, `${what} not acknowledged`).toEqual([]);
        }
        expect(figures.orders.acknowledged).toBeGreaterThan(0);
        expect(figures.applications.acknowledged).toBeGreaterThan(0);
        expect(wrongLines).toEqual([]);
        expect(stockOff).toEqual([]);
        expect(steps.acknowledged).toBeGreaterThan(0);
        expect(steps.missing).toEqual([]);
        expect(steps.twice).toEqual([]);
        expect(steps.notAcknowledged).toEqual([]);
        expect(steps.stepAppliedWithoutServices).toEqual([]);
      } finally {
        await server?.stop();
        await tmp.rm();
      }
    });
  }
});

/** Acknowledged ids against the rows found: missing, extra (nobody told of them), and how many twice. */
function check(acked: Set<string>, found: string[], twice: number) {
  const foundSet = new Set(found);
  return {
    acknowledged: acked.size,
    acknowledgedFound: [...acked].filter((id) => foundSet.has(id)).length,
    inDatabase: found.length,
    missing: [...acked].filter((id) => !foundSet.has(id)),
    twice: twice + (found.length - foundSet.size),
    notAcknowledged: found.filter((id) => !acked.has(id)),
  };
}
