// The operator's review of business applications: operator accounts, `pnpm cli application list |
// approve | reject` and `area approve`, what approval makes (the business, its lines, services,
// resources, areas, people and listing, in one transaction), and every refusal changing nothing.
import { hash } from '@node-rs/argon2';
import { CLI_REVIEWER, systemClock } from '@nogpets/operations';
import { approveApplication } from '@nogpets/operations/testing';
import { findBusiness, findOrCreateUser, insertListing, loadOffer, setPassword } from '@nogpets/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, postForm, signedInForm, startTestServer, type TestServer } from './harness.js';
import { applicationForReview, HOURS, WALKER_WEEK } from './review-fixture.js';

const PASSWORD = 'a long enough password';

describe('the operator reviews business applications', () => {
  let server: TestServer;
  const run = (...args: string[]) => cli(server.db.url, args);

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.stop());

  /** Everything a refused decision must leave as it was. */
  async function snapshot() {
    const sql = server.db.sql;
    const [counts] = await sql`
      select (select count(*)::int from businesses) as businesses, (select count(*)::int from services) as services,
        (select count(*)::int from service_areas) as areas, (select count(*)::int from business_members) as members,
        (select count(*)::int from directory_listings) as listings,
        (select count(*)::int from audit_log where action like 'application.%' or action like 'area.%') as audits`;
    const apps =
      await sql`select id, status, area, review_note, business_id, updated_at from business_applications order by id`;
    return { counts, apps };
  }

  const status = async (fixture: { applicationId: string; auth: string }) =>
    (
      await server.get(`/v1/business/applications?applicationId=${fixture.applicationId}`, {
        authorization: fixture.auth,
      })
    ).body.application;

  it('grants and removes operator accounts from the CLI', async () => {
    const added = await run('operator', 'add', '--email', 'Ops@Example.com');
    expect(added.status, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/Ops@Example\.com may now use the operator console/);
    const again = await run('operator', 'add', '--email', 'ops@example.com');
    expect(again.stdout).toMatch(/could already use/);
    const [row] = await server.db.sql`
      select o.granted_by from operators o join users u on u.id = o.user_id where lower(u.email) = 'ops@example.com'`;
    expect(row!.granted_by).toBe('operator (CLI)');
    const removed = await run('operator', 'remove', '--email', 'ops@example.com');
    expect(removed.stdout).toMatch(/may no longer use/);
    expect((await server.db.sql`select * from operators`).length).toBe(0);
    const bad = await run('operator', 'add', '--email', 'not an email');
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/email/);
  });

  it('approves a submitted application into a business with its catalogue, people and listing', async () => {
    // The crew member has an account already; the manager has none yet.
    await findOrCreateUser(server.db.sql, 'sipho.walker@example.com');
    const app = await applicationForReview(server, 'thandi@example.com', {
      name: 'Boland Bubbles',
      staff: ['sipho.walker@example.com', 'head.groomer@example.com'],
    });
    const before = await status(app);
    expect(before).toMatchObject({ status: 'SUBMITTED', readyToSubmit: true });

    const listed = await run('application', 'list');
    expect(listed.status, listed.stderr).toBe(0);
    const first = listed.stdout.split('\n')[0]!;
    expect(first).toContain(app.applicationId);
    expect(first).toMatch(/SUBMITTED\tBoland Bubbles\tZA\tStellenbosch\tready yes/);
    const json = JSON.parse((await run('application', 'list', '--json', '--status', 'SUBMITTED')).stdout);
    expect(json[0]).toMatchObject({ applicationId: app.applicationId, readyToSubmit: true });
    expect(json[0].checklist.map((i: { id: string }) => i.id)).toContain('services');

    const approved = await run('application', 'approve', app.applicationId);
    expect(approved.status, approved.stderr).toBe(0);
    expect(approved.stdout).toMatch(/APPROVED\tbusiness biz_/);
    const sql = server.db.sql;
    const [a] =
      await sql`select status, business_id, reviewed_by, reviewed_at from business_applications where id = ${app.applicationId}`;
    expect(a).toMatchObject({ status: 'APPROVED', reviewed_by: 'operator (CLI)' });
    expect(a!.reviewed_at).toBeInstanceOf(Date);
    const businessId = a!.business_id as string;

    const [business] =
      await sql`select name, country, currency, timezone, is_operator from businesses where id = ${businessId}`;
    expect(business).toEqual({
      name: 'Boland Bubbles',
      country: 'ZA',
      currency: 'ZAR',
      timezone: 'Africa/Johannesburg',
      is_operator: false,
    });
    const lines =
      await sql`select id, label, duration_mode, repeats from service_lines where business_id = ${businessId} order by sort`;
    expect(lines).toEqual([
      { id: 'grooming', label: 'Mobile grooming', duration_mode: 'SUM', repeats: false },
      { id: 'walking', label: 'Dog walking', duration_mode: 'MAX', repeats: true },
    ]);
    const services = await sql`
      select id, line_id, kind, price_cents, group_size from services where business_id = ${businessId} order by sort`;
    expect(services.map((s) => s.id)).toEqual(app.serviceIds);
    expect(services.map((s) => [s.line_id, s.kind, s.price_cents, s.group_size])).toEqual([
      ['grooming', 'PRIMARY', 45000, 1],
      ['grooming', 'EXTRA', 6000, 1],
      ['walking', 'PRIMARY', 14000, 4],
    ]);
    const resources = await sql`
      select id, kind, week, slot_step_min, travel_buffer_min from resources where business_id = ${businessId} order by sort`;
    expect(resources).toEqual([
      { id: app.resourceIds.van, kind: 'VAN', week: HOURS, slot_step_min: 30, travel_buffer_min: 15 },
      {
        id: app.resourceIds.walker,
        kind: 'WALKER',
        week: WALKER_WEEK,
        slot_step_min: 60,
        travel_buffer_min: null,
      },
    ]);
    const areas = await sql`
      select id, status, lat, lng, radius_km::float as radius, postal_code, town from service_areas
      where business_id = ${businessId} order by sort`;
    expect(areas).toEqual([
      {
        id: app.areaIds.radius,
        status: 'PENDING',
        lat: -33.9346,
        lng: 18.8668,
        radius: 8,
        postal_code: null,
        town: 'Stellenbosch',
      },
      {
        id: app.areaIds.postal,
        status: 'PENDING',
        lat: null,
        lng: null,
        radius: null,
        postal_code: '7690',
        town: 'Stellenbosch',
      },
    ]);
    const lineAreas =
      await sql`select line_id, area_id from line_areas where business_id = ${businessId} order by line_id, area_id`;
    expect(lineAreas).toHaveLength(4);
    const members = await sql`
      select u.email, m.role, m.job_title, m.resource_ids from business_members m join users u on u.id = m.user_id
      where m.business_id = ${businessId} order by m.role desc`;
    // Staff by consent: the owner only; both people named are invited (even the one
    // with an account) and mailed the invitation's page.
    expect(members).toEqual([
      { email: 'thandi@example.com', role: 'owner', job_title: null, resource_ids: [] },
    ]);
    const invitations = await sql`
      select id, email, role, resource_ids, sent_at from business_invitations where business_id = ${businessId}
      order by role`;
    expect(invitations.map(({ id, sent_at, ...v }) => v)).toEqual([
      { email: 'sipho.walker@example.com', role: 'crew', resource_ids: [app.resourceIds.walker] },
      { email: 'head.groomer@example.com', role: 'manager', resource_ids: [app.resourceIds.van] },
    ]);
    for (const v of invitations) {
      expect(v.sent_at).not.toBeNull();
      const [mail] =
        await sql`select subject, body, kind from mail_outbox where to_address = ${v.email} order by seq desc limit 1`;
      expect(mail!.subject).toBe('Boland Bubbles invites you to its staff on NogPets');
      // Its own kind (retried with backoff), with a link for each answer.
      expect(mail!.kind).toBe('staff_invitation');
      for (const answer of ['accept', 'decline'])
        expect(mail!.body).toMatch(new RegExp(`: http://\\S+/invitations/${v.id}\\?answer=${answer}$`, 'm'));
    }

    // The directory has it as a partner, under its town.
    const found = await server.get('/v1/directory?town=stellenbosch&q=boland%20bubbles');
    const listing = found.body.listings.find((l: { name: string }) => l.name === 'Boland Bubbles');
    expect(listing).toMatchObject({
      partner: true,
      isNogPets: false,
      categories: ['MOBILE_GROOMING', 'DOG_WALKING'],
      services: ['Full groom', 'Group walk (60 min)'],
      fictional: false,
    });
    // The applicant sees it approved.
    expect(await status(app)).toMatchObject({ status: 'APPROVED', reviewNote: null });
    const [audited] =
      await sql`select client_name, details from audit_log where action = 'application.approve' and target = ${app.applicationId}`;
    expect(audited).toMatchObject({ client_name: 'operator (CLI)', details: { businessId } });

    // Approving it again is refused, and changes nothing.
    const held = await snapshot();
    const twice = await run('application', 'approve', app.applicationId);
    expect(twice.status).not.toBe(0);
    expect(twice.stderr).toMatch(/already approved/);
    expect(await snapshot()).toEqual(held);

    // Its pending areas: approved one by one, in the application and the business alike.
    const area = await run('area', 'approve', app.areaIds.radius);
    expect(area.status, area.stderr).toBe(0);
    expect(area.stdout).toContain(`APPROVED\t${app.areaNames.radius}`);
    const [areaRow] =
      await sql`select status from service_areas where business_id = ${businessId} and id = ${app.areaIds.radius}`;
    expect(areaRow!.status).toBe('APPROVED');
    const [stored] = await sql`select area from business_applications where id = ${app.applicationId}`;
    expect((stored!.area as { id: string; status: string }[]).map((x) => x.status)).toEqual([
      'APPROVED',
      'PENDING',
    ]);
    const heldArea = await snapshot();
    const areaTwice = await run('area', 'approve', app.areaIds.radius);
    expect(areaTwice.status).not.toBe(0);
    expect(areaTwice.stderr).toMatch(/already approved/);
    const noArea = await run('area', 'approve', 'area_nothere');
    expect(noArea.status).not.toBe(0);
    expect(noArea.stderr).toMatch(/No proposed area/);
    expect(await snapshot()).toEqual(heldArea);
    // A postal code without a centre may be approved, and the business's offer holds it beside the
    // radius: it covers the places of that code (partner-areas.test.ts).
    expect((await run('area', 'approve', app.areaIds.postal)).status).toBe(0);
    const [row] =
      await sql`select status from service_areas where business_id = ${businessId} and id = ${app.areaIds.postal}`;
    expect(row!.status).toBe('APPROVED');
    const offer = await loadOffer(sql, (await findBusiness(sql, businessId))!);
    expect(offer.areas.map((x) => [x.id, x.kind])).toEqual([
      [app.areaIds.radius, 'RADIUS'],
      [app.areaIds.postal, 'POSTAL_CODE'],
    ]);
    const both = [app.areaIds.radius, app.areaIds.postal].sort();
    expect(offer.lines.map((l) => [l.id, l.areaIds])).toEqual([
      ['grooming', both],
      ['walking', both],
    ]);
  });

  it('links the claimed directory listing instead of publishing another', async () => {
    const claim = 'dir-eikestad-paws-mobile-grooming';
    const app = await applicationForReview(server, 'eikestad@example.com', {
      name: 'Eikestad Paws Mobile Grooming',
      claimListingId: claim,
    });
    const listingsBefore = (await server.db.sql`select count(*)::int as n from directory_listings`)[0]!.n;
    const approved = await run('application', 'approve', app.applicationId, '--claim-checked');
    expect(approved.status, approved.stderr).toBe(0);
    expect(approved.stdout).toMatch(`listing ${claim} (claimed)`);
    const [a] = await server.db
      .sql`select business_id from business_applications where id = ${app.applicationId}`;
    const [l] = await server.db.sql`select business_id from directory_listings where id = ${claim}`;
    expect(l!.business_id).toBe(a!.business_id);
    expect((await server.db.sql`select count(*)::int as n from directory_listings`)[0]!.n).toBe(
      listingsBefore,
    );
    const found = await server.get('/v1/directory?q=eikestad%20paws');
    expect(found.body.listings.find((x: { id: string }) => x.id === claim)).toMatchObject({ partner: true });
    // An area rejected: in the application, and in the business it became.
    const rejected = await run('area', 'reject', app.areaIds.postal);
    expect(rejected.stdout).toContain(`REJECTED\t${app.areaNames.postal}`);
    const [area] = await server.db.sql`
      select status from service_areas where business_id = ${a!.business_id} and id = ${app.areaIds.postal}`;
    expect(area!.status).toBe('REJECTED');
  });

  it('rejects with a note the applicant reads, and refuses what is not waiting for review', async () => {
    const draft = await applicationForReview(server, 'drafty@example.com', {
      name: 'Still Drafting',
      submit: false,
    });
    const held = await snapshot();
    const approveDraft = await run('application', 'approve', draft.applicationId);
    expect(approveDraft.status).not.toBe(0);
    expect(approveDraft.stderr).toMatch(/still a draft/);
    const rejectDraft = await run('application', 'reject', draft.applicationId, '--note', 'no');
    expect(rejectDraft.status).not.toBe(0);
    const areaOfDraft = await run('area', 'approve', draft.areaIds.radius);
    expect(areaOfDraft.status).not.toBe(0);
    expect(areaOfDraft.stderr).toMatch(/still a draft/);
    const missing = await run('application', 'approve', 'app_nothere');
    expect(missing.status).not.toBe(0);
    expect(missing.stderr).toMatch(/No application app_nothere/);
    expect(await snapshot()).toEqual(held);

    const app = await applicationForReview(server, 'refused@example.com', { name: 'Too Far Away Grooming' });
    const held2 = await snapshot();
    const noNote = await run('application', 'reject', app.applicationId);
    expect(noNote.status).not.toBe(0);
    const blank = await run('application', 'reject', app.applicationId, '--note', '   ');
    expect(blank.status).not.toBe(0);
    expect(blank.stderr).toMatch(/note/);
    const long = await run('application', 'reject', app.applicationId, '--note', 'x'.repeat(1001));
    expect(long.status).not.toBe(0);
    expect(await snapshot()).toEqual(held2);

    const note = 'x'.repeat(990) + ' PayFast?';
    const rejected = await run('application', 'reject', app.applicationId, '--note', note);
    expect(rejected.status, rejected.stderr).toBe(0);
    expect(await status(app)).toMatchObject({ status: 'REJECTED', reviewNote: note });
    const held3 = await snapshot();
    const approveRejected = await run('application', 'approve', app.applicationId);
    expect(approveRejected.status).not.toBe(0);
    expect(approveRejected.stderr).toMatch(/already rejected/);
    expect(await snapshot()).toEqual(held3);
  });

  it('refuses a submitted application that is not complete, naming what it needs', async () => {
    const app = await applicationForReview(server, 'unpriced@example.com', {
      name: 'No Price Yet',
      unpriced: true,
    });
    const held = await snapshot();
    const refused = await run('application', 'approve', app.applicationId);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/cannot be approved yet.*Full groom/);
    expect(await snapshot()).toEqual(held);
  });

  it('makes one business when two approvals of one application run at once', async () => {
    const app = await applicationForReview(server, 'twice@example.com', { name: 'Double Click Dogs' });
    const deps = { sql: server.db.sql, clock: systemClock, payments: { publicUrl: () => server.url } };
    const outcomes = await Promise.allSettled([
      approveApplication(deps, app.applicationId, CLI_REVIEWER),
      approveApplication(deps, app.applicationId, CLI_REVIEWER),
    ]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const failed = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect(failed.reason).toMatchObject({ code: 'NOT_ACTIVE' });
    const made = await server.db
      .sql`select count(*)::int as n from businesses where name = 'Double Click Dogs'`;
    expect(made[0]!.n).toBe(1);
  });

  it('keeps the console to operators: sign in first, others get 403 and change nothing', async () => {
    const app = await applicationForReview(server, 'waiting@example.com', { name: 'Waiting Whiskers' });
    const anon = await fetch(`${server.url}/operator`, { redirect: 'manual' });
    expect(anon.status).toBe(303);
    expect(anon.headers.get('location')).toBe('/signin?next=%2Foperator');

    const person = await findOrCreateUser(server.db.sql, 'not.an.operator@example.com');
    await setPassword(server.db.sql, person.id, await hash(PASSWORD));
    const form = await signedInForm(server, 'not.an.operator@example.com', PASSWORD);
    const page = await fetch(`${server.url}/operator`, { headers: { cookie: form.cookie } });
    expect(page.status).toBe(403);
    expect(await page.text()).not.toContain('Waiting Whiskers');
    const held = await snapshot();
    const post = await postForm(
      server,
      `/operator/applications/${app.applicationId}/approve`,
      { confirm: 'yes' },
      form,
    );
    expect(post.status).toBe(403);
    const area = await postForm(server, `/operator/areas/${app.areaIds.radius}/approve`, {}, form);
    expect(area.status).toBe(403);
    expect(await snapshot()).toEqual(held);

    // Made an operator, the same person sees it; a form without its token is refused.
    await run('operator', 'add', '--email', 'not.an.operator@example.com');
    const now = await fetch(`${server.url}/operator`, { headers: { cookie: form.cookie } });
    expect(now.status).toBe(200);
    expect(await now.text()).toContain('Waiting Whiskers');
    const forged = await postForm(
      server,
      `/operator/applications/${app.applicationId}/approve`,
      { confirm: 'yes' },
      {
        cookie: form.cookie,
        csrf: 'forged',
      },
    );
    expect(forged.status).toBe(403);
    const reject = await postForm(
      server,
      `/operator/applications/${app.applicationId}/reject`,
      { reviewNote: '' },
      form,
    );
    expect(reject.status).toBe(400);
    expect(await snapshot()).toEqual(held);
  });

  it('says so when the claimed listing went to another business meanwhile, and publishes a new one', async () => {
    const claim = 'dir-papegaai-pet-parlour';
    const first = await applicationForReview(server, 'claim.one@example.com', {
      name: 'Papegaai Pet Parlour',
      claimListingId: claim,
    });
    const second = await applicationForReview(server, 'claim.two@example.com', {
      name: 'Papegaai Pet Parlour Too',
      claimListingId: claim,
    });
    expect((await run('application', 'approve', first.applicationId, '--claim-checked')).stdout).toMatch(
      `listing ${claim} (claimed)`,
    );
    const approved = await run('application', 'approve', second.applicationId, '--claim-checked');
    expect(approved.status, approved.stderr).toBe(0);
    expect(approved.stdout).toMatch(/listing dir_\S+ \(new\)/);
    expect(approved.stdout).toContain(`the claimed listing ${claim} belongs to another business`);
  });

  it('leaves nothing behind when approval fails midway', async () => {
    const app = await applicationForReview(server, 'midway@example.com', { name: 'Midway Mutts' });
    // A stored row the business tables refuse (a later rule, a hand edit): the services insert fails.
    await server.db.sql`
      update business_applications set services = jsonb_set(services, '{2,durationMin}', '-5') where id = ${app.applicationId}`;
    const held = await snapshot();
    const failed = await run('application', 'approve', app.applicationId);
    expect(failed.status).not.toBe(0);
    expect(await snapshot()).toEqual(held);
    expect((await server.db.sql`select 1 from businesses where name = 'Midway Mutts'`).length).toBe(0);
    // Said as a refusal (the console shows it; never a 500), naming the application.
    const refused = await approveApplication(
      { sql: server.db.sql, clock: systemClock, payments: { publicUrl: () => server.url } },
      app.applicationId,
      CLI_REVIEWER,
    ).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'NOT_ACTIVE', status: 409 });
    expect(String((refused as Error).message)).toContain(app.applicationId);
    expect(await snapshot()).toEqual(held);
  });

  /** A listing in Stellenbosch that is nobody's yet, with the contacts given. */
  async function listing(
    id: string,
    name: string,
    contacts: { phone?: string; email?: string; website?: string },
  ) {
    await insertListing(
      server.db.sql,
      {
        id,
        name,
        categories: ['MOBILE_GROOMING'],
        area: 'Die Boord',
        town: 'stellenbosch',
        services: ['mobile grooming'],
        website: contacts.website ?? null,
        phone: contacts.phone ?? null,
        email: contacts.email ?? null,
        businessId: null,
        fictional: false,
      },
      new Date('2026-01-05T08:00:00Z'),
    );
  }
  const listingRow = async (id: string) =>
    (await server.db.sql`select * from directory_listings where id = ${id}`)[0];
  const claimAudits = (listingId: string) =>
    server.db
      .sql`select client_name, details from audit_log where action = 'listing.claim' and target = ${listingId}`;
  const inDirectory = async (listingId: string, q: string) =>
    (await server.get(`/v1/directory?town=stellenbosch&q=${encodeURIComponent(q)}`)).body.listings.find(
      (l: { id: string }) => l.id === listingId,
    );

  it('grants no claim the operator did not check: a new listing, the claimed one exactly as it was, audited', async () => {
    const claim = 'dir-test-kloof-mobile-grooming';
    // Its own contacts are not the applicant's (+27 82 555 0101, kloof.owner@example.com, no website).
    await listing(claim, 'Kloof Mobile Grooming', {
      phone: '021 555 0199',
      email: 'hello@kloofgrooming.co.za',
      website: 'https://www.kloofgrooming.co.za',
    });
    const app = await applicationForReview(server, 'kloof.owner@example.com', {
      name: 'Kloof Mobile Grooming',
      claimListingId: claim,
    });
    expect((await status(app)).claim).toEqual({
      listingId: claim,
      name: 'Kloof Mobile Grooming',
      status: 'ASKED',
    });

    // The list shows the claim, both sides' contacts and the mismatch.
    const listed = await run('application', 'list', '--status', 'SUBMITTED');
    expect(listed.status, listed.stderr).toBe(0);
    const lines = listed.stdout.split('\n');
    const at = lines.findIndex((l) => l.startsWith(app.applicationId));
    expect(lines.slice(at + 1, at + 5)).toEqual([
      `  claim\t${claim} (Kloof Mobile Grooming)\tMISMATCH\tapprove with --claim-checked to grant it, without to publish a new listing`,
      '    listing\tphone 021 555 0199 · email hello@kloofgrooming.co.za · website https://www.kloofgrooming.co.za',
      '    applicant\tphone +27 82 555 0101 · email kloof.owner@example.com · website - · account kloof.owner@example.com',
      "    Mismatch: the listing's phone and email and website differ from what the applicant gave; check the claim another way before granting it.",
    ]);
    const json = JSON.parse((await run('application', 'list', '--json', '--status', 'SUBMITTED')).stdout);
    const mine = json.find((a: { applicationId: string }) => a.applicationId === app.applicationId);
    expect(mine.claim).toMatchObject({
      listingId: claim,
      available: true,
      granted: null,
      listing: { phone: '021 555 0199', email: 'hello@kloofgrooming.co.za' },
      applicant: { phone: '+27 82 555 0101', accountEmail: 'kloof.owner@example.com' },
      evidence: { verdict: 'MISMATCH', mismatch: true },
    });

    const before = await listingRow(claim);
    const listingsBefore = (await server.db.sql`select count(*)::int as n from directory_listings`)[0]!.n;
    const approved = await run('application', 'approve', app.applicationId);
    expect(approved.status, approved.stderr).toBe(0);
    expect(approved.stdout).toMatch(/listing dir_\S+ \(new\)/);
    expect(approved.stdout).toContain(`the claim of listing ${claim} is not granted`);
    // The claimed listing: untouched, nobody's, not bookable; the business has a new one.
    expect(await listingRow(claim)).toEqual(before);
    expect(before!.business_id).toBeNull();
    const [a] = await server.db
      .sql`select business_id from business_applications where id = ${app.applicationId}`;
    const own = await server.db.sql`select id from directory_listings where business_id = ${a!.business_id}`;
    expect(own).toHaveLength(1);
    expect(own[0]!.id).not.toBe(claim);
    expect((await server.db.sql`select count(*)::int as n from directory_listings`)[0]!.n).toBe(
      listingsBefore + 1,
    );
    expect(await inDirectory(claim, 'kloof mobile grooming')).toMatchObject({
      partner: false,
      bookWith: null,
      businessId: null,
      phone: '021 555 0199',
    });
    expect(await claimAudits(claim)).toEqual([
      {
        client_name: 'operator (CLI)',
        details: expect.objectContaining({
          applicationId: app.applicationId,
          businessId: a!.business_id,
          granted: false,
          reason: 'NOT_CHECKED',
          claimChecked: false,
          listingId: own[0]!.id,
          verdict: 'MISMATCH',
        }),
      },
    ]);
    // The applicant is told.
    const after = await status(app);
    expect(after.claim).toEqual({ listingId: claim, name: 'Kloof Mobile Grooming', status: 'NOT_GRANTED' });
    expect(after.next).toContain('The claim of the directory listing Kloof Mobile Grooming was not granted');
    const decided = JSON.parse((await run('application', 'list', '--json', '--status', 'APPROVED')).stdout);
    expect(
      decided.find((x: { applicationId: string }) => x.applicationId === app.applicationId).claim,
    ).toMatchObject({
      granted: false,
    });
  });

  it('grants the claim when the operator checked it (--claim-checked), audited with who did', async () => {
    const claim = 'dir-test-jonkershoek-grooming';
    // The listing's phone is the applicant's, written the South African way.
    await listing(claim, 'Jonkershoek Grooming', { phone: '082 555 0101' });
    const app = await applicationForReview(server, 'jonkershoek@example.com', {
      name: 'Jonkershoek Grooming',
      claimListingId: claim,
    });
    const listed = await run('application', 'list', '--status', 'SUBMITTED');
    expect(listed.stdout).toContain(`  claim\t${claim} (Jonkershoek Grooming)\tMATCH\t`);
    expect(listed.stdout).toContain("    The listing's phone matches what the applicant gave.");

    const approved = await run('application', 'approve', app.applicationId, '--claim-checked');
    expect(approved.status, approved.stderr).toBe(0);
    expect(approved.stdout).toContain(`listing ${claim} (claimed)`);
    const [a] = await server.db
      .sql`select business_id from business_applications where id = ${app.applicationId}`;
    expect((await listingRow(claim))!.business_id).toBe(a!.business_id);
    expect(await inDirectory(claim, 'jonkershoek grooming')).toMatchObject({
      partner: true,
      businessId: a!.business_id,
    });
    expect(await claimAudits(claim)).toEqual([
      {
        client_name: 'operator (CLI)',
        details: expect.objectContaining({
          applicationId: app.applicationId,
          granted: true,
          reason: 'CLAIM_CHECKED',
          claimChecked: true,
          listingId: claim,
          verdict: 'MATCH',
          checks: [expect.objectContaining({ field: 'phone', agrees: true })],
        }),
      },
    ]);
    expect((await status(app)).claim).toEqual({
      listingId: claim,
      name: 'Jonkershoek Grooming',
      status: 'GRANTED',
    });

    // --claim-checked for an application that claims nothing is refused, and changes nothing.
    const plain = await applicationForReview(server, 'no.claim@example.com', { name: 'Unclaimed Tails' });
    const held = await snapshot();
    const refused = await run('application', 'approve', plain.applicationId, '--claim-checked');
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/claims no directory listing.*approve it without "claim checked"/);
    expect(await snapshot()).toEqual(held);
    expect((await status(plain)).status).toBe('SUBMITTED');
  });
});
